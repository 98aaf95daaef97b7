// libFuzzer target for the MCP server core (node/mcp/mcp_session.h): one input is one message
// (a line on stdio, a POST body on /mcp), given to a fresh session and to one initialized under
// 2025-03-26 (the batch revision), whose tools answer from a fake node.
//
// Properties checked on every input: no crash (ASan/UBSan); every answer is exactly one line
// of JSON holding "jsonrpc": "2.0" (an object, or a non-empty array of them for a batch); and
// the answer comes at once, as the fake node answers at once.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "node/mcp/mcp_session.h"
#include "tests/fuzz/fuzz_die.h"

namespace {

using nlohmann::json;
using namespace skillnode::node::mcp;

[[noreturn]] void Die(const char* what) { skillnode::fuzz::Die("fuzz_mcp", what); }

void FakeNode(ApiRequest request, ApiDone done) {
  ApiResponse answer;
  answer.status = 200;
  if (request.target == "/api/skills/search") {
    answer.body = R"({"skills": [{"id": "echo", "name": "Echo", "description": "d"}]})";
  } else if (request.target.ends_with("/skill.md")) {
    answer.body = "---\r\nname: Echo\r\n---\r\n\xEF\xBB\xBF text";
  } else {
    answer.body = R"({"status": "completed", "output": {"ok": true}})";
  }
  done(answer);
}

void CheckAnswer(const std::optional<std::string>& text) {
  if (!text) return;
  if (text->find('\n') != std::string::npos) Die("an answer spans lines");
  const json answer = json::parse(*text, nullptr, false);
  if (answer.is_discarded()) Die("an answer is not JSON");
  auto check_one = [](const json& one) {
    if (!one.is_object() || one.value("jsonrpc", "") != "2.0") Die("an answer is not JSON-RPC");
  };
  if (answer.is_array()) {
    if (answer.empty()) Die("an empty batch answer");
    for (const json& one : answer) check_one(one);
  } else {
    check_one(answer);
  }
}

void Feed(McpSession& session, std::string_view input) {
  bool answered = false;
  session.HandleText(input, [&answered](std::optional<std::string> text) {
    answered = true;
    CheckAnswer(text);
  });
  if (!answered) Die("no answer at once");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  SkillTools tools(&FakeNode);
  McpSession fresh(tools, SessionOptions{});
  Feed(fresh, input);
  McpSession batching(tools, SessionOptions{});
  Feed(
      batching,
      R"({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-03-26"}})");
  Feed(batching, input);
  return 0;
}
