// UvHttpClient: HTTP and HTTPS requests on the libuv loop, through libcurl's multi-socket
// interface (curl_multi_socket_action). No thread per request and no blocking call: curl tells
// the client which sockets to watch (one uv_poll_t each) and when to wake it (one UvTimer), and
// the loop hands the events back. Every request has a whole-transfer timeout, a bound on the
// response body, TLS with certificate and host verification (a CA file may replace the
// system's store), and an optional bearer token. Redirects are not followed.
//
// Name resolution is curl's own asynchronous resolver (Debian's libcurl resolves in a helper
// thread of its own); an address literal needs none.
//
// Callbacks run on the loop thread, never inside Start(), and exactly once per request unless
// it is cancelled (Cancel, Close). A callback may start or cancel requests; it may not destroy
// the client. Non-copyable, non-movable; loop thread only.
#ifndef SKILLNODE_TRANSPORT_UV_UV_HTTP_CLIENT_H_
#define SKILLNODE_TRANSPORT_UV_UV_HTTP_CLIENT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>
#include <vector>

#include "transport/clock.h"
#include "transport/uv/uv_loop.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::transport::uv {

struct HttpClientConfig {
  // Requests running at once; one more fails at once with kBusy.
  size_t requests_in_flight_max = 64;
  // Connections curl keeps open in all (and reuses for keep-alive).
  size_t connections_max = 16;
};

struct HttpClientRequest {
  std::string method = "GET";
  std::string url;  // http:// or https://
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // sent as is; set a Content-Type header with it
  Duration timeout = Seconds(10);
  size_t response_bytes_max = 1024 * 1024;
  std::string ca_file;       // PEM bundle; empty: the system's store
  std::string bearer_token;  // "Authorization: Bearer ..." when not empty
  // Called with each address curl is about to connect to (numeric, IPv4 or IPv6), before any
  // byte goes to it; a returned reason refuses that address, and a request whose every address
  // is refused fails kRefused. Checking the address connected to, not a name resolved earlier,
  // leaves no room for DNS rebinding. (A reused connection was checked when it was opened: the
  // client's connections serve only requests made through it.)
  std::function<std::optional<std::string>(std::string_view peer_ip)> peer_check;
};

struct HttpClientResponse {
  long status = 0;
  std::map<std::string, std::string> headers;  // names in lower case; the last of repeats
  std::string body;
  Duration elapsed{};
};

enum class HttpClientErrorKind {
  kTimeout,     // the whole exchange took longer than the request's timeout
  kConnect,     // name not resolved, connection refused or reset
  kTls,         // handshake or certificate verification failed
  kTooLarge,    // the response body passed response_bytes_max
  kProtocol,    // not a valid HTTP answer
  kBusy,        // requests_in_flight_max are running
  kBadRequest,  // the request itself is unusable (URL, scheme)
  kRefused      // peer_check refused every address to connect to
};
std::string_view HttpClientErrorKindName(HttpClientErrorKind kind);  // "timeout", ...

struct HttpClientError {
  HttpClientErrorKind kind = HttpClientErrorKind::kConnect;
  std::string message;  // what curl said, with the URL
};

using HttpClientResult = tl::expected<HttpClientResponse, HttpClientError>;
using HttpClientCallback = std::function<void(HttpClientResult)>;

class UvHttpClient {
 public:
  UvHttpClient(UvLoop& loop, const HttpClientConfig& config);
  UvHttpClient(const UvHttpClient&) = delete;
  UvHttpClient& operator=(const UvHttpClient&) = delete;
  ~UvHttpClient();

  // Starts `request`; returns its id (never 0). `done` runs later on the loop.
  uint64_t Start(HttpClientRequest request, HttpClientCallback done);
  // Stops a request; its callback is not called. Unknown ids are ignored.
  void Cancel(uint64_t id);
  // Cancels every request and closes the handles; later Starts fail with kBusy. Idempotent.
  void Close();

  size_t in_flight() const;

  struct Stats {
    uint64_t started = 0;
    uint64_t completed = 0;  // an HTTP answer arrived (any status)
    uint64_t failed = 0;     // an HttpClientError
    uint64_t cancelled = 0;
  };
  const Stats& stats() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_UV_HTTP_CLIENT_H_
