// Agent Cards (node/formats/a2a/a2a_card.h): the node's card and an agent's card carry A2A v1.0's
// required members with values, honest interfaces (MCP, skillnode's invocation protocol and
// HTTP API, never A2A's own bindings), the highest version, and never an empty value.
#include "node/formats/a2a/a2a_card.h"

#include <catch2/catch.hpp>
#include <functional>
#include <string>

#include "support/records.h"

namespace skillnode::node::formats::a2a {
namespace {

using kademlia::store::SkillRecord;
using nlohmann::json;

const CardHost kHost{"http://127.0.0.1:7070", true};
const NodeCardInfo kNode{std::string(64, 'a'), "", "", "0.1.0"};

SkillRecord Record(const std::string& skill, const std::string& version,
                   const std::string& endpoint) {
  SkillRecord r = testing::SampleRecord("agent-x", skill);
  r.version = version;
  r.endpoint = endpoint;
  return r;
}

// True when no string, array or object anywhere in `value` is empty.
bool NoEmptyValues(const json& value) {
  if (value.is_string()) return !value.get<std::string>().empty();
  if (value.is_array() || value.is_object()) {
    if (value.empty()) return false;
    for (const auto& item : value) {
      if (!NoEmptyValues(item)) return false;
    }
  }
  return !value.is_null();
}

TEST_CASE("the node's card names the node and lists /mcp and /api as its interfaces", "[unit]") {
  const json card = NodeAgentCard(kNode, kHost, {Record("upper", "1.0.0", "http://h:1/run")});
  CHECK(card["name"] == "skillnode aaaaaaaaaaaaaaaa");
  CHECK(card["version"] == "0.1.0");
  CHECK(card["supportedInterfaces"] == json{{{"url", "http://127.0.0.1:7070/mcp"},
                                             {"protocolBinding", kMcpBinding},
                                             {"protocolVersion", "1.0"}},
                                            {{"url", "http://127.0.0.1:7070/api"},
                                             {"protocolBinding", kHttpApiBinding},
                                             {"protocolVersion", "1.0"}}});
  CHECK(card["capabilities"] == json{{"streaming", false}, {"pushNotifications", false}});
  CHECK(card["defaultInputModes"] == json{"application/json"});
  CHECK(card["defaultOutputModes"] == json{"application/json"});
  CHECK(card["skills"].size() == 1);
  CHECK(card["description"].get<std::string>().find("with 1 skill registered") !=
        std::string::npos);
  CHECK_FALSE(card.contains("provider"));
  CHECK(NoEmptyValues(card));
}

TEST_CASE("the node's card has a provider only when both its name and url are set", "[unit]") {
  NodeCardInfo named = kNode;
  named.provider_name = "Example Org";
  CHECK(NodeAgentCard(named, kHost, {})["name"] == "Example Org");
  CHECK_FALSE(NodeAgentCard(named, kHost, {}).contains("provider"));
  named.provider_url = "https://example.org";
  CHECK(NodeAgentCard(named, kHost, {})["provider"] ==
        json{{"organization", "Example Org"}, {"url", "https://example.org"}});
}

TEST_CASE("without /mcp or skills the card leaves them out rather than serve them empty",
          "[unit]") {
  const json card = NodeAgentCard(kNode, CardHost{"http://n:1", false}, {});
  CHECK(card["supportedInterfaces"].size() == 1);
  CHECK(card["supportedInterfaces"][0]["protocolBinding"] == kHttpApiBinding);
  CHECK_FALSE(card.contains("skills"));
  CHECK(NoEmptyValues(card));
}

TEST_CASE("an agent's interfaces are its http endpoints by binding, then the node's", "[unit]") {
  SkillRecord mcp = Record("files", "1.0.0", "https://mcp.example.org/mcp");
  mcp.skill_type = std::string(kademlia::store::kMcpServerSkillType);
  const json interfaces = AgentInterfaces(
      kHost, {Record("upper", "1.0.0", "http://h:1/run"), mcp,
              Record("lower", "1.0.0", "http://h:1/run"),       // the same endpoint again
              Record("seed", "1.0.0", "192.168.1.100:8080")});  // names no URL
  REQUIRE(interfaces.size() == 4);
  CHECK(interfaces[0] == json{{"url", "http://h:1/run"},
                              {"protocolBinding", kInvokeBinding},
                              {"protocolVersion", "1.0"}});
  CHECK(interfaces[1]["url"] == "https://mcp.example.org/mcp");
  CHECK(interfaces[1]["protocolBinding"] == kMcpBinding);
  CHECK(interfaces[2]["url"] == "http://127.0.0.1:7070/mcp");
  CHECK(interfaces[3]["url"] == "http://127.0.0.1:7070/api");
  for (const json& entry : interfaces) {
    CHECK(entry["protocolBinding"] != "JSONRPC");
    CHECK(entry["protocolBinding"] != "HTTP+JSON");
    CHECK(entry["protocolBinding"] != "GRPC");
  }
}

TEST_CASE("an agent lists at most kCardEndpointsMax endpoints", "[unit]") {
  std::vector<SkillRecord> records;
  for (size_t i = 0; i < kCardEndpointsMax + 3; ++i) {
    records.push_back(
        Record("s" + std::to_string(i), "1.0.0", "http://h:1/run/" + std::to_string(i)));
  }
  CHECK(AgentInterfaces(kHost, records).size() == kCardEndpointsMax + 2);
}

TEST_CASE("an agent's version is the highest semver of its records", "[unit]") {
  CHECK(HighestVersion({Record("a", "1.9.0", ""), Record("b", "1.10.0", ""),
                        Record("c", "1.10.0-beta", "")}) == "1.10.0");
  CHECK(HighestVersion({Record("a", "not-semver", ""), Record("b", "0.2.0", "")}) == "0.2.0");
  CHECK(HighestVersion({Record("a", "v-one", ""), Record("b", "v-two", "")}) == "v-one");
}

TEST_CASE("an agent's card is named by its id and describes its skills", "[unit]") {
  const json card = AgentCardOf(
      "agent-x", kHost,
      {Record("upper", "1.2.0", "http://h:1/run"), Record("lower", "2.0.0", "http://h:1/run")},
      nullptr);
  CHECK(card["name"] == "agent-x");
  CHECK(card["version"] == "2.0.0");
  CHECK(card["description"] ==
        "Agent agent-x in a skillnode network, with 2 skills: upper, lower.");
  CHECK(card["skills"].size() == 2);
  CHECK_FALSE(card.contains("provider"));
  CHECK(NoEmptyValues(card));
  const json provider = {{"organization", "Org"}, {"url", "https://org.example"}};
  CHECK(AgentCardOf("agent-x", kHost, {Record("upper", "1.2.0", "")}, provider)["provider"] ==
        provider);
}

TEST_CASE("a card lists at most kCardSkillsMax skills", "[unit]") {
  std::vector<SkillRecord> records;
  for (size_t i = 0; i < kCardSkillsMax + 5; ++i) {
    records.push_back(Record("s" + std::to_string(i), "1.0.0", ""));
  }
  const json card = AgentCardOf("agent-x", kHost, records, nullptr);
  CHECK(card["skills"].size() == kCardSkillsMax);
  CHECK(card["description"].get<std::string>().find("with 256 skills: s0, s1") !=
        std::string::npos);
}

TEST_CASE("claimed publisher domains travel in an A2A extension; a card without any has none",
          "[unit]") {
  json card = AgentCardOf("agent-x", kHost, {Record("upper", "1.2.0", "")}, nullptr);
  const json before = card;
  AddDomainClaims(card, json::array());
  CHECK(card == before);
  const json claims = json::array({{{"domain", "pub.example"}, {"state", "verified"}}});
  AddDomainClaims(card, claims);
  const json& extensions = card["capabilities"]["extensions"];
  REQUIRE(extensions.size() == 1);
  CHECK(extensions[0]["uri"] == kPublisherDomainsExtensionUri);
  CHECK(extensions[0]["required"] == false);
  CHECK(extensions[0]["params"]["publisherDomains"] == claims);
  CHECK(card["capabilities"]["streaming"] == false);  // the required members stay
  CHECK(NoEmptyValues(card));
}

}  // namespace
}  // namespace skillnode::node::formats::a2a
