#include "discovery/capabilities/capability_render.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "discovery/capabilities/capability_snapshot.h"
#include "support/records.h"

namespace skillnode::discovery::capabilities {
namespace {

using kademlia::store::SkillDescriptor;
using kademlia::store::SkillRecord;
using nlohmann::json;
using Params = std::vector<std::pair<std::string, std::string>>;

constexpr uint64_t kBuiltAtMs = 1763893800000;  // 2025-11-23T10:30:00Z

SkillRecord Item(const std::string& agent, const std::string& id, const std::string& type,
                 std::vector<std::string> tags, const std::string& access = "") {
  SkillRecord r = testing::SampleRecord(agent, id);
  r.skill_type = type;
  SkillDescriptor d;
  d.name = id;
  d.description = "does " + id;
  d.tags = std::move(tags);
  d.access = access;
  d.input_schema =
      R"({"type":"object","properties":{"query":{"type":"string","description":"Q <&>"},)"
      R"("depth":{"type":"integer","minimum":1,"maximum":5,"default":3}},"required":["query"]})";
  d.output_schema = R"({"type":"object"})";
  d.examples = {R"({"input":{"query":"x"}})"};
  r.descriptor = d;
  return r;
}

// agent-a: reasoner deep_research (research, ml), skill web_search (web, search);
// agent-b: skill web_scraper (web), DEGRADED; agent-c: a private reasoner only.
std::vector<search::Found> Records() {
  std::vector<search::Found> out;
  out.push_back(
      {SkillEntry::Make(Item("agent-a", "web_search", "tool", {"web", "search"})), Source::kLocal});
  out.push_back({SkillEntry::Make(Item("agent-a", "deep_research", "reasoner", {"research", "ML"})),
                 Source::kLocal});
  SkillRecord b = Item("agent-b", "web_scraper", "tool", {"web"});
  b.status = kademlia::store::SkillStatus::kDegraded;
  b.endpoint = "https://b.example:9000/api/x";
  b.version = "2.0.0";
  b.timestamp_ms = 1707868900000;
  out.push_back({SkillEntry::Make(b), Source::kLan});
  out.push_back({SkillEntry::Make(Item("agent-c", "secret_plan", "reasoner", {"ml"}, "private")),
                 Source::kLocal});
  return out;
}

std::string RenderText(const Params& params, bool authenticated = false) {
  static const CapabilitySnapshot snapshot = CapabilitySnapshot::Build(Records(), kBuiltAtMs);
  std::string out;
  RenderCapabilities(snapshot, ParseCapabilityParams(params).value(), authenticated, out);
  return out;
}

json Render(const Params& params, bool authenticated = false) {
  return json::parse(RenderText(params, authenticated));
}

std::vector<std::string> AgentIds(const json& answer) {
  std::vector<std::string> ids;
  for (const json& agent : answer["capabilities"]) ids.push_back(agent["agent_id"]);
  return ids;
}

TEST_CASE("The JSON answer holds the document's fields, agents sorted by id", "[unit]") {
  const json answer = Render({});
  CHECK(answer["discovered_at"] == "2025-11-23T10:30:00Z");
  CHECK(answer["total_agents"] == 2);  // agent-c is private only
  CHECK(answer["total_reasoners"] == 1);
  CHECK(answer["total_skills"] == 2);
  CHECK(answer["pagination"] == json{{"limit", 100}, {"offset", 0}, {"has_more", false}});
  CHECK(AgentIds(answer) == std::vector<std::string>{"agent-a", "agent-b"});
  const json& a = answer["capabilities"][0];
  CHECK(a["base_url"] == "http://192.168.1.100:8080");
  CHECK(a["health_status"] == "active");
  CHECK(a["deployment_type"] == "long_running");
  CHECK(a["last_heartbeat"] == "2024-02-14T00:00:00Z");
  const json& reasoner = a["reasoners"][0];
  CHECK(reasoner["id"] == "deep_research");
  CHECK(reasoner["invocation_target"] == "agent-a:deep_research");
  CHECK(reasoner["description"] == "does deep_research");
  CHECK(reasoner["tags"] == json{"research", "ML"});
  CHECK(reasoner["source"] == "local");
  CHECK_FALSE(reasoner.contains("input_schema"));
  CHECK(a["skills"][0]["invocation_target"] == "agent-a:skill:web_search");
  const json& b = answer["capabilities"][1];
  CHECK(b["health_status"] == "degraded");
  CHECK(b["version"] == "2.0.0");
  CHECK(b["base_url"] == "https://b.example:9000");
  CHECK(b["skills"][0]["source"] == "lan");
}

TEST_CASE("Include flags add schemas and examples as JSON values, or drop descriptions", "[unit]") {
  const json answer = Render({{"include_input_schema", "1"},
                              {"include_output_schema", "yes"},
                              {"include_examples", "true"},
                              {"include_descriptions", "false"}});
  const json& reasoner = answer["capabilities"][0]["reasoners"][0];
  CHECK(reasoner["input_schema"]["properties"]["depth"]["maximum"] == 5);
  CHECK(reasoner["output_schema"] == json{{"type", "object"}});
  CHECK(reasoner["examples"][0]["input"]["query"] == "x");
  CHECK_FALSE(reasoner.contains("description"));
}

TEST_CASE("Private items appear only with a valid token, headers included", "[unit]") {
  const json anonymous = Render({{"agent", "agent-c"}});
  CHECK(anonymous["total_agents"] == 0);
  CHECK(anonymous["capabilities"].empty());
  const json authed = Render({{"agent", "agent-c"}}, true);
  CHECK(authed["total_agents"] == 1);
  CHECK(authed["capabilities"][0]["reasoners"][0]["id"] == "secret_plan");
  CHECK(Render({}, true)["total_reasoners"] == 2);
}

TEST_CASE("Patterns filter their own kind; tags filter both; agents with nothing left go",
          "[unit]") {
  json answer = Render({{"reasoner", "*research*"}});
  CHECK(answer["total_reasoners"] == 1);
  CHECK(answer["total_skills"] == 2);  // reasoner= leaves skills alone
  answer = Render({{"skill", "web_s*"}});
  CHECK(answer["total_skills"] == 2);
  answer = Render({{"skill", "*scraper"}, {"reasoner", "nothing"}});
  CHECK(AgentIds(answer) == std::vector<std::string>{"agent-b"});
  answer = Render({{"tags", "ml*,nothing"}});
  CHECK(answer["total_agents"] == 1);
  CHECK(answer["total_reasoners"] == 1);
  CHECK(answer["total_skills"] == 0);
  CHECK(Render({{"tags", "*"}})["total_skills"] == 2);
}

TEST_CASE("Agent and health filters pick agents", "[unit]") {
  CHECK(AgentIds(Render({{"node_ids", "agent-b,agent-x"}})) == std::vector<std::string>{"agent-b"});
  CHECK(AgentIds(Render({{"health_status", "degraded"}})) == std::vector<std::string>{"agent-b"});
  CHECK(AgentIds(Render({{"health_status", "active"}})) == std::vector<std::string>{"agent-a"});
  CHECK(Render({{"health_status", "inactive"}})["total_agents"] == 0);
}

TEST_CASE("Limit and offset page agents; totals cover every page", "[unit]") {
  json answer = Render({{"limit", "1"}});
  CHECK(AgentIds(answer) == std::vector<std::string>{"agent-a"});
  CHECK(answer["total_agents"] == 2);
  CHECK(answer["pagination"]["has_more"] == true);
  answer = Render({{"limit", "1"}, {"offset", "1"}});
  CHECK(AgentIds(answer) == std::vector<std::string>{"agent-b"});
  CHECK(answer["pagination"]["has_more"] == false);
  answer = Render({{"limit", "0"}});
  CHECK(answer["capabilities"].empty());
  CHECK(answer["total_skills"] == 2);
  CHECK(answer["pagination"]["has_more"] == true);
  CHECK(Render({{"offset", "9"}})["capabilities"].empty());
}

TEST_CASE("Compact lists items flat with agent and target", "[unit]") {
  const json answer = Render({{"format", "compact"}});
  CHECK(answer["reasoners"].size() == 1);
  CHECK(answer["skills"].size() == 2);
  CHECK(answer["reasoners"][0] == json{{"id", "deep_research"},
                                       {"agent_id", "agent-a"},
                                       {"target", "agent-a:deep_research"},
                                       {"source", "local"},
                                       {"tags", {"research", "ML"}}});
  CHECK(Render({{"format", "compact"}, {"include_descriptions", "yes"}})["skills"][0].contains(
      "description"));
}

TEST_CASE("XML holds agents, items and schema fields, escaped", "[unit]") {
  const std::string xml = RenderText({{"format", "xml"}, {"include_input_schema", "true"}});
  CHECK(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<discovery "));
  CHECK(xml.find("<summary total_agents=\"2\" total_reasoners=\"1\" total_skills=\"2\"") !=
        std::string::npos);
  CHECK(xml.find("<reasoner id=\"deep_research\"") != std::string::npos);
  CHECK(xml.find("target=\"agent-a:skill:web_search\"") != std::string::npos);
  CHECK(xml.find("<field name=\"depth\" type=\"integer\" min=\"1\" max=\"5\" default=\"3\"/>") !=
        std::string::npos);
  CHECK(xml.find("<field name=\"query\" type=\"string\" required=\"true\">Q &lt;&amp;&gt;"
                 "</field>") != std::string::npos);
  CHECK(xml.ends_with("</capabilities></discovery>\n"));
}

TEST_CASE("XML escaping replaces what XML 1.0 cannot hold", "[unit]") {
  CHECK(XmlEscape("a\"'<>&b") == "a&quot;&apos;&lt;&gt;&amp;b");
  CHECK(XmlEscape(std::string("x\x01y")) == "x\xEF\xBF\xBDy");
  CHECK(XmlEscape(std::string("\xC3")) == "\xEF\xBF\xBD");  // a cut UTF-8 sequence
  CHECK(XmlEscape("caf\xC3\xA9") == "caf\xC3\xA9");
}

TEST_CASE("A later record of the same skill is dropped; tombstones are skipped", "[unit]") {
  std::vector<search::Found> records = Records();
  SkillRecord lan_copy = Item("agent-a", "web_search", "tool", {"other"});
  records.push_back({SkillEntry::Make(lan_copy), Source::kLan});
  SkillRecord gone = Item("agent-z", "gone", "tool", {});
  gone.tombstone = true;
  records.push_back({SkillEntry::Make(gone), Source::kDht});
  const CapabilitySnapshot snapshot = CapabilitySnapshot::Build(records, kBuiltAtMs);
  CHECK(snapshot.items() == 4);
  CHECK(snapshot.Find("agent-z") == nullptr);
  REQUIRE(snapshot.Find("agent-a") != nullptr);
  CHECK(snapshot.Find("agent-a")->tags_lower ==
        std::vector<std::string>{"research", "ml", "web", "search"});
}

TEST_CASE("Replacing agents rebuilds, adds and removes them in place, in order", "[unit]") {
  CapabilitySnapshot snapshot = CapabilitySnapshot::Build(Records(), kBuiltAtMs);
  const size_t items = snapshot.items();
  std::vector<search::Found> records;
  records.push_back(
      {SkillEntry::Make(Item("agent-b", "web_scraper", "tool", {"renamed"})), Source::kLocal});
  records.push_back(
      {SkillEntry::Make(Item("agent-aa", "new_one", "reasoner", {})), Source::kLocal});
  snapshot.ReplaceAgents(records, {"agent-a", "agent-aa", "agent-b"}, kBuiltAtMs + 1000);
  std::vector<std::string> ids;
  for (const CapabilityAgent& agent : snapshot.agents()) ids.push_back(agent.agent_id);
  CHECK(ids == std::vector<std::string>{"agent-aa", "agent-b", "agent-c"});  // agent-a is gone
  CHECK(snapshot.items() == items - 2 + 1);
  CHECK(snapshot.Find("agent-b")->tags_lower == std::vector<std::string>{"renamed"});
  CHECK(snapshot.Find("agent-b")->has_lan == false);
  CHECK(snapshot.discovered_at() == "2025-11-23T10:30:01Z");
  CHECK(CapabilitySnapshot::Build(Records(), kBuiltAtMs).LanAgentIds() ==
        std::vector<std::string>{"agent-b"});
}

TEST_CASE("Selection keys name the filters only", "[unit]") {
  auto key = [](const Params& params, bool authenticated = false) {
    return SelectionKey(ParseCapabilityParams(params).value(), authenticated);
  };
  CHECK(key({{"tags", "ml*"}}) == key({{"tags", "ML*"}, {"format", "xml"}, {"limit", "3"}}));
  CHECK(key({{"tags", "ml*"}}) != key({{"tags", "ml*"}}, true));
  CHECK(key({{"reasoner", "x"}}) != key({{"skill", "x"}}));
  CHECK(key({{"skill", "x*"}}) != key({{"skill", "x"}}));
  CHECK(key({{"agent_ids", "a,b"}}) != key({{"agent", "a,b"}}));
  CHECK(key({}) != key({{"health_status", "active"}}));
}

TEST_CASE("Base URLs and RFC 3339 times", "[unit]") {
  CHECK(BaseUrlOf("10.0.0.5:8080/api") == "http://10.0.0.5:8080");
  CHECK(BaseUrlOf("https://x.example/a?b") == "https://x.example");
  CHECK(BaseUrlOf("") == "");
  CHECK(Rfc3339(0) == "1970-01-01T00:00:00Z");
  CHECK(Rfc3339(951782400999) == "2000-02-29T00:00:00Z");
}

}  // namespace
}  // namespace skillnode::discovery::capabilities
