// The three tools (node/mcp/skill_tools.h) against a fake node API: what each asks the node,
// that list_skills shows only name and description, that get_skill_info's text is the
// SKILL.md's bytes unchanged (and stays so through the JSON-RPC answer's text), and that
// failures are tool errors with the reason. Also the stdio loop (ServeStdio) on files, the
// session table's limits and the Origin check.
#include "node/mcp/skill_tools.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "node/mcp/json_rpc.h"
#include "node/mcp/mcp_stdio.h"
#include "node/mcp/origin_check.h"
#include "node/mcp/session_log.h"
#include "node/mcp/session_table.h"

namespace skillnode::node::mcp {
namespace {

using nlohmann::json;

// A node API that answers from a table keyed by "METHOD target" and records what it was asked.
struct FakeNode {
  std::map<std::string, ApiResponse> answers;
  std::vector<ApiRequest> asked;

  ApiFetch Fetch() {
    return [this](ApiRequest request, ApiDone done) {
      asked.push_back(request);
      const auto it = answers.find(request.method + " " + request.target);
      if (it != answers.end()) return done(it->second);
      ApiResponse missing;
      missing.status = 404;
      missing.body = R"({"error": "DISC_002", "message": "no skill matches"})";
      done(missing);
    };
  }
  void Answer(const std::string& key, long status, std::string body) {
    ApiResponse answer;
    answer.status = status;
    answer.body = std::move(body);
    answers[key] = answer;
  }
};

const char* kSearchAnswer = R"({"total": 3, "skills": [
  {"id": "echo-1", "name": "Echo", "description": "Says it back", "version": "1.0.0",
   "endpoint": "http://10.0.0.1/x", "inputSchema": {"type": "object"}, "tags": ["t"],
   "agentId": "a1", "capabilities": ["echo"]},
  {"id": "echo-2", "name": "Echo", "description": "A second echo", "agentId": "a2"},
  {"id": "sum", "name": "Sum", "agentId": "a3"}]})";

json CallTool(SkillTools& tools, const std::string& name, const json& arguments,
              CallContext context = {}) {
  std::optional<ToolCallResult> out;
  if (!context.names) context.names = std::make_shared<NameMemory>();
  tools.Call(name, arguments, context, [&](ToolCallResult result) { out = std::move(result); });
  REQUIRE(out);
  REQUIRE(out->has_value());
  return **out;
}

std::string Text(const json& result) { return result.at("content").at(0).at("text"); }

TEST_CASE("list_skills shows one name and description per skill name, nothing more", "[unit]") {
  FakeNode node;
  node.Answer("POST /api/skills/search", 200, kSearchAnswer);
  SkillTools tools(node.Fetch());
  CallContext context;
  context.caller.authorization = "Bearer secret";
  const json result = CallTool(
      tools, "list_skills", {{"query", "echo  sum"}, {"capability", "c"}, {"limit", 5}}, context);
  CHECK(result.at("isError") == false);
  const json expected = json::array({{{"name", "Echo"}, {"description", "Says it back"}},
                                     {{"name", "Sum"}, {"description", ""}}});
  CHECK(result.at("structuredContent").at("skills") == expected);
  CHECK(json::parse(Text(result)) == expected);
  REQUIRE(node.asked.size() == 1);
  CHECK(node.asked[0].authorization == "Bearer secret");
  const json query = json::parse(node.asked[0].body);
  CHECK(query.at("q") == "echo  sum");  // the free text, as the model wrote it
  CHECK_FALSE(query.contains("keywords"));
  CHECK(query.at("capabilities") == json::array({"c"}));
  CHECK_FALSE(query.contains("scenes"));

  const json one = CallTool(tools, "list_skills", {{"limit", 1}});
  CHECK(one.at("structuredContent").at("skills").size() == 1);
}

TEST_CASE("list_skills answers an empty list when nothing matches, a tool error on failure",
          "[unit]") {
  FakeNode node;
  SkillTools tools(node.Fetch());
  const json empty = CallTool(tools, "list_skills", json());
  CHECK(empty.at("isError") == false);
  CHECK(empty.at("structuredContent").at("skills") == json::array());
  node.Answer("POST /api/skills/search", 401, R"({"error": "UNAUTHENTICATED", "message": "bad"})");
  const json refused = CallTool(tools, "list_skills", json());
  CHECK(refused.at("isError") == true);
  CHECK(Text(refused).find("401 UNAUTHENTICATED") != std::string::npos);
}

TEST_CASE("get_skill_info returns the SKILL.md bytes unchanged, through the JSON text too",
          "[unit]") {
  FakeNode node;
  node.Answer("POST /api/skills/search", 200, kSearchAnswer);
  const std::string skill_md =
      "\xEF\xBB\xBF---\r\nname: Echo\r\ndescription: |\r\n  two\r\n  lines\r\n---\r\n"
      "# \xE5\x9B\x9E\xE5\xA3\xB0 \xF0\x9F\x94\x8A\r\ntab\there \"quoted\" \\ back\x01\n  \n";
  node.Answer("GET /api/skills/echo-1/skill.md", 200, skill_md);
  SkillTools tools(node.Fetch());
  const json result = CallTool(tools, "get_skill_info", {{"name", "Echo"}});
  CHECK(result.at("isError") == false);
  CHECK(Text(result) == skill_md);
  // Through the wire form: raw UTF-8 (no \u escapes of non-ASCII), and parsed back equal.
  const std::string wire = Serialize(ResultResponse(1, result));
  CHECK(wire.find("\xE5\x9B\x9E\xE5\xA3\xB0") != std::string::npos);
  CHECK(wire.find("\xEF\xBB\xBF") != std::string::npos);
  CHECK(wire.find('\n') == std::string::npos);
  CHECK(json::parse(wire).at("result").at("content").at(0).at("text") == skill_md);
}

TEST_CASE("get_skill_info resolves remembered names, exact names, then ids", "[unit]") {
  FakeNode node;
  node.Answer("POST /api/skills/search", 200, kSearchAnswer);
  node.Answer("GET /api/skills/sum/skill.md", 200, "sum");
  node.Answer("GET /api/skills/echo-2/skill.md", 200, "second");
  SkillTools tools(node.Fetch());
  CHECK(Text(CallTool(tools, "get_skill_info", {{"name", "Sum"}})) == "sum");
  CHECK(Text(CallTool(tools, "get_skill_info", {{"name", "echo-2"}})) == "second");
  // A name list_skills showed resolves without another search.
  CallContext context;
  context.names = std::make_shared<NameMemory>();
  CallTool(tools, "list_skills", json(), context);
  node.asked.clear();
  CallTool(tools, "get_skill_info", {{"name", "Sum"}}, context);
  REQUIRE(node.asked.size() == 1);
  CHECK(node.asked[0].target == "/api/skills/sum/skill.md");
}

TEST_CASE("get_skill_info's failures are tool errors with the reason", "[unit]") {
  FakeNode node;
  node.Answer("POST /api/skills/search", 200, kSearchAnswer);
  node.Answer("GET /api/skills/sum/skill.md", 200, "bad \xC3\x28 utf-8");
  SkillTools tools(node.Fetch());
  const json unknown = CallTool(tools, "get_skill_info", {{"name", "Nobody"}});
  CHECK(unknown.at("isError") == true);
  CHECK(Text(unknown).find("no skill named 'Nobody'") != std::string::npos);
  const json missing = CallTool(tools, "get_skill_info", {{"name", "Echo"}});
  CHECK(missing.at("isError") == true);
  CHECK(Text(missing).find("has no SKILL.md") != std::string::npos);
  const json binary = CallTool(tools, "get_skill_info", {{"name", "Sum"}});
  CHECK(binary.at("isError") == true);
  CHECK(Text(binary).find("not UTF-8") != std::string::npos);
}

TEST_CASE("run_skill posts the input to the node's invoke route and returns the output", "[unit]") {
  FakeNode node;
  node.Answer("POST /api/skills/search", 200, kSearchAnswer);
  node.Answer("POST /api/skills/sum/invoke", 200, R"({"status": "completed", "output": {"s": 3}})");
  node.Answer("POST /api/skills/echo-1/invoke", 502,
              R"({"error": "INVOKE_PROVIDER", "message": "the provider answered 500"})");
  SkillTools tools(node.Fetch());
  CallContext context;
  context.caller.run_timeout_ms = [] { return std::optional<int64_t>(1234); };
  const json done = CallTool(tools, "run_skill", {{"name", "Sum"}, {"input", {{"a", 1}}}}, context);
  CHECK(done.at("isError") == false);
  CHECK(json::parse(Text(done)) == json{{"s", 3}});
  const json sent = json::parse(node.asked.back().body);
  CHECK(sent == json{{"input", {{"a", 1}}}, {"timeoutMs", 1234}});
  const json failed = CallTool(tools, "run_skill", {{"name", "Echo"}, {"input", json::object()}});
  CHECK(failed.at("isError") == true);
  CHECK(Text(failed).find("INVOKE_PROVIDER: the provider answered 500") != std::string::npos);
}

// A call context whose session logs everything (debug and up) into `notes`.
CallContext Logging(std::vector<json>& notes) {
  auto log = std::make_shared<SessionLog>();
  log->SetLevel(LogLevel::kDebug);
  CallContext context;
  context.log = log;
  context.notify = [&notes](std::string note) { notes.push_back(json::parse(note)); };
  return context;
}

std::vector<std::string> Levels(const std::vector<json>& notes) {
  std::vector<std::string> levels;
  for (const json& note : notes) levels.push_back(note.at("params").at("level"));
  return levels;
}

TEST_CASE(
    "run_skill logs how it resolved the name, then the run at info or its failure at "
    "warning",
    "[unit]") {
  FakeNode node;
  node.Answer("POST /api/skills/search", 200, kSearchAnswer);
  node.Answer("POST /api/skills/sum/invoke", 200, R"({"output": 3})");
  node.Answer("POST /api/skills/echo-1/invoke", 504,
              R"({"error": "INVOKE_TIMEOUT", "message": "the provider took too long"})");
  SkillTools tools(node.Fetch());
  std::vector<json> notes;
  const CallContext context = Logging(notes);
  CallTool(tools, "run_skill", {{"name", "Sum"}, {"input", json::object()}}, context);
  CHECK(Levels(notes) == std::vector<std::string>{"debug", "info"});
  CHECK(notes[0].at("params").at("logger") == "run_skill");
  CHECK(notes[0].at("params").at("data").at("skillId") == "sum");
  CHECK(notes[1].at("params").at("data").at("message") == "'Sum' (id sum) ran");
  notes.clear();
  CallTool(tools, "run_skill", {{"name", "Echo"}, {"input", json::object()}}, context);
  REQUIRE(Levels(notes) == std::vector<std::string>{"debug", "warning"});
  const json& failed = notes[1].at("params").at("data");
  CHECK(failed.at("code") == "INVOKE_TIMEOUT");
  CHECK(failed.at("status") == 504);
  CHECK(failed.at("timedOut") == true);
  CHECK(failed.at("skillId") == "echo-1");
  CHECK(failed.at("message").get<std::string>().find("the provider took too long") !=
        std::string::npos);
}

TEST_CASE("A lookup that timed out is a warning saying so; a node out of reach is an error",
          "[unit]") {
  ApiResponse answer;
  SkillTools tools([&answer](ApiRequest, ApiDone done) { done(answer); });
  std::vector<json> notes;
  const CallContext context = Logging(notes);
  answer.timed_out = true;
  answer.error = "Operation timed out after 60000 milliseconds";
  CHECK(CallTool(tools, "list_skills", json(), context).at("isError") == true);
  REQUIRE(Levels(notes) == std::vector<std::string>{"warning"});
  CHECK(notes[0].at("params").at("logger") == "list_skills");
  CHECK(notes[0].at("params").at("data").at("timedOut") == true);
  CHECK(notes[0].at("params").at("data").at("message").get<std::string>().starts_with(
      "the skill lookup timed out: cannot reach the node: Operation timed out"));
  notes.clear();
  answer.timed_out = false;
  answer.error = "Connection refused";
  CallTool(tools, "get_skill_info", {{"name", "Echo"}}, context);
  REQUIRE(Levels(notes) == std::vector<std::string>{"error"});
  CHECK(notes[0].at("params").at("logger") == "get_skill_info");
  CHECK_FALSE(notes[0].at("params").at("data").contains("timedOut"));
}

TEST_CASE("get_skill_info logs a read at info, an unknown name at notice, a search at debug",
          "[unit]") {
  FakeNode node;
  node.Answer("POST /api/skills/search", 200, kSearchAnswer);
  node.Answer("GET /api/skills/sum/skill.md", 200, "# Sum");
  SkillTools tools(node.Fetch());
  std::vector<json> notes;
  CallContext context = Logging(notes);
  context.names = std::make_shared<NameMemory>();
  CallTool(tools, "list_skills", json(), context);
  CHECK(Levels(notes) == std::vector<std::string>{"debug"});
  CHECK(notes[0].at("params").at("data").at("found") == 3);
  CHECK(notes[0].at("params").at("data").at("shown") == 2);
  notes.clear();
  CallTool(tools, "get_skill_info", {{"name", "Sum"}}, context);
  REQUIRE(Levels(notes) == std::vector<std::string>{"debug", "info"});
  CHECK(notes[0].at("params").at("data").at("message").get<std::string>().find(
            "as list_skills showed it") != std::string::npos);
  CHECK(notes[1].at("params").at("data").at("bytes") == 5);
  notes.clear();
  CallTool(tools, "get_skill_info", {{"name", "Nobody"}}, context);
  REQUIRE(Levels(notes) == std::vector<std::string>{"notice"});
  CHECK(notes[0].at("params").at("data").at("name") == "Nobody");
}

// A temporary file holding `text`, opened for reading.
int InputFile(const std::string& text) {
  FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  REQUIRE(std::fwrite(text.data(), 1, text.size(), file) == text.size());
  std::fflush(file);
  const int fd = dup(fileno(file));
  std::fclose(file);
  REQUIRE(lseek(fd, 0, SEEK_SET) == 0);
  return fd;
}

std::vector<json> OutputLines(int fd) {
  REQUIRE(lseek(fd, 0, SEEK_SET) == 0);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fd, buffer, sizeof(buffer))) > 0;) text.append(buffer, n);
  std::vector<json> lines;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(json::parse(text.substr(start, end - start)));
  }
  CHECK(start == text.size());  // every answer ends with a newline
  return lines;
}

TEST_CASE("The stdio loop answers line by line, skips an oversized line, ends at EOF", "[unit]") {
  FakeNode node;
  SkillTools tools(node.Fetch());
  McpSession session(tools, SessionOptions{});
  std::string input =
      R"({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}})"
      "\r\n\n   \n"
      R"({"jsonrpc": "2.0", "method": "notifications/initialized"})"
      "\n{oops\n";
  input += std::string(kMessageBytesMax + 10, 'x') + "\n";
  input += R"({"jsonrpc": "2.0", "id": 2, "method": "ping"})";  // no final newline
  const int in = InputFile(input);
  const int out = InputFile("");
  CHECK(ServeStdio(in, out, session) == 0);
  const std::vector<json> lines = OutputLines(out);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].at("result").at("protocolVersion") == "2025-06-18");
  CHECK(lines[1].at("error").at("code") == kParseError);
  CHECK(lines[2].at("error").at("code") == kInvalidRequest);
  CHECK(lines[3].at("id") == 2);
  close(in);
  close(out);
}

TEST_CASE("The session table ends the longest-idle session when full, and idle ones", "[unit]") {
  FakeNode node;
  SkillTools tools(node.Fetch());
  auto make = [&tools] { return std::make_unique<McpSession>(tools, SessionOptions{}); };
  SessionTable table(2, transport::Seconds(60));
  const transport::TimePoint t0{};
  const std::string a = table.Create(t0, make());
  const std::string b = table.Create(t0 + transport::Seconds(1), make());
  CHECK(a.size() == 32);
  CHECK(a != b);
  CHECK(table.Find(t0 + transport::Seconds(2), a) != nullptr);  // a is now the most recent
  const std::string c = table.Create(t0 + transport::Seconds(3), make());
  CHECK(table.size() == 2);
  CHECK(table.evicted() == 1);
  CHECK(table.Find(t0 + transport::Seconds(4), b) == nullptr);
  CHECK(table.Find(t0 + transport::Seconds(4), a) != nullptr);
  CHECK(table.Find(t0 + transport::Seconds(70), c) == nullptr);  // idle since 3 s
  CHECK(table.expired() == 2);                                   // c, and a (idle since 4 s)
  CHECK(table.size() == 0);
  const std::string d = table.Create(t0 + transport::Seconds(71), make());
  CHECK(table.Erase(d));
  CHECK_FALSE(table.Erase(d));
}

TEST_CASE("Origins: none and loopback pass, foreign ones only when configured", "[unit]") {
  const std::vector<std::string> none;
  auto allowed = [](const std::string& origin, const std::vector<std::string>& list) {
    return OriginAllowed(&origin, list);
  };
  CHECK(OriginAllowed(nullptr, none));
  CHECK(allowed("http://localhost:3000", none));
  CHECK(allowed("http://127.0.0.1", none));
  CHECK(allowed("https://[::1]:8080", none));
  CHECK_FALSE(allowed("http://evil.example", none));
  CHECK_FALSE(allowed("http://localhost.evil.example", none));
  CHECK_FALSE(allowed("http://127.0.0.1.evil.example", none));
  CHECK_FALSE(allowed("null", none));
  CHECK(allowed("https://app.example.com", {"https://app.example.com"}));
  CHECK(allowed("http://evil.example", {"*"}));
}

}  // namespace
}  // namespace skillnode::node::mcp
