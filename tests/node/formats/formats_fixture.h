// A node's format routes without a daemon (node/formats): a lone DHT node with its skill store
// (testing::DhtFixture), a Registry on it, an Authenticator with one token, FormatRecords, and
// a Router to which the test adds the route classes; Get() dispatches a request and returns
// the answer the route sent. The DHT has no peers, so a get ends at once with what this node's
// own store holds.
#ifndef SKILLNODE_TESTS_NODE_FORMATS_FORMATS_FIXTURE_H_
#define SKILLNODE_TESTS_NODE_FORMATS_FORMATS_FIXTURE_H_

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>

#include "discovery/registry/registry.h"
#include "node/auth/authenticator.h"
#include "node/auth/token_file.h"
#include "node/formats/format_records.h"
#include "node/http/router.h"
#include "support/dht_fixture.h"
#include "support/records.h"
#include "support/temp_dir.h"

namespace skillnode::node::formats {

struct FormatsFixture {
  FormatsFixture()
      : registry(dht.dht, dht.node.identity(), discovery::RegistryConfig{},
                 [this] { return wall_ms; }),
        auth(auth::AuthOptions{dir.File("tokens"), 10, 16}, logger, [this] { return dht.now; }),
        records(&dht.dht, registry, dht.node.identity()) {
    REQUIRE(auth::SaveTokenFile(dir.File("tokens"),
                                {auth::TokenEntry{"test", auth::HashToken(token), 1}}));
    auth.Refresh(true);
  }

  // Registers `record`'s fields with this node; REQUIREs success.
  void Register(const kademlia::store::SkillRecord& record) {
    const auto outcome = registry.Register(dht.now, record);
    REQUIRE(outcome.status == discovery::RegisterStatus::kSuccess);
  }

  // GET (or `method`) `target` through the router, with the token when `authenticated`; the
  // answer the route sent (a route that answers nothing fails the test).
  http::HttpResponse Get(const std::string& target, bool authenticated = false,
                         const std::string& method = "GET") {
    http::HttpRequest request;
    request.method = method;
    request.target = target;
    const size_t question = target.find('?');
    request.path = target.substr(0, question);
    request.query = question == std::string::npos ? "" : target.substr(question + 1);
    request.headers.emplace_back("host", "node.example:7070");
    if (authenticated) request.headers.emplace_back("authorization", "Bearer " + token);
    auto answer = std::make_shared<std::optional<http::HttpResponse>>();
    auto slot = std::make_shared<http::ResponseSlot>();
    slot->deliver = [answer](http::HttpResponse response) { *answer = std::move(response); };
    router.Dispatch(request, http::Responder(slot));
    REQUIRE(answer->has_value());
    return **answer;
  }
  nlohmann::json GetJson(const std::string& target, bool authenticated = false) {
    return nlohmann::json::parse(Get(target, authenticated).body);
  }

  testing::TempDir dir;
  testing::DhtFixture dht;
  uint64_t wall_ms = 1790000000000;
  discovery::Registry registry;
  transport::NullLogger logger;
  std::string token = auth::NewToken();
  auth::Authenticator auth;
  FormatRecords records;
  http::Router router;
};

// A record of an MCP server (skillType mcp-server) with an http endpoint and a descriptor.
inline kademlia::store::SkillRecord McpServerRecord(const std::string& agent,
                                                    const std::string& skill,
                                                    const std::string& version = "1.0.0") {
  kademlia::store::SkillRecord r = testing::SampleRecord(agent, skill);
  r.skill_type = std::string(kademlia::store::kMcpServerSkillType);
  r.version = version;
  r.endpoint = "http://127.0.0.1:9/" + skill;
  r.scenes.clear();
  kademlia::store::SkillDescriptor d;
  d.name = skill + " server";
  d.description = "The " + skill + " MCP server";
  d.tags = {"mcp"};
  r.descriptor = d;
  return r;
}

// A record of an Agent Skill: its descriptor names a SKILL.md by digest.
inline kademlia::store::SkillRecord AgentSkillRecord(const std::string& agent,
                                                     const std::string& skill,
                                                     uint8_t digest_byte = 0xab) {
  kademlia::store::SkillRecord r = testing::SampleRecord(agent, skill);
  r.skill_type = "tool-skill";
  r.scenes.clear();
  kademlia::store::SkillDescriptor d;
  d.name = skill;
  d.description = "What " + skill + " does";
  std::array<uint8_t, 32> digest{};
  digest.fill(digest_byte);
  d.skill_md_sha256 = digest;
  r.descriptor = d;
  return r;
}

}  // namespace skillnode::node::formats

#endif  // SKILLNODE_TESTS_NODE_FORMATS_FORMATS_FIXTURE_H_
