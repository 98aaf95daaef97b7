#include "node/mcp/json_rpc.h"

#include "node/bounded_json.h"

namespace skillnode::node::mcp {

using nlohmann::json;

namespace {

bool UsableId(const json& id) { return id.is_string() || id.is_number_integer(); }

}  // namespace

Classified Classify(const json& message) {
  Classified out;
  if (!message.is_object()) {
    out.problem = "a message must be a JSON object";
    return out;
  }
  const auto id = message.find("id");
  if (id != message.end() && UsableId(*id)) out.id = *id;
  const auto version = message.find("jsonrpc");
  if (version == message.end() || *version != "2.0") {
    out.problem = "\"jsonrpc\" must be \"2.0\"";
    return out;
  }
  if (id != message.end() && !UsableId(*id)) {
    out.problem = "\"id\" must be a string or an integer";
    return out;
  }
  const auto method = message.find("method");
  if (method != message.end()) {
    if (!method->is_string()) {
      out.problem = "\"method\" must be a string";
      return out;
    }
    const auto params = message.find("params");
    if (params != message.end() && !params->is_object()) {
      out.problem = "\"params\" must be an object";
      return out;
    }
    out.kind = id == message.end() ? MessageKind::kNotification : MessageKind::kRequest;
    return out;
  }
  if (id != message.end() && (message.contains("result") || message.contains("error"))) {
    out.kind = MessageKind::kResponse;
    return out;
  }
  out.problem = "a message needs \"method\" (a request or notification) or \"result\"/\"error\"";
  return out;
}

json ErrorResponse(const json& id, int code, std::string_view message, const json& data) {
  json error = {{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = data;
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

json ResultResponse(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

std::string Serialize(const json& message) {
  return message.dump(-1, ' ', /*ensure_ascii=*/false, json::error_handler_t::replace);
}

json ParseMessage(std::string_view text, bool& too_deep) {
  too_deep = NestingDepth(text, kJsonDepthMax) > kJsonDepthMax;
  if (too_deep) return json(json::value_t::discarded);
  return json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace skillnode::node::mcp
