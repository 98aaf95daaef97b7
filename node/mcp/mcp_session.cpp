#include "node/mcp/mcp_session.h"

#include <exception>
#include <utility>
#include <vector>

#include "node/mcp/json_rpc.h"
#include "node/mcp/tool_definitions.h"

namespace skillnode::node::mcp {

using nlohmann::json;

namespace {

constexpr const char* kInstructions =
    "skillnode's skills follow a two-phase protocol. Select with list_skills, which shows only "
    "each skill's name and short description. Before running a skill, call get_skill_info with "
    "its name and read the complete SKILL.md it returns: it says what input the skill takes. "
    "Then call run_skill with that name and input.";

}  // namespace

bool IsSupportedVersion(std::string_view version) {
  for (const char* supported : kProtocolVersions) {
    if (version == supported) return true;
  }
  return false;
}

std::string SupportedVersions() {
  std::string out;
  for (const char* supported : kProtocolVersions) {
    if (!out.empty()) out += ", ";
    out += supported;
  }
  return out;
}

McpSession::McpSession(SkillTools& tools, SessionOptions options)
    : tools_(tools), options_(std::move(options)) {}

std::string McpSession::OversizedAnswer(size_t bytes) {
  return Serialize(ErrorResponse(nullptr, kInvalidRequest,
                                 "message of " + std::to_string(bytes) +
                                     " bytes or more is over the limit of " +
                                     std::to_string(kMessageBytesMax) + " bytes",
                                 {{"limitBytes", kMessageBytesMax}}));
}

void McpSession::HandleText(std::string_view text, Reply reply, const CallerInfo* caller,
                            SessionLog::Send notify) {
  const Inbound from{caller != nullptr ? *caller : options_.caller, notify};
  if (text.size() > kMessageBytesMax) return reply(OversizedAnswer(text.size()));
  bool too_deep = false;
  json message = ParseMessage(text, too_deep);
  if (too_deep) {
    return reply(Serialize(ErrorResponse(
        nullptr, kInvalidRequest,
        "arrays and objects nest deeper than " + std::to_string(kJsonDepthMax) + " levels")));
  }
  if (message.is_discarded()) {
    return reply(Serialize(ErrorResponse(nullptr, kParseError, "the message is not JSON")));
  }
  try {
    if (message.is_array()) return HandleBatch(message, from, std::move(reply));
    HandleOne(message, from, [reply](std::optional<json> answer) {
      reply(answer ? std::optional<std::string>(Serialize(*answer)) : std::nullopt);
    });
  } catch (const std::exception& e) {  // nlohmann's, at this boundary only
    reply(Serialize(ErrorResponse(nullptr, kInternalError, std::string("internal: ") + e.what())));
  }
}

void McpSession::HandleBatch(const json& batch, const Inbound& from, Reply reply) {
  auto refuse = [&reply](const std::string& why) {
    reply(Serialize(ErrorResponse(nullptr, kInvalidRequest, why)));
  };
  if (protocol_version_ != kBatchVersion) {
    return refuse("batches are not part of protocol version " +
                  (protocol_version_.empty() ? std::string("(none yet: initialize first)")
                                             : protocol_version_) +
                  "; only " + kBatchVersion + " has them");
  }
  if (batch.empty()) return refuse("an empty batch");
  if (batch.size() > kBatchItemsMax) {
    return refuse("a batch of " + std::to_string(batch.size()) + " messages is over the limit of " +
                  std::to_string(kBatchItemsMax));
  }
  struct Pending {
    std::vector<std::optional<json>> answers;
    size_t left = 0;
    Reply reply;
  };
  auto pending = std::make_shared<Pending>();
  pending->answers.resize(batch.size());
  pending->left = batch.size();
  pending->reply = std::move(reply);
  for (size_t i = 0; i < batch.size(); ++i) {
    auto store = [pending, i](std::optional<json> answer) {
      pending->answers[i] = std::move(answer);
      if (--pending->left > 0) return;
      json out = json::array();
      for (auto& item : pending->answers) {
        if (item) out.push_back(std::move(*item));
      }
      pending->reply(out.empty() ? std::nullopt : std::optional<std::string>(Serialize(out)));
    };
    const json& item = batch[i];
    if (item.is_object() && item.value("method", json()) == "initialize") {
      const Classified c = Classify(item);
      store(ErrorResponse(c.id, kInvalidRequest, "initialize may not be part of a batch"));
      continue;
    }
    HandleOne(item, from, std::move(store));
  }
}

void McpSession::HandleOne(const json& message, const Inbound& from, JsonReply reply) {
  const Classified c = Classify(message);
  switch (c.kind) {
    case MessageKind::kInvalid:
      return reply(ErrorResponse(c.id, kInvalidRequest, c.problem));
    case MessageKind::kResponse:
      return reply(std::nullopt);  // this server sends no requests; nothing to match
    case MessageKind::kNotification:
      if (message["method"] == "notifications/initialized" && initialized()) ready_ = true;
      return reply(std::nullopt);
    case MessageKind::kRequest:
      break;
  }
  const json params = message.value("params", json::object());
  HandleRequest(message["method"].get<std::string>(), c.id, params, from, std::move(reply));
}

void McpSession::HandleRequest(const std::string& method, const json& id, const json& params,
                               const Inbound& from, JsonReply reply) {
  if (method == "initialize") {
    if (initialized()) {
      return reply(ErrorResponse(
          id, kInvalidRequest,
          "the session is initialized already (protocol version " + protocol_version_ + ")"));
    }
    return reply(Initialize(id, params));
  }
  if (method == "ping") return reply(ResultResponse(id, json::object()));
  if (!initialized()) {
    return reply(ErrorResponse(id, kInvalidRequest,
                               "the session is not initialized: send initialize first"));
  }
  if (method == "tools/list") {
    if (params.contains("cursor") && !params["cursor"].is_string()) {
      return reply(ErrorResponse(id, kInvalidParams, "params.cursor: must be a string"));
    }
    return reply(ResultResponse(id, {{"tools", ToolDefinitions()}}));
  }
  if (method == "tools/call") return CallTool(id, params, from, std::move(reply));
  if (method == "logging/setLevel") return reply(SetLevel(id, params));
  reply(ErrorResponse(id, kMethodNotFound, "method not found: " + method, {{"method", method}}));
}

void McpSession::CallTool(const json& id, const json& params, const Inbound& from,
                          JsonReply reply) {
  const auto name = params.find("name");
  if (name == params.end() || !name->is_string()) {
    return reply(ErrorResponse(id, kInvalidParams, "params.name: must be a tool's name"));
  }
  const auto arguments = params.find("arguments");
  if (arguments != params.end() && !arguments->is_object()) {
    return reply(ErrorResponse(id, kInvalidParams, "params.arguments: must be an object"));
  }
  CallContext context;
  context.caller = from.caller;
  context.names = names_;
  context.log = log_;
  context.notify = from.notify;
  tools_.Call(name->get<std::string>(), arguments == params.end() ? json() : *arguments, context,
              [id, reply](ToolCallResult result) {
                if (!result) {
                  return reply(ErrorResponse(id, result.error().code, result.error().message));
                }
                reply(ResultResponse(id, std::move(*result)));
              });
}

json McpSession::SetLevel(const json& id, const json& params) {
  const auto level = params.find("level");
  if (level == params.end() || !level->is_string()) {
    return ErrorResponse(id, kInvalidParams,
                         "params.level: must be one of MCP's levels (" + LogLevelNames() + ")");
  }
  const std::string name = level->get<std::string>();
  const std::optional<LogLevel> parsed = ParseLogLevel(name);
  if (!parsed) {
    return ErrorResponse(
        id, kInvalidParams,
        "params.level: unknown level '" + name + "' (the levels are " + LogLevelNames() + ")",
        {{"level", name}});
  }
  log_->SetLevel(*parsed);
  return ResultResponse(id, json::object());
}

json McpSession::Initialize(const json& id, const json& params) {
  const auto requested = params.find("protocolVersion");
  if (requested == params.end() || !requested->is_string()) {
    return ErrorResponse(id, kInvalidParams, "params.protocolVersion: must be a string");
  }
  for (const char* key : {"capabilities", "clientInfo"}) {
    if (params.contains(key) && !params[key].is_object()) {
      return ErrorResponse(id, kInvalidParams,
                           std::string("params.") + key + ": must be an object");
    }
  }
  const std::string version = requested->get<std::string>();
  protocol_version_ = IsSupportedVersion(version) ? version : kProtocolVersions[0];
  return ResultResponse(
      id, {{"protocolVersion", protocol_version_},
           {"capabilities", {{"tools", {{"listChanged", false}}}, {"logging", json::object()}}},
           {"serverInfo", {{"name", "skillnode"}, {"version", options_.server_version}}},
           {"instructions", kInstructions}});
}

}  // namespace skillnode::node::mcp
