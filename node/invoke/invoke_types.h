// The invocation client's vocabulary (docs/invocation.md): what to invoke (InvokeTarget), how
// (InvokeOptions), what it reports on the way (InvokeProgress) and how it ends (InvokeOutcome,
// or an InvokeError of one InvokeErrorKind). Each kind has its own exit status for
// `skillnode invoke` and its own HTTP status and error code for POST /api/skills/{id}/invoke.
#ifndef SKILLNODE_NODE_INVOKE_INVOKE_TYPES_H_
#define SKILLNODE_NODE_INVOKE_INVOKE_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "discovery/schema/json_schema.h"
#include "transport/clock.h"

namespace skillnode::node::invoke {

// A provider's answer body (each of the POST, status and result answers) at most, by default:
// outputs are JSON documents, not files; a bigger answer is refused (kTooLarge), not buffered.
constexpr size_t kBodyBytesMaxDefault = 1024 * 1024;
// The most a caller may raise that bound to (--max-body, "maxBodyBytes").
constexpr size_t kBodyBytesMaxLimit = 16 * 1024 * 1024;
// An input document at most (its compact JSON text), checked before anything is sent.
constexpr size_t kInputBytesMax = 1024 * 1024;
// Nesting of a provider's JSON answer at most: the validator and the printer recurse per level.
constexpr size_t kJsonDepthMax = 64;
// An execution id's length at most (it becomes part of the status and result URLs).
constexpr size_t kExecutionIdLengthMax = 256;
// Status polling: the first wait, doubled after every answer up to the longest wait.
constexpr transport::Duration kPollFirstDefault = transport::Millis(100);
constexpr transport::Duration kPollLongestDefault = transport::Seconds(2);
// A provider's Retry-After is honoured only within [poll_first, kRetryAfterMax].
constexpr transport::Duration kRetryAfterMax = transport::Seconds(10);

// The skill as found: where and how to call it.
struct InvokeTarget {
  std::string skill_id;       // for messages
  std::string agent_id;       // for messages
  std::string endpoint;       // the registration's endpoint: an http:// or https:// URL
  std::string input_schema;   // JSON text; empty: any input
  std::string output_schema;  // JSON text; empty: any output
  std::string access;         // public (or empty), restricted, private
  std::string token;          // sent as "Authorization: Bearer" when not empty
};

struct InvokeOptions {
  transport::Duration deadline =
      transport::Seconds(60);  // the whole invocation, from Start() to the output
  transport::Duration poll_first = kPollFirstDefault;
  transport::Duration poll_longest = kPollLongestDefault;
  size_t body_bytes_max = kBodyBytesMaxDefault;
  bool wait = true;     // false: finish after a 202 with the execution id and its URLs
  std::string ca_file;  // PEM bundle for https endpoints; empty: the system's store
};

// Reported after the 202 ("accepted") and after each status answer ("pending", "running").
struct InvokeProgress {
  std::string execution_id;
  std::string status;
  std::optional<double> progress;  // 0..1 when the provider says
  std::string message;             // the provider's, may be empty
  int polls = 0;
  transport::Duration elapsed{};
};

struct InvokeOutcome {
  std::string status;        // "completed", or "accepted" when not waiting
  std::string execution_id;  // empty when the provider answered 200 at once without one
  std::string status_url;    // after a 202
  std::string result_url;    // after a 202
  nlohmann::json output;     // "completed"
  int polls = 0;
  transport::Duration elapsed{};
};

enum class InvokeErrorKind {
  kNotFound,         // no such skill (or no provider with the asked agent id)
  kNotInvocable,     // its endpoint is not an http(s) URL
  kInputInvalid,     // the input is not JSON or violates inputSchema
  kUnauthorized,     // 401/403 from the provider, or a restricted/private skill with no token
  kProvider4xx,      // any other 4xx
  kProvider5xx,      // any 5xx
  kTimeout,          // the whole invocation passed its deadline
  kProtocol,         // invalid JSON, a missing field, an unexpected status
  kTooLarge,         // an answer body over body_bytes_max
  kExecutionFailed,  // the provider said {"status": "failed"}
  kOutputInvalid,    // the output violates outputSchema
  kConnect,          // connection refused or reset, name not resolved, TLS failed
  kCancelled,        // shut down before it finished
};

// "not_found", "input_invalid", ... (stable: the CLI's --json and the API's details.kind).
std::string_view InvokeErrorKindName(InvokeErrorKind kind);
// `skillnode invoke`'s exit status for the kind (docs/invocation.md's table).
int ExitStatusOf(InvokeErrorKind kind);
// POST /api/skills/{id}/invoke: the HTTP status and error code for the kind.
int HttpStatusOf(InvokeErrorKind kind);
std::string_view ErrorCodeOf(InvokeErrorKind kind);

// Exit statuses of `skillnode invoke` besides the kinds' own.
constexpr int kExitOk = 0;
constexpr int kExitNodeFailure = 1;  // the node could not be asked, or refused otherwise
constexpr int kExitUsage = 2;

struct InvokeError {
  InvokeErrorKind kind = InvokeErrorKind::kProtocol;
  std::string message;
  std::optional<long> http_status;                             // the provider's, when one answered
  std::vector<discovery::schema::SchemaViolation> violations;  // input/output invalid
};

// {"kind", "message", "httpStatus"?, "violations"?: [{"pointer", "reason"}]}
nlohmann::json ToJson(const InvokeError& error);
// {"status", "execution_id"?, "status_url"?, "result_url"?, "output"?, "polls", "elapsed_ms"}
nlohmann::json ToJson(const InvokeOutcome& outcome);

using InvokeResult = tl::expected<InvokeOutcome, InvokeError>;
using InvokeCallback = std::function<void(InvokeResult)>;
using InvokeProgressCallback = std::function<void(const InvokeProgress&)>;

}  // namespace skillnode::node::invoke

#endif  // SKILLNODE_NODE_INVOKE_INVOKE_TYPES_H_
