#include "node/mcp/session_log.h"

#include <array>
#include <utility>

#include "node/mcp/json_rpc.h"

namespace skillnode::node::mcp {
namespace {

// In the enum's order, least severe first.
constexpr std::array<const char*, 8> kLevelNames = {"debug", "info",     "notice", "warning",
                                                    "error", "critical", "alert",  "emergency"};

}  // namespace

const char* LogLevelName(LogLevel level) { return kLevelNames[static_cast<size_t>(level)]; }

std::optional<LogLevel> ParseLogLevel(std::string_view name) {
  for (size_t i = 0; i < kLevelNames.size(); ++i) {
    if (name == kLevelNames[i]) return static_cast<LogLevel>(i);
  }
  return std::nullopt;
}

std::string LogLevelNames() {
  std::string names;
  for (const char* name : kLevelNames) {
    if (!names.empty()) names += ", ";
    names += name;
  }
  return names;
}

void SessionLog::Write(LogLevel level, std::string_view logger, nlohmann::json data,
                       const Send& send) const {
  if (!Passes(level) || !send) return;
  nlohmann::json params = {{"level", LogLevelName(level)}, {"data", std::move(data)}};
  if (!logger.empty()) params["logger"] = logger;
  send(Serialize(
      {{"jsonrpc", "2.0"}, {"method", "notifications/message"}, {"params", std::move(params)}}));
}

}  // namespace skillnode::node::mcp
