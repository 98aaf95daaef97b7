// MCP's logging utility for one session (node/mcp/session_log.h): the eight level names, the
// threshold logging/setLevel sets, and the shape of the notifications/message it lets through.
#include "node/mcp/session_log.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::node::mcp {
namespace {

using nlohmann::json;

struct Sent {
  std::vector<json> notes;
  SessionLog::Send Sink() {
    return [this](std::string text) {
      CHECK(text.find('\n') == std::string::npos);  // one line, as stdio needs
      notes.push_back(json::parse(text));
    };
  }
};

TEST_CASE("The log knows MCP's eight levels by their exact names, least severe first", "[unit]") {
  const std::vector<std::string> names = {"debug", "info",     "notice", "warning",
                                          "error", "critical", "alert",  "emergency"};
  for (size_t i = 0; i < names.size(); ++i) {
    const auto level = ParseLogLevel(names[i]);
    REQUIRE(level);
    CHECK(static_cast<size_t>(*level) == i);
    CHECK(LogLevelName(*level) == names[i]);
  }
  for (const char* other : {"", "Warning", "warn", "fatal", "trace", "debug "}) {
    CHECK_FALSE(ParseLogLevel(other));
  }
  CHECK(LogLevelNames() == "debug, info, notice, warning, error, critical, alert, emergency");
}

TEST_CASE("Until the client sets a level the session log sends nothing", "[unit]") {
  SessionLog log;
  Sent sent;
  CHECK_FALSE(log.level());
  log.Write(LogLevel::kEmergency, "run_skill", "help", sent.Sink());
  CHECK(sent.notes.empty());
  CHECK_FALSE(log.Passes(LogLevel::kEmergency));
}

TEST_CASE("A message below the session's level is dropped; one at or above it is sent whole",
          "[unit]") {
  SessionLog log;
  Sent sent;
  log.SetLevel(LogLevel::kWarning);
  log.Write(LogLevel::kDebug, "run_skill", "resolved", sent.Sink());
  log.Write(LogLevel::kInfo, "run_skill", "ran", sent.Sink());
  log.Write(LogLevel::kNotice, "run_skill", "unknown name", sent.Sink());
  CHECK(sent.notes.empty());
  log.Write(LogLevel::kWarning, "run_skill", {{"message", "failed"}, {"status", 502}}, sent.Sink());
  log.Write(LogLevel::kError, "", "no node", sent.Sink());
  REQUIRE(sent.notes.size() == 2);
  CHECK(sent.notes[0] == json{{"jsonrpc", "2.0"},
                              {"method", "notifications/message"},
                              {"params",
                               {{"level", "warning"},
                                {"logger", "run_skill"},
                                {"data", {{"message", "failed"}, {"status", 502}}}}}});
  CHECK(sent.notes[1].at("params") == json{{"level", "error"}, {"data", "no node"}});
  CHECK_FALSE(sent.notes[1].contains("id"));  // a notification

  log.SetLevel(LogLevel::kDebug);  // a later level applies to later messages
  log.Write(LogLevel::kDebug, "list_skills", "found 3", sent.Sink());
  REQUIRE(sent.notes.size() == 3);
  CHECK(sent.notes[2].at("params").at("level") == "debug");
  log.Write(LogLevel::kError, "list_skills", "nowhere to send it", SessionLog::Send());
  CHECK(sent.notes.size() == 3);
}

}  // namespace
}  // namespace skillnode::node::mcp
