// The skill subcommands without a node: the requests they build from their options, the
// refusals of options that do not make a request, and the text they print of the node's
// answers and of `watch`'s event stream.
#include "node/cli/skill_requests.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::node::cli {
namespace {

using nlohmann::json;

SkillRegistration Complete() {
  SkillRegistration registration;
  registration.agent = "agent-1";
  registration.skill = "weather";
  registration.version = "1.2.0";
  registration.type = "tool-skill";
  registration.endpoint = "http://10.0.0.2:8080";
  registration.capabilities = {"forecast", "radar"};
  registration.scenes = {"travel"};
  return registration;
}

TEST_CASE("register posts the flags as a registration", "[unit]") {
  const auto request = RegisterRequest(Complete());
  REQUIRE(request);
  CHECK(request->method == "POST");
  CHECK(request->path == "/api/skills");
  CHECK(request->content_type == "application/json");
  REQUIRE(request->body);
  CHECK(json::parse(*request->body) == json{{"agentId", "agent-1"},
                                            {"skillId", "weather"},
                                            {"version", "1.2.0"},
                                            {"skillType", "tool-skill"},
                                            {"endpoint", "http://10.0.0.2:8080"},
                                            {"capabilities", {"forecast", "radar"}},
                                            {"scenes", {"travel"}}});
}

TEST_CASE("register names the skill as the descriptor's name when only a description is given",
          "[unit]") {
  SkillRegistration registration = Complete();
  registration.description = "Forecasts";
  registration.access = "private";
  const auto request = RegisterRequest(registration);
  REQUIRE(request);
  const json body = json::parse(*request->body);
  CHECK(body["access"] == "private");
  CHECK(body["descriptor"] ==
        json{{"name", "weather"}, {"description", "Forecasts"}, {"tags", json::array()}});
}

TEST_CASE("register refuses flags without one that is required, naming it", "[unit]") {
  SkillRegistration registration = Complete();
  registration.version.clear();
  const auto request = RegisterRequest(registration);
  REQUIRE_FALSE(request);
  CHECK(request.error().message == "skillnode register: --skill-version is required (or --file)");
}

TEST_CASE("register --file posts the file's JSON object and refuses anything else", "[unit]") {
  SkillRegistration registration;
  registration.file = "skill.json";
  const auto request = RegisterFileRequest(registration, R"({"skillId": "weather"})");
  REQUIRE(request);
  CHECK(request->path == "/api/skills");
  CHECK(json::parse(*request->body) == json{{"skillId", "weather"}});
  for (const char* text : {"[1, 2]", "{not json"}) {
    const auto refused = RegisterFileRequest(registration, text);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message == "skillnode: skill.json is not a JSON object");
  }
}

TEST_CASE("register --skill-dir sends the archive with the flags in the query", "[unit]") {
  SkillRegistration registration = Complete();
  registration.skill_dir = "/tmp/weather";
  registration.tags = {"a b", "c"};
  REQUIRE(CheckFolderRegistration(registration));
  const SkillRequest request = RegisterFolderRequest(registration, "TAR");
  CHECK(request.method == "POST");
  CHECK(request.path ==
        "/api/skills/folder?agentId=agent-1&version=1.2.0&skillType=tool-skill"
        "&endpoint=http%3A%2F%2F10.0.0.2%3A8080&capabilities=forecast%2Cradar&scenes=travel"
        "&tags=a%20b%2Cc&skillId=weather");
  CHECK(request.body == "TAR");
  CHECK(request.content_type == "application/x-tar");
}

TEST_CASE("register --skill-dir needs no --skill but refuses --name, --description and --file",
          "[unit]") {
  SkillRegistration registration = Complete();
  registration.skill_dir = "/tmp/weather";
  registration.skill.clear();
  CHECK(CheckFolderRegistration(registration));
  CHECK(RegisterFolderRequest(registration, "TAR").path.find("skillId") == std::string::npos);
  registration.name = "Weather";
  const auto refused = CheckFolderRegistration(registration);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("cannot be combined with --file, --name or --description") !=
        std::string::npos);
  registration.name.clear();
  registration.endpoint.clear();
  const auto missing = CheckFolderRegistration(registration);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == "skillnode register: --endpoint is required");
}

TEST_CASE("heartbeat and unregister address the skill by its encoded id", "[unit]") {
  const SkillRequest heartbeat = HeartbeatRequest("agent 1", "a/b", "DEGRADED");
  CHECK(heartbeat.method == "POST");
  CHECK(heartbeat.path == "/api/skills/a%2Fb/heartbeat");
  CHECK(json::parse(*heartbeat.body) == json{{"agentId", "agent 1"}, {"status", "DEGRADED"}});
  const SkillRequest unregister = UnregisterRequest("agent 1", "a/b", "UPGRADE");
  CHECK(unregister.method == "DELETE");
  CHECK(unregister.path == "/api/skills/a%2Fb?agentId=agent%201&reason=UPGRADE");
  CHECK_FALSE(unregister.body);
}

TEST_CASE("discover sends only the criteria given", "[unit]") {
  CHECK(json::parse(*DiscoverRequest(DiscoverQuery()).body) == json::object());
  DiscoverQuery query;
  query.capabilities = {"forecast"};
  query.keywords = {"rain", "wind"};
  query.version = "^1.2";
  query.fresh = true;
  const SkillRequest request = DiscoverRequest(query);
  CHECK(request.path == "/api/skills/search");
  CHECK(json::parse(*request.body) == json{{"capabilities", {"forecast"}},
                                           {"keywords", {"rain", "wind"}},
                                           {"version", "^1.2"},
                                           {"fresh", true}});
}

TEST_CASE("discover --query sends the words as q beside the other criteria", "[unit]") {
  DiscoverQuery query;
  query.text = "summarising pdfs";
  query.scenes = {"office"};
  CHECK(json::parse(*DiscoverRequest(query).body) ==
        json{{"q", "summarising pdfs"}, {"scenes", {"office"}}});
}

TEST_CASE("watch subscribes to the subject given and refuses none", "[unit]") {
  WatchTarget target;
  const auto none = WatchPath(target);
  REQUIRE_FALSE(none);
  CHECK(none.error().message == "skillnode watch: give one of --scene, --capability, --skill");
  target.capability = "image/resize";
  CHECK(WatchPath(target).value() == "/api/v1/watch?capability=image%2Fresize");
}

TEST_CASE("answers print as one line, with a dash for what the node left out", "[unit]") {
  CHECK(FormatRegistered({{"status", "REGISTERED"},
                          {"skillId", "weather"},
                          {"agentId", "agent-1"},
                          {"message", "ok"}}) == "REGISTERED: weather of agent agent-1 (ok)\n");
  CHECK(FormatRegistered({{"skillId", "weather"}}) == ": weather of agent - ()\n");
  CHECK(FormatHeartbeat({{"skillId", "weather"}, {"status", "HEALTHY"}}) == "weather: HEALTHY\n");
  CHECK(FormatUnregistered({{"skillId", "weather"}, {"agentId", "a"}, {"reason", "SHUTDOWN"}}) ==
        "UNREGISTERED: weather of agent a (SHUTDOWN)\n");
}

TEST_CASE("a folder registration prints the digests and the file count", "[unit]") {
  const json answer = {{"status", "REGISTERED"},
                       {"skillId", "weather"},
                       {"agentId", "a"},
                       {"message", "ok"},
                       {"files", 1},
                       {"skill",
                        {{"skillMdSha256", "ab"},
                         {"skillMdSize", 10},
                         {"archiveSha256", "cd"},
                         {"archiveSize", 2048}}}};
  CHECK(FormatFolderRegistered(answer) ==
        "REGISTERED: weather of agent a (ok)\n"
        "SKILL.md sha256 ab (10 bytes), archive sha256 cd (2048 bytes, 1 file)\n");
  json two = answer;
  two["files"] = 2;
  CHECK(FormatFolderRegistered(two).ends_with("(2048 bytes, 2 files)\n"));
}

TEST_CASE("discover prints a table of the skills found and their count", "[unit]") {
  const json answer = {{"skills",
                        {{{"id", "weather"},
                          {"agentId", "agent-1"},
                          {"version", "1.2.0"},
                          {"status", "HEALTHY"},
                          {"endpoint", "http://10.0.0.2:8080"},
                          {"source", "local"}}}}};
  CHECK(FormatDiscovered(answer) ==
        "SKILL                        AGENT            VERSION    STATUS      "
        "ENDPOINT                   SOURCE\n"
        "weather                      agent-1          1.2.0      HEALTHY     "
        "http://10.0.0.2:8080       local\n"
        "1 skill(s)\n");
  CHECK(FormatDiscovered(json::object()).ends_with("\n0 skill(s)\n"));
}

TEST_CASE("the watch printer prints each event once its data line is complete", "[unit]") {
  WatchPrinter printer(false);
  CHECK(printer.Feed("event: ready\ndata: {\"scene\":") == "");
  CHECK(printer.Feed("\"travel\"}\n\n") == "watching {\"scene\":\"travel\"}\n");
  CHECK(printer.Feed("event: added\ndata: {\"id\":\"weather\",\"agentId\":\"a\",\"version\":"
                     "\"1.0.0\",\"status\":\"HEALTHY\",\"endpoint\":\"http://h:1\"}\n\n") ==
        "added    weather                      a                1.0.0      HEALTHY     "
        "http://h:1\n");
  CHECK(printer.Feed("event: error\ndata: {\"message\":\"too slow\"}\n\n") == "error: too slow\n");
  CHECK(printer.Feed(": keep-alive\n\nevent: added\ndata: not json\n\n") == "");
}

TEST_CASE("the watch printer with --json prints one object per event", "[unit]") {
  WatchPrinter printer(true);
  CHECK(printer.Feed("event: removed\ndata: {\"id\":\"weather\"}\n\n") ==
        "{\"data\":{\"id\":\"weather\"},\"event\":\"removed\"}\n");
}

}  // namespace
}  // namespace skillnode::node::cli
