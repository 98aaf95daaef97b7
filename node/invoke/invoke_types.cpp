#include "node/invoke/invoke_types.h"

namespace skillnode::node::invoke {

namespace {

struct KindInfo {
  std::string_view name;
  int exit_status;
  int http_status;
  std::string_view code;
};

// One row per kind, in the enum's order; docs/invocation.md has the same table.
KindInfo Info(InvokeErrorKind kind) {
  switch (kind) {
    case InvokeErrorKind::kNotFound:
      return {"not_found", 3, 404, "DISC_002"};
    case InvokeErrorKind::kInputInvalid:
      return {"input_invalid", 4, 400, "INVOKE_INPUT_INVALID"};
    case InvokeErrorKind::kUnauthorized:
      return {"unauthorized", 5, 401, "INVOKE_UNAUTHORIZED"};
    case InvokeErrorKind::kProvider4xx:
      return {"provider_4xx", 6, 502, "INVOKE_PROVIDER_4XX"};
    case InvokeErrorKind::kProvider5xx:
      return {"provider_5xx", 7, 502, "INVOKE_PROVIDER_5XX"};
    case InvokeErrorKind::kTimeout:
      return {"timeout", 8, 504, "INVOKE_TIMEOUT"};
    case InvokeErrorKind::kProtocol:
      return {"protocol", 9, 502, "INVOKE_PROTOCOL"};
    case InvokeErrorKind::kTooLarge:
      return {"too_large", 10, 502, "INVOKE_TOO_LARGE"};
    case InvokeErrorKind::kExecutionFailed:
      return {"execution_failed", 11, 502, "INVOKE_EXECUTION_FAILED"};
    case InvokeErrorKind::kOutputInvalid:
      return {"output_invalid", 12, 502, "INVOKE_OUTPUT_INVALID"};
    case InvokeErrorKind::kConnect:
      return {"connect", 13, 502, "INVOKE_CONNECT"};
    case InvokeErrorKind::kNotInvocable:
      return {"not_invocable", 14, 422, "INVOKE_NOT_INVOCABLE"};
    case InvokeErrorKind::kCancelled:
      return {"cancelled", kExitNodeFailure, 503, "INVOKE_CANCELLED"};
  }
  return {"protocol", 9, 502, "INVOKE_PROTOCOL"};
}

}  // namespace

std::string_view InvokeErrorKindName(InvokeErrorKind kind) { return Info(kind).name; }
int ExitStatusOf(InvokeErrorKind kind) { return Info(kind).exit_status; }
int HttpStatusOf(InvokeErrorKind kind) { return Info(kind).http_status; }
std::string_view ErrorCodeOf(InvokeErrorKind kind) { return Info(kind).code; }

nlohmann::json ToJson(const InvokeError& error) {
  nlohmann::json out = {{"kind", InvokeErrorKindName(error.kind)}, {"message", error.message}};
  if (error.http_status) out["httpStatus"] = *error.http_status;
  if (!error.violations.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& v : error.violations) {
      list.push_back({{"pointer", v.pointer}, {"reason", v.reason}});
    }
    out["violations"] = std::move(list);
  }
  return out;
}

nlohmann::json ToJson(const InvokeOutcome& outcome) {
  nlohmann::json out = {{"status", outcome.status}};
  if (!outcome.execution_id.empty()) out["execution_id"] = outcome.execution_id;
  if (!outcome.status_url.empty()) out["status_url"] = outcome.status_url;
  if (!outcome.result_url.empty()) out["result_url"] = outcome.result_url;
  if (outcome.status == "completed") out["output"] = outcome.output;
  out["polls"] = outcome.polls;
  out["elapsed_ms"] = static_cast<int64_t>(transport::ToMillis(outcome.elapsed));
  return out;
}

}  // namespace skillnode::node::invoke
