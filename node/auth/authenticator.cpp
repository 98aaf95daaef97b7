#include "node/auth/authenticator.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

namespace skillnode::node::auth {
namespace {

// RFC 6750 b64token: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
bool ValidB64Token(std::string_view token) {
  if (token.empty() || token.size() > kPresentedTokenLengthMax) return false;
  size_t i = 0;
  for (; i < token.size() && token[i] != '='; ++i) {
    const char c = token[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
    if (!ok) return false;
  }
  if (i == 0) return false;
  for (; i < token.size(); ++i) {
    if (token[i] != '=') return false;
  }
  return true;
}

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    const char a = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    if (a != prefix[i]) return false;
  }
  return true;
}

int64_t CeilSeconds(transport::Duration d) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  return std::max<int64_t>(1, (ms + 999) / 1000);
}

}  // namespace

Authenticator::Authenticator(AuthOptions options, transport::Logger& logger,
                             std::function<transport::TimePoint()> clock)
    : options_(std::move(options)), logger_(logger), clock_(std::move(clock)) {}

void Authenticator::Refresh(bool force) {
  struct stat info {};
  std::array<int64_t, 3> state{0, 0, 0};
  if (::stat(options_.tokens_file.c_str(), &info) == 0) {
    state = {static_cast<int64_t>(info.st_ino), static_cast<int64_t>(info.st_size),
             static_cast<int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec};
  } else if (errno != ENOENT) {
    state = {-2, errno, 0};  // unreadable: LoadTokenFile says why
  }
  if (state == file_state_ && !force) return;
  file_state_ = state;
  ++stats_.reloads;
  auto loaded = LoadTokenFile(options_.tokens_file);
  if (!loaded) {
    ++stats_.file_errors;
    entries_.clear();
    file_error_ = loaded.error().message;
    logger_.Log(transport::LogLevel::kError,
                "token file: " + file_error_ + "; no token authenticates until it is fixed");
    return;
  }
  const bool changed = *loaded != entries_ || !file_error_.empty();
  entries_ = std::move(*loaded);
  file_error_.clear();
  if (changed || stats_.reloads == 1) {
    logger_.Log(transport::LogLevel::kInfo, "token file " + options_.tokens_file + ": " +
                                                std::to_string(entries_.size()) + " token(s)");
  }
}

void Authenticator::SetTokensFile(std::string path) {
  options_.tokens_file = std::move(path);
  Refresh(/*force=*/true);
}

bool Authenticator::Limited(const transport::Address& from, transport::TimePoint now,
                            transport::Duration& retry_after) {
  auto it = sources_.find(from);
  if (it == sources_.end()) return false;
  const transport::TimePoint window_end = it->second.window_start + kFailureWindow;
  if (now >= window_end) {
    sources_.erase(it);
    return false;
  }
  if (it->second.failures < static_cast<uint32_t>(options_.failures_per_minute)) return false;
  retry_after = window_end - now;
  return true;
}

void Authenticator::CountFailure(const transport::Address& from, transport::TimePoint now) {
  auto it = sources_.find(from);
  if (it != sources_.end() && now >= it->second.window_start + kFailureWindow) {
    it->second = Source{now, 0};
  }
  if (it == sources_.end()) {
    if (sources_.size() >= options_.failure_sources_max) {
      // Forget the source whose minute began first (it is the nearest to being forgotten
      // anyway). A scan: it happens only on a failure from a new source with the table full.
      auto oldest = std::min_element(sources_.begin(), sources_.end(), [](auto& a, auto& b) {
        return a.second.window_start < b.second.window_start;
      });
      sources_.erase(oldest);
      ++stats_.sources_forgotten;
    }
    it = sources_.emplace(from, Source{now, 0}).first;
  }
  ++it->second.failures;
}

Authenticator::Check Authenticator::Authenticate(const http::HttpRequest& request) {
  Check check;
  const std::string* header = request.Header("authorization");
  if (header == nullptr) {
    ++stats_.anonymous;
    return check;
  }
  const transport::TimePoint now = clock_();
  const transport::Address& from = request.peer.address();
  if (Limited(from, now, check.retry_after)) {
    ++stats_.rate_limited;
    check.verdict = Verdict::kRateLimited;
    check.reason = "too many failed authentications from " + from.ToString() + "; retry in " +
                   std::to_string(CeilSeconds(check.retry_after)) + " s";
    return check;
  }
  Refresh();
  std::string_view value = *header;
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  std::string_view token;
  if (StartsWithNoCase(value, "bearer ")) {
    token = value.substr(7);
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  }
  std::optional<size_t> match;
  if (!ValidB64Token(token)) {
    check.reason = "the Authorization header is not 'Bearer TOKEN'";
  } else if (match = MatchToken(entries_, token); !match) {
    check.reason = "the bearer token is not valid on this node";
  }
  if (!match) {
    ++stats_.bad_token;
    CountFailure(from, now);
    check.verdict = Verdict::kBadToken;
    return check;
  }
  ++stats_.authenticated;
  check.verdict = Verdict::kAuthenticated;
  check.token_name = entries_[*match].name;
  return check;
}

void Authenticator::Unauthorized(http::Responder& responder, const std::string& message,
                                 bool bad_token) {
  http::HttpResponse answer = http::HttpResponse::Error(
      401, "UNAUTHENTICATED", message, {{"reason", bad_token ? "invalid_token" : "missing"}});
  answer.headers.emplace_back("WWW-Authenticate",
                              bad_token ? "Bearer realm=\"skillnode\", error=\"invalid_token\""
                                        : "Bearer realm=\"skillnode\"");
  responder.Send(std::move(answer));
}

void Authenticator::TooMany(http::Responder& responder, const Check& check) {
  const int64_t seconds = CeilSeconds(check.retry_after);
  http::HttpResponse answer = http::HttpResponse::Error(
      429, "RATE_LIMITED", check.reason,
      {{"retry_after_s", seconds}, {"failures_per_minute", options_.failures_per_minute}});
  answer.headers.emplace_back("Retry-After", std::to_string(seconds));
  responder.Send(std::move(answer));
}

bool Authenticator::Admit(const http::HttpRequest& request, http::Responder& responder,
                          AuthContext& context) {
  const Check check = Authenticate(request);
  switch (check.verdict) {
    case Verdict::kAnonymous:
      context = AuthContext{};
      return true;
    case Verdict::kAuthenticated:
      context = AuthContext{true, check.token_name};
      return true;
    case Verdict::kBadToken:
      Unauthorized(responder, check.reason, true);
      return false;
    case Verdict::kRateLimited:
      TooMany(responder, check);
      return false;
  }
  return false;
}

bool Authenticator::Require(const http::HttpRequest& request, http::Responder& responder,
                            AuthContext& context) {
  if (request.Header("authorization") == nullptr) {
    const transport::TimePoint now = clock_();
    Check limited;
    if (Limited(request.peer.address(), now, limited.retry_after)) {
      ++stats_.rate_limited;
      limited.reason = "too many failed authentications from " + request.peer.address().ToString() +
                       "; retry in " + std::to_string(CeilSeconds(limited.retry_after)) + " s";
      TooMany(responder, limited);
      return false;
    }
    ++stats_.missing_token;
    CountFailure(request.peer.address(), now);
    Unauthorized(responder, "this request needs a bearer token (Authorization: Bearer TOKEN)",
                 false);
    return false;
  }
  return Admit(request, responder, context);
}

bool Authenticator::Authenticated(const http::HttpRequest& request) {
  return Authenticate(request).verdict == Verdict::kAuthenticated;
}

nlohmann::json Authenticator::Info() const {
  nlohmann::json out = {{"tokensFile", options_.tokens_file},
                        {"tokens", entries_.size()},
                        {"failureSources", sources_.size()}};
  if (!file_error_.empty()) out["error"] = file_error_;
  return out;
}

void Authenticator::WriteMetrics(http::PrometheusWriter& out) const {
  out.Family("skillnode_auth_requests_total", "counter",
             "HTTP API requests by what their bearer token proved.");
  for (const auto& [result, value] : {std::pair{"authenticated", stats_.authenticated},
                                      {"anonymous", stats_.anonymous},
                                      {"bad_token", stats_.bad_token},
                                      {"missing_token", stats_.missing_token},
                                      {"rate_limited", stats_.rate_limited}}) {
    out.Sample("skillnode_auth_requests_total", {{"result", result}}, static_cast<double>(value));
  }
  out.Counter("skillnode_auth_failures_total",
              "Failed authentications (bad token, or none where one was required).",
              static_cast<double>(stats_.bad_token + stats_.missing_token));
  out.Gauge("skillnode_auth_tokens", "Tokens in the token file.",
            static_cast<double>(entries_.size()));
  out.Counter("skillnode_auth_token_file_errors_total",
              "Times the token file was found malformed or unreadable.",
              static_cast<double>(stats_.file_errors));
  out.Gauge("skillnode_auth_failure_sources", "Source addresses with failures counted.",
            static_cast<double>(sources_.size()));
}

}  // namespace skillnode::node::auth
