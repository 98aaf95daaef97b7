// Authenticator: bearer tokens on the HTTP API (docs/access.md).
//
// A request authenticates with `Authorization: Bearer TOKEN`; the token is hashed and compared
// in constant time with every entry of the token file (token_file.h). The file is read again
// when it changes: its inode, size and modification time are looked at (one stat) on every
// request that carries a token, so `skillnode token add|revoke` takes effect on a running node
// at its next request, and a new token is never refused (and counted) as a failure while the
// node has yet to notice it. A malformed file is
// logged with its line and, until it is fixed, no token authenticates (a broken revoke must not
// leave a token working).
//
// Failures (a bad token; a missing one where a route requires one) are counted per source
// address: past auth.failuresPerMinute in one minute, every request of that source that carries
// a token is answered 429 (Retry-After: the rest of its minute) without looking at the token.
// The table of sources is bounded (auth.failureSourcesMax); when full, the source whose minute
// began first is forgotten.
//
// Route handlers call Admit() (reads: an anonymous request goes on, seeing less) or Require()
// (e.g. invoking a restricted skill). Both answer 401 with the API's error shape and
// `WWW-Authenticate: Bearer`, or 429, and return false when the handler must stop.
// Loop thread only.
#ifndef SKILLNODE_NODE_AUTH_AUTHENTICATOR_H_
#define SKILLNODE_NODE_AUTH_AUTHENTICATOR_H_

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "node/auth/token_file.h"
#include "node/http/http_message.h"
#include "node/http/prometheus.h"
#include "node/http/responder.h"
#include "transport/clock.h"
#include "transport/endpoint.h"
#include "transport/logger.h"

namespace skillnode::node::auth {

// The window failures are counted in.
constexpr transport::Duration kFailureWindow = transport::Seconds(60);

// Who a request is, as far as access levels go.
struct AuthContext {
  bool authenticated = false;
  std::string token_name;  // the token file's name for the token, when authenticated
};

struct AuthOptions {
  std::string tokens_file;
  int failures_per_minute = 10;
  size_t failure_sources_max = 4096;
};

class Authenticator {
 public:
  Authenticator(AuthOptions options, transport::Logger& logger,
                std::function<transport::TimePoint()> clock);
  Authenticator(const Authenticator&) = delete;
  Authenticator& operator=(const Authenticator&) = delete;

  enum class Verdict { kAnonymous, kAuthenticated, kBadToken, kRateLimited };
  struct Check {
    Verdict verdict = Verdict::kAnonymous;
    std::string token_name;             // kAuthenticated
    std::string reason;                 // kBadToken, kRateLimited: for the answer's message
    transport::Duration retry_after{};  // kRateLimited
  };
  // Looks at the request's Authorization header (and counts a failure); answers nothing.
  Check Authenticate(const http::HttpRequest& request);

  // Fills `context`. A request without a token is anonymous; a bad token is answered 401 and a
  // rate-limited source 429, and false returned.
  bool Admit(const http::HttpRequest& request, http::Responder& responder, AuthContext& context);
  // As Admit, but a request without a token is answered 401 too (and counted as a failure).
  bool Require(const http::HttpRequest& request, http::Responder& responder, AuthContext& context);
  // True when the request carries a valid token (no answer is sent; failures are counted).
  bool Authenticated(const http::HttpRequest& request);

  // Reads the token file if it changed since it was last read (always when `force`).
  void Refresh(bool force = false);
  // Switches to another token file (a configuration reload) and reads it.
  void SetTokensFile(std::string path);

  size_t tokens() const { return entries_.size(); }
  const std::string& file_error() const { return file_error_; }
  const std::string& tokens_file() const { return options_.tokens_file; }
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  struct Stats {
    uint64_t authenticated = 0;
    uint64_t anonymous = 0;
    uint64_t bad_token = 0;
    uint64_t missing_token = 0;  // where a route required one
    uint64_t rate_limited = 0;
    uint64_t reloads = 0;
    uint64_t file_errors = 0;
    uint64_t sources_forgotten = 0;
  };
  const Stats& stats() const { return stats_; }

 private:
  struct Source {
    transport::TimePoint window_start = transport::kTimeZero;
    uint32_t failures = 0;
  };
  // Whether `from` is past its limit now (and for how long more).
  bool Limited(const transport::Address& from, transport::TimePoint now,
               transport::Duration& retry_after);
  void CountFailure(const transport::Address& from, transport::TimePoint now);
  void Unauthorized(http::Responder& responder, const std::string& message, bool bad_token);
  void TooMany(http::Responder& responder, const Check& check);

  AuthOptions options_;
  transport::Logger& logger_;
  std::function<transport::TimePoint()> clock_;
  std::vector<TokenEntry> entries_;
  std::string file_error_;
  // What the file looked like when last read: (inode, size, mtime ns); all 0 when absent.
  std::array<int64_t, 3> file_state_{-1, -1, -1};
  std::map<transport::Address, Source> sources_;
  Stats stats_;
};

}  // namespace skillnode::node::auth

#endif  // SKILLNODE_NODE_AUTH_AUTHENTICATOR_H_
