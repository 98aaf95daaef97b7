// The invocation protocol's messages (docs/invocation.md), as pure functions: endpoint URLs,
// the provider's 202 / status / result answers, HTTP statuses and transport failures turned into
// InvokeErrors, Retry-After and the polling back-off. No I/O, no clock: the Invoker (invoker.h)
// drives them, and tests call them directly.
#ifndef SKILLNODE_NODE_INVOKE_INVOKE_PROTOCOL_H_
#define SKILLNODE_NODE_INVOKE_INVOKE_PROTOCOL_H_

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>

#include "node/invoke/invoke_types.h"
#include "transport/uv/uv_http_client.h"

namespace skillnode::node::invoke {

template <typename T>
using Checked = tl::expected<T, InvokeError>;

// An invocation endpoint: "http://host:port/path?query" split once.
struct EndpointUrl {
  std::string url;     // as registered
  std::string origin;  // "http://host:port" as written (scheme and host lower-cased)
  std::string base;    // origin + path, without the query and any trailing '/'
};

// The endpoint if it is an http:// or https:// URL with a host; kNotInvocable naming it if
// not (a "host:port" endpoint, another scheme, an empty host).
[[nodiscard]] Checked<EndpointUrl> ParseEndpoint(std::string_view endpoint);

// "{base}/executions/{id}" and "{base}/executions/{id}/result", the id percent-encoded.
std::string DefaultStatusUrl(const EndpointUrl& endpoint, std::string_view execution_id);
std::string DefaultResultUrl(const EndpointUrl& endpoint, std::string_view execution_id);

// A status or result URL the provider gave (`field` names where: "status_url", "Location"):
// an absolute http(s) URL of the endpoint's own origin (the bearer token goes there too), or an
// absolute path on it ("/executions/7"). Anything else is kProtocol.
[[nodiscard]] Checked<std::string> ResolveProviderUrl(const EndpointUrl& endpoint,
                                                      std::string_view reference,
                                                      std::string_view field);

// A JSON object from a provider's answer body (`what`: "the invocation answer"); kProtocol for
// anything else, JSON nested deeper than kJsonDepthMax included.
[[nodiscard]] Checked<nlohmann::json> ParseJsonObjectBody(std::string_view body,
                                                          std::string_view what);

// The 202 answer: execution_id (a non-empty string of at most kExecutionIdLengthMax), and the
// status URL (status_url, else the Location header, else the default) and result URL
// (result_url, else the default), resolved.
struct Accepted {
  std::string execution_id;
  std::string status_url;
  std::string result_url;
};
[[nodiscard]] Checked<Accepted> ParseAccepted(const EndpointUrl& endpoint,
                                              const transport::uv::HttpClientResponse& response);

// A status answer: {"status": "pending"|"running"|"completed"|"failed", "progress"?: 0..1,
// "message"?: string, "error"?: string or object (failed)}.
struct StatusAnswer {
  std::string status;
  std::optional<double> progress;
  std::string message;
  std::string error;  // failed: the provider's reason (an object as compact JSON)
};
[[nodiscard]] Checked<StatusAnswer> ParseStatus(std::string_view body);

// {"output": <any JSON>} (a 200 invocation answer or the result answer). `execution_id` is set
// when the answer carries one (optional in a 200 invocation answer).
struct OutputAnswer {
  nlohmann::json output;
  std::string execution_id;
};
[[nodiscard]] Checked<OutputAnswer> ParseOutput(std::string_view body, std::string_view what);

// An HTTP status the step did not expect: 401 and 403 kUnauthorized, other 4xx kProvider4xx,
// 5xx kProvider5xx, anything else kProtocol; the message says which URL, the status and what
// the provider said (its "error" or "message", or the start of the body).
InvokeError ErrorForStatus(const transport::uv::HttpClientResponse& response, std::string_view url);
// A transfer that failed: timeout, too large, connection / TLS, not HTTP.
InvokeError ErrorForTransport(const transport::uv::HttpClientError& error);

// The Retry-After header (delta-seconds only; a date is ignored) as a duration.
std::optional<transport::Duration> ParseRetryAfter(
    const std::map<std::string, std::string>& headers);
// The wait before the next status request: `previous` doubled (poll_first the first time),
// at most poll_longest; a Retry-After replaces it within [poll_first, kRetryAfterMax].
transport::Duration NextPollDelay(std::optional<transport::Duration> previous,
                                  std::optional<transport::Duration> retry_after,
                                  const InvokeOptions& options);

// What a provider said, for a message: its "error" / "message" string, else the body's start.
std::string ProviderSaid(std::string_view body);

}  // namespace skillnode::node::invoke

#endif  // SKILLNODE_NODE_INVOKE_INVOKE_PROTOCOL_H_
