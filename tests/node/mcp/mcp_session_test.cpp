// The MCP server core (node/mcp/mcp_session.h) without a transport or a node: every JSON-RPC
// error code, initialize's version negotiation, the lifecycle, notifications, batches by
// protocol version, and the message limits. The tools run against a fake node API
// (skill_tools_test.cpp has their answers in detail).
#include "node/mcp/mcp_session.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "node/mcp/json_rpc.h"
#include "node/mcp/session_log.h"
#include "node/mcp/tool_definitions.h"

namespace skillnode::node::mcp {
namespace {

using nlohmann::json;

// A node that answers every request 503.
ApiFetch NoNode() {
  return [](ApiRequest, ApiDone done) {
    ApiResponse answer;
    answer.status = 503;
    answer.body = R"({"error": "DISC_005", "message": "no node"})";
    done(answer);
  };
}

struct Harness {
  SkillTools tools{NoNode()};
  McpSession session{tools, SessionOptions{}};
  std::vector<json> notes;  // log notifications, in the order sent

  // The answer to `text`, or nullopt when there is none.
  std::optional<json> Send(const std::string& text) {
    std::optional<std::string> out;
    bool called = false;
    session.HandleText(
        text,
        [&](std::optional<std::string> answer) {
          CHECK_FALSE(called);  // notifications never come after the answer
          called = true;
          out = std::move(answer);
        },
        nullptr,
        [this, &called](std::string note) {
          CHECK_FALSE(called);
          notes.push_back(json::parse(note));
        });
    REQUIRE(called);  // the fake node answers at once, so every reply does too
    if (!out) return std::nullopt;
    REQUIRE(out->find('\n') == std::string::npos);  // one line
    return json::parse(*out);
  }
  json Request(const std::string& method, json params, json id = 1) {
    json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.is_null()) message["params"] = std::move(params);
    auto answer = Send(message.dump());
    REQUIRE(answer);
    return *answer;
  }
  json Initialize(const std::string& version = "2025-06-18") {
    return Request("initialize", {{"protocolVersion", version},
                                  {"capabilities", json::object()},
                                  {"clientInfo", {{"name", "test"}, {"version", "1"}}}});
  }
};

int ErrorCode(const json& answer) { return answer.at("error").at("code").get<int>(); }

TEST_CASE("Text that is not JSON is answered -32700 with a null id", "[unit]") {
  Harness h;
  for (const std::string text : {"{", "not json", "{\"jsonrpc\": \"2.0\", \"id\": 1,}"}) {
    auto answer = h.Send(text);
    REQUIRE(answer);
    CHECK(ErrorCode(*answer) == kParseError);
    CHECK(answer->at("id").is_null());
  }
}

TEST_CASE("Messages that are not valid requests are answered -32600", "[unit]") {
  Harness h;
  h.Initialize();
  for (const std::string text : {R"(42)", R"("text")", R"({"id": 1, "method": "ping"})",
                                 R"({"jsonrpc": "1.0", "id": 1, "method": "ping"})",
                                 R"({"jsonrpc": "2.0", "id": null, "method": "ping"})",
                                 R"({"jsonrpc": "2.0", "id": 1.5, "method": "ping"})",
                                 R"({"jsonrpc": "2.0", "id": 1, "method": 7})",
                                 R"({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]})",
                                 R"({"jsonrpc": "2.0", "id": 1})"}) {
    auto answer = h.Send(text);
    INFO(text);
    REQUIRE(answer);
    CHECK(ErrorCode(*answer) == kInvalidRequest);
  }
  // The id is kept when it is usable.
  auto answer = h.Send(R"({"jsonrpc": "2.0", "id": "x", "method": 7})");
  CHECK(answer->at("id") == "x");
}

TEST_CASE("An unknown method is answered -32601 with the request's id", "[unit]") {
  Harness h;
  h.Initialize();
  for (json id : {json(7), json("abc")}) {
    const json answer = h.Request("resources/list", json::object(), id);
    CHECK(ErrorCode(answer) == kMethodNotFound);
    CHECK(answer.at("id") == id);
  }
}

TEST_CASE("Bad params are answered -32602", "[unit]") {
  Harness h;
  CHECK(ErrorCode(h.Request("initialize", json::object())) == kInvalidParams);
  CHECK(ErrorCode(h.Request("initialize", {{"protocolVersion", 20250618}})) == kInvalidParams);
  CHECK(ErrorCode(h.Request("initialize", {{"protocolVersion", "2025-06-18"},
                                           {"capabilities", "all"}})) == kInvalidParams);
  CHECK_FALSE(h.session.initialized());
  h.Initialize();
  CHECK(ErrorCode(h.Request("tools/list", {{"cursor", 3}})) == kInvalidParams);
  CHECK(ErrorCode(h.Request("tools/call", json::object())) == kInvalidParams);
  CHECK(ErrorCode(h.Request("tools/call", {{"name", "nope"}})) == kInvalidParams);
  CHECK(ErrorCode(h.Request("tools/call", {{"name", "list_skills"}, {"arguments", "x"}})) ==
        kInvalidParams);
  const std::vector<std::pair<std::string, json>> bad = {
      {"list_skills", {{"limit", 0}}},
      {"list_skills", {{"limit", 101}}},
      {"list_skills", {{"limit", "5"}}},
      {"list_skills", {{"query", ""}}},
      {"list_skills", {{"query", std::string(300, 'a')}}},
      {"list_skills", {{"colour", "red"}}},
      {"get_skill_info", json::object()},
      {"get_skill_info", {{"name", 5}}},
      {"run_skill", {{"name", "echo"}}},
      {"run_skill", {{"name", "echo"}, {"input", "text"}}},
  };
  for (const auto& [tool, arguments] : bad) {
    INFO(tool << " " << arguments.dump());
    const json answer = h.Request("tools/call", {{"name", tool}, {"arguments", arguments}});
    CHECK(ErrorCode(answer) == kInvalidParams);
  }
}

TEST_CASE("initialize answers every supported version as asked, others with the newest", "[unit]") {
  for (const char* version : kProtocolVersions) {
    Harness h;
    const json answer = h.Initialize(version);
    CHECK(answer.at("result").at("protocolVersion") == version);
    CHECK(h.session.protocol_version() == version);
  }
  for (const std::string version : {"1999-01-01", "2026-12-31", ""}) {
    Harness h;
    CHECK(h.Initialize(version).at("result").at("protocolVersion") == "2025-11-25");
  }
  Harness h;
  const json result = h.Initialize().at("result");
  CHECK(result.at("capabilities") ==
        json{{"tools", {{"listChanged", false}}}, {"logging", json::object()}});
  CHECK(result.at("serverInfo").at("name") == "skillnode");
  CHECK(result.at("instructions").get<std::string>().find("get_skill_info") != std::string::npos);
}

TEST_CASE("The lifecycle: initialize first, once; ping at any time", "[unit]") {
  Harness h;
  CHECK(h.Request("ping", nullptr).at("result") == json::object());
  CHECK(ErrorCode(h.Request("tools/list", nullptr)) == kInvalidRequest);
  h.Initialize();
  CHECK_FALSE(h.session.ready());
  CHECK_FALSE(h.Send(R"({"jsonrpc": "2.0", "method": "notifications/initialized"})"));
  CHECK(h.session.ready());
  CHECK(ErrorCode(h.Initialize()) == kInvalidRequest);
  CHECK(h.session.protocol_version() == "2025-06-18");
}

TEST_CASE("Notifications and responses get no answer", "[unit]") {
  Harness h;
  h.Initialize();
  CHECK_FALSE(h.Send(R"({"jsonrpc": "2.0", "method": "notifications/cancelled",
                         "params": {"requestId": 1}})"));
  CHECK_FALSE(h.Send(R"({"jsonrpc": "2.0", "method": "no/such/notification"})"));
  CHECK_FALSE(h.Send(R"({"jsonrpc": "2.0", "id": 5, "result": {}})"));
  CHECK_FALSE(h.Send(R"({"jsonrpc": "2.0", "id": 5, "error": {"code": 1, "message": "x"}})"));
}

TEST_CASE("tools/list shows exactly the three tools, with fixed generic schemas", "[unit]") {
  Harness h;
  h.Initialize();
  const json tools = h.Request("tools/list", nullptr).at("result").at("tools");
  REQUIRE(tools.size() == 3);
  CHECK(tools[0].at("name") == "list_skills");
  CHECK(tools[1].at("name") == "get_skill_info");
  CHECK(tools[2].at("name") == "run_skill");
  CHECK(tools == ToolDefinitions());
  for (const json& tool : tools) {
    const json& schema = tool.at("inputSchema");
    CHECK(schema.at("type") == "object");
    CHECK(schema.at("additionalProperties") == false);
    CHECK_FALSE(tool.contains("outputSchema"));
  }
  CHECK(tools[0].at("inputSchema").at("properties").size() == 4);
  CHECK(tools[1].at("inputSchema").at("required") == json::array({"name"}));
  CHECK(tools[2].at("inputSchema").at("required") == json::array({"name", "input"}));
  // run_skill's input is any object: never a skill's own schema.
  CHECK(tools[2].at("inputSchema").at("properties").at("input").size() == 2);
}

TEST_CASE("logging/setLevel takes MCP's levels and answers -32602 naming any other", "[unit]") {
  Harness h;
  CHECK(ErrorCode(h.Request("logging/setLevel", {{"level", "info"}})) == kInvalidRequest);
  h.Initialize();
  CHECK_FALSE(h.session.log().level());
  const json set = h.Request("logging/setLevel", {{"level", "notice"}}, "s");
  CHECK(set == json{{"jsonrpc", "2.0"}, {"id", "s"}, {"result", json::object()}});
  CHECK(h.session.log().level() == LogLevel::kNotice);
  const json unknown = h.Request("logging/setLevel", {{"level", "verbose"}});
  CHECK(ErrorCode(unknown) == kInvalidParams);
  const std::string message = unknown.at("error").at("message");
  CHECK(message.find("'verbose'") != std::string::npos);
  CHECK(message.find("debug, info, notice, warning") != std::string::npos);
  CHECK(unknown.at("error").at("data") == json{{"level", "verbose"}});
  CHECK(ErrorCode(h.Request("logging/setLevel", json::object())) == kInvalidParams);
  CHECK(ErrorCode(h.Request("logging/setLevel", {{"level", 3}})) == kInvalidParams);
  CHECK(h.session.log().level() == LogLevel::kNotice);  // a refused level changes nothing
}

TEST_CASE("A tool call's log notifications come before its answer, filtered by the level",
          "[unit]") {
  Harness h;
  h.Initialize();
  const json call = {{"name", "run_skill"},
                     {"arguments", {{"name", "x"}, {"input", json::object()}}}};
  // The node answers 503: the lookup failed (a warning). Before setLevel: nothing is sent.
  CHECK(h.Request("tools/call", call).at("result").at("isError") == true);
  CHECK(h.notes.empty());
  h.Request("logging/setLevel", {{"level", "error"}});
  h.Request("tools/call", call);
  CHECK(h.notes.empty());  // below the level
  h.Request("logging/setLevel", {{"level", "warning"}});
  h.Request("tools/call", call);
  REQUIRE(h.notes.size() == 1);
  CHECK(h.notes[0].at("method") == "notifications/message");
  CHECK(h.notes[0].at("params").at("level") == "warning");
  CHECK(h.notes[0].at("params").at("logger") == "run_skill");
  CHECK(h.notes[0].at("params").at("data").at("status") == 503);
  CHECK(h.notes[0].at("params").at("data").at("code") == "DISC_005");
}

TEST_CASE("Batches are taken only under protocol version 2025-03-26", "[unit]") {
  const std::string batch =
      R"([{"jsonrpc": "2.0", "id": 1, "method": "ping"},
          {"jsonrpc": "2.0", "method": "notifications/initialized"},
          {"jsonrpc": "2.0", "id": 2, "method": "nope"}])";
  {
    Harness h;
    CHECK(ErrorCode(*h.Send(batch)) == kInvalidRequest);  // before initialize
    h.Initialize("2025-06-18");
    CHECK(ErrorCode(*h.Send(batch)) == kInvalidRequest);
  }
  Harness h;
  h.Initialize("2025-03-26");
  const json answers = *h.Send(batch);
  REQUIRE(answers.is_array());
  REQUIRE(answers.size() == 2);
  CHECK(answers[0].at("id") == 1);
  CHECK(answers[1].at("id") == 2);
  CHECK(ErrorCode(answers[1]) == kMethodNotFound);
  CHECK(ErrorCode(*h.Send("[]")) == kInvalidRequest);
  json many = json::array();
  for (size_t i = 0; i <= kBatchItemsMax; ++i)
    many.push_back({{"jsonrpc", "2.0"}, {"method", "x"}});
  CHECK(ErrorCode(*h.Send(many.dump())) == kInvalidRequest);
  const json with_init = *h.Send(
      R"([{"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": {"protocolVersion": "2025-03-26"}}])");
  CHECK(ErrorCode(with_init.at(0)) == kInvalidRequest);
  CHECK_FALSE(h.Send(R"([{"jsonrpc": "2.0", "method": "notifications/initialized"}])"));
}

TEST_CASE("A message over the size limit or nested too deep is refused -32600", "[unit]") {
  Harness h;
  h.Initialize();
  const std::string big = R"({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": ")" +
                          std::string(kMessageBytesMax, 'a') + "\"}}";
  auto answer = h.Send(big);
  CHECK(ErrorCode(*answer) == kInvalidRequest);
  CHECK(answer->at("error").at("message").get<std::string>().find("limit") != std::string::npos);
  std::string deep = R"({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": )";
  deep += std::string(200000, '[') + std::string(200000, ']') + "}}";
  CHECK(ErrorCode(*h.Send(deep)) == kInvalidRequest);
  // Brackets inside strings do not count.
  const std::string quoted = R"({"jsonrpc": "2.0", "id": 2, "method": "ping", "params": {"x": ")" +
                             std::string(1000, '[') + "\"}}";
  CHECK(h.Send(quoted)->at("result") == json::object());
}

}  // namespace
}  // namespace skillnode::node::mcp
