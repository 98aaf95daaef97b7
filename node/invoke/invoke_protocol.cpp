#include "node/invoke/invoke_protocol.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "discovery/ascii.h"
#include "node/http/http_message.h"

namespace skillnode::node::invoke {
namespace {

using nlohmann::json;

// The start of a provider's body quoted in a message.
constexpr size_t kQuotedBytesMax = 200;

InvokeError Protocol(std::string message) {
  return InvokeError{InvokeErrorKind::kProtocol, std::move(message), std::nullopt, {}};
}

// "http://Host:80" -> "http://host" (the default port dropped) for comparing origins.
std::string CanonicalOrigin(std::string_view origin) {
  std::string out = discovery::AsciiLower(origin);
  if (out.starts_with("http://") && out.ends_with(":80")) out.resize(out.size() - 3);
  if (out.starts_with("https://") && out.ends_with(":443")) out.resize(out.size() - 4);
  return out;
}

// Splits "scheme://authority/rest" into origin ("scheme://authority") and the rest.
bool SplitUrl(std::string_view url, std::string& origin, std::string_view& rest) {
  std::string_view scheme;
  for (std::string_view s : {"http://", "https://"}) {
    if (url.size() > s.size() && discovery::AsciiLower(url.substr(0, s.size())) == s) scheme = s;
  }
  if (scheme.empty()) return false;
  const size_t end = url.find_first_of("/?#", scheme.size());
  const std::string_view authority = url.substr(
      scheme.size(), end == std::string_view::npos ? std::string_view::npos : end - scheme.size());
  if (authority.empty() || authority.find('@') != std::string_view::npos) return false;
  for (unsigned char c : authority) {
    if (c <= ' ' || c >= 0x7f) return false;
  }
  origin = std::string(scheme) + discovery::AsciiLower(authority);
  rest = end == std::string_view::npos ? std::string_view() : url.substr(end);
  return true;
}

}  // namespace

Checked<EndpointUrl> ParseEndpoint(std::string_view endpoint) {
  EndpointUrl out;
  std::string_view rest;
  if (!SplitUrl(endpoint, out.origin, rest)) {
    return tl::unexpected(
        InvokeError{InvokeErrorKind::kNotInvocable,
                    "the skill's endpoint '" + std::string(endpoint) +
                        "' is not an http:// or https:// URL with a host, so it cannot be invoked "
                        "(a host:port endpoint names a service, not an invocation endpoint)",
                    std::nullopt,
                    {}});
  }
  out.url = std::string(endpoint);
  std::string_view path = rest.substr(0, rest.find_first_of("?#"));
  while (path.ends_with('/')) path.remove_suffix(1);
  out.base = out.origin + std::string(path);
  return out;
}

std::string DefaultStatusUrl(const EndpointUrl& endpoint, std::string_view execution_id) {
  return endpoint.base + "/executions/" + http::PercentEncode(execution_id);
}

std::string DefaultResultUrl(const EndpointUrl& endpoint, std::string_view execution_id) {
  return DefaultStatusUrl(endpoint, execution_id) + "/result";
}

Checked<std::string> ResolveProviderUrl(const EndpointUrl& endpoint, std::string_view reference,
                                        std::string_view field) {
  for (unsigned char c : reference) {
    if (c <= ' ' || c >= 0x7f) {
      return tl::unexpected(Protocol(std::string(field) + " holds a space or a non-ASCII byte"));
    }
  }
  if (reference.starts_with("/") && !reference.starts_with("//")) {
    return endpoint.origin + std::string(reference);
  }
  std::string origin;
  std::string_view rest;
  if (!SplitUrl(reference, origin, rest)) {
    return tl::unexpected(Protocol(std::string(field) + " '" + std::string(reference) +
                                   "' is neither an http(s) URL nor an absolute path"));
  }
  if (CanonicalOrigin(origin) != CanonicalOrigin(endpoint.origin)) {
    return tl::unexpected(Protocol(std::string(field) + " '" + std::string(reference) +
                                   "' is not on the endpoint's origin " + endpoint.origin +
                                   " (the bearer token is sent only there)"));
  }
  return std::string(reference);
}

Checked<json> ParseJsonObjectBody(std::string_view body, std::string_view what) {
  bool too_deep = false;
  const json::parser_callback_t depth_check = [&too_deep](int depth, json::parse_event_t, json&) {
    if (depth > static_cast<int>(kJsonDepthMax)) too_deep = true;
    return true;
  };
  json parsed = json::parse(body.begin(), body.end(), depth_check, false);
  if (parsed.is_discarded()) {
    return tl::unexpected(Protocol(std::string(what) + " is not valid JSON"));
  }
  if (too_deep) {
    return tl::unexpected(Protocol(std::string(what) + " nests JSON deeper than " +
                                   std::to_string(kJsonDepthMax) + " levels"));
  }
  if (!parsed.is_object()) {
    return tl::unexpected(Protocol(std::string(what) + " is JSON but not an object"));
  }
  return parsed;
}

Checked<Accepted> ParseAccepted(const EndpointUrl& endpoint,
                                const transport::uv::HttpClientResponse& response) {
  auto body = ParseJsonObjectBody(response.body, "the 202 answer");
  if (!body) return tl::unexpected(body.error());
  Accepted out;
  const auto id = body->find("execution_id");
  if (id == body->end() || !id->is_string() || id->get<std::string>().empty()) {
    return tl::unexpected(Protocol("the 202 answer has no execution_id (a non-empty string)"));
  }
  out.execution_id = id->get<std::string>();
  if (out.execution_id.size() > kExecutionIdLengthMax) {
    return tl::unexpected(Protocol("the 202 answer's execution_id is longer than " +
                                   std::to_string(kExecutionIdLengthMax) + " characters"));
  }
  out.status_url = DefaultStatusUrl(endpoint, out.execution_id);
  out.result_url = DefaultResultUrl(endpoint, out.execution_id);
  std::optional<std::pair<std::string, std::string>> status_ref;
  if (auto location = response.headers.find("location"); location != response.headers.end()) {
    status_ref = {location->second, "the Location header"};
  }
  // status_url wins over the Location header.
  if (auto it = body->find("status_url"); it != body->end() && !it->is_null()) {
    if (!it->is_string()) return tl::unexpected(Protocol("status_url is not a string"));
    status_ref = {it->get<std::string>(), "status_url"};
  }
  if (auto it = body->find("result_url"); it != body->end() && !it->is_null()) {
    if (!it->is_string()) return tl::unexpected(Protocol("result_url is not a string"));
    auto resolved = ResolveProviderUrl(endpoint, it->get<std::string>(), "result_url");
    if (!resolved) return tl::unexpected(resolved.error());
    out.result_url = *resolved;
  }
  if (status_ref) {
    auto resolved = ResolveProviderUrl(endpoint, status_ref->first, status_ref->second);
    if (!resolved) return tl::unexpected(resolved.error());
    out.status_url = *resolved;
  }
  return out;
}

Checked<StatusAnswer> ParseStatus(std::string_view body) {
  auto parsed = ParseJsonObjectBody(body, "the status answer");
  if (!parsed) return tl::unexpected(parsed.error());
  StatusAnswer out;
  const auto status = parsed->find("status");
  if (status == parsed->end() || !status->is_string()) {
    return tl::unexpected(Protocol("the status answer has no status (a string)"));
  }
  out.status = status->get<std::string>();
  if (out.status != "pending" && out.status != "running" && out.status != "completed" &&
      out.status != "failed") {
    return tl::unexpected(Protocol("the status answer's status '" + out.status.substr(0, 64) +
                                   "' is not pending, running, completed or failed"));
  }
  if (auto it = parsed->find("progress"); it != parsed->end() && !it->is_null()) {
    if (!it->is_number() || it->get<double>() < 0.0 || it->get<double>() > 1.0) {
      return tl::unexpected(Protocol("the status answer's progress is not a number from 0 to 1"));
    }
    out.progress = it->get<double>();
  }
  if (auto it = parsed->find("message"); it != parsed->end() && !it->is_null()) {
    if (!it->is_string()) {
      return tl::unexpected(Protocol("the status answer's message is not a string"));
    }
    out.message = it->get<std::string>().substr(0, kQuotedBytesMax);
  }
  if (auto it = parsed->find("error"); it != parsed->end() && !it->is_null()) {
    out.error = it->is_string() ? it->get<std::string>()
                                : it->dump(-1, ' ', false, json::error_handler_t::replace);
  }
  if (out.status == "failed" && out.error.empty()) out.error = "(the provider gave no reason)";
  return out;
}

Checked<OutputAnswer> ParseOutput(std::string_view body, std::string_view what) {
  auto parsed = ParseJsonObjectBody(body, what);
  if (!parsed) return tl::unexpected(parsed.error());
  const auto output = parsed->find("output");
  if (output == parsed->end()) {
    return tl::unexpected(Protocol(std::string(what) + " has no \"output\""));
  }
  OutputAnswer out;
  out.output = std::move(*output);
  if (auto id = parsed->find("execution_id"); id != parsed->end() && id->is_string()) {
    out.execution_id = id->get<std::string>().substr(0, kExecutionIdLengthMax);
  }
  return out;
}

std::string ProviderSaid(std::string_view body) {
  const json parsed = json::parse(body.begin(), body.end(), nullptr, false);
  if (parsed.is_object()) {
    for (const char* key : {"message", "error"}) {
      auto it = parsed.find(key);
      if (it != parsed.end() && it->is_string()) {
        return it->get<std::string>().substr(0, kQuotedBytesMax);
      }
    }
  }
  std::string out;
  for (unsigned char c : body.substr(0, kQuotedBytesMax)) {
    out += (c >= ' ' && c < 0x7f) ? static_cast<char>(c) : ' ';
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

InvokeError ErrorForStatus(const transport::uv::HttpClientResponse& response,
                           std::string_view url) {
  InvokeError error;
  error.http_status = response.status;
  const long status = response.status;
  if (status == 401 || status == 403) {
    error.kind = InvokeErrorKind::kUnauthorized;
  } else if (status >= 400 && status < 500) {
    error.kind = InvokeErrorKind::kProvider4xx;
  } else if (status >= 500 && status < 600) {
    error.kind = InvokeErrorKind::kProvider5xx;
  } else {
    error.kind = InvokeErrorKind::kProtocol;
  }
  const std::string said = ProviderSaid(response.body);
  error.message = std::string(url) + " answered " + std::to_string(status) +
                  (status >= 300 && status < 400 ? " (redirects are not followed)" : "") +
                  (said.empty() ? "" : ": " + said);
  if (error.kind == InvokeErrorKind::kUnauthorized) {
    error.message += " (the provider refused the bearer token, or wants one)";
  }
  return error;
}

InvokeError ErrorForTransport(const transport::uv::HttpClientError& error) {
  InvokeErrorKind kind = InvokeErrorKind::kConnect;
  switch (error.kind) {
    case transport::uv::HttpClientErrorKind::kTimeout:
      kind = InvokeErrorKind::kTimeout;
      break;
    case transport::uv::HttpClientErrorKind::kTooLarge:
      kind = InvokeErrorKind::kTooLarge;
      break;
    case transport::uv::HttpClientErrorKind::kProtocol:
      kind = InvokeErrorKind::kProtocol;
      break;
    case transport::uv::HttpClientErrorKind::kBadRequest:
    case transport::uv::HttpClientErrorKind::kRefused:
      kind = InvokeErrorKind::kNotInvocable;
      break;
    case transport::uv::HttpClientErrorKind::kConnect:
    case transport::uv::HttpClientErrorKind::kTls:
    case transport::uv::HttpClientErrorKind::kBusy:
      kind = InvokeErrorKind::kConnect;
      break;
  }
  return InvokeError{
      kind,
      std::string(transport::uv::HttpClientErrorKindName(error.kind)) + ": " + error.message,
      std::nullopt,
      {}};
}

std::optional<transport::Duration> ParseRetryAfter(
    const std::map<std::string, std::string>& headers) {
  const auto it = headers.find("retry-after");
  if (it == headers.end()) return std::nullopt;
  std::string_view text = it->second;
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  int64_t seconds = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec != std::errc() || end != text.data() + text.size() || seconds < 0) return std::nullopt;
  return transport::Seconds(std::min<int64_t>(seconds, 86400));
}

transport::Duration NextPollDelay(std::optional<transport::Duration> previous,
                                  std::optional<transport::Duration> retry_after,
                                  const InvokeOptions& options) {
  if (retry_after) {
    return std::clamp(*retry_after, options.poll_first,
                      std::max(options.poll_first, kRetryAfterMax));
  }
  if (!previous) return options.poll_first;
  return std::min(*previous * 2, std::max(options.poll_longest, options.poll_first));
}

}  // namespace skillnode::node::invoke
