// docs/configuration.md's configuration reference is the embedded default, key for key: the
// ```yaml block after its "# Configuration" heading parses and gives exactly Config{} (so the
// documentation cannot drift).
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <string>

#include "node/config/config.h"
#include "node/config/config_yaml.h"
#include "support/source_root.h"

namespace skillnode::node::config {
namespace {

// The ```yaml block after the "# Configuration" heading of docs/configuration.md.
std::string DocumentedDefaults() {
  std::ifstream file(testing::SourceRoot() / "docs/configuration.md");
  REQUIRE(file.is_open());
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const size_t section = text.find("# Configuration\n");
  REQUIRE(section != std::string::npos);
  const size_t start = text.find("```yaml\n", section);
  REQUIRE(start != std::string::npos);
  const size_t end = text.find("```", start + 8);
  return text.substr(start + 8, end - start - 8);
}

TEST_CASE("docs/configuration.md's reference parses and is exactly the embedded default",
          "[unit]") {
  auto documented = ParseConfig(DocumentedDefaults());
  REQUIRE(documented);
  const Config defaults;
  const Config& d = *documented;
  // Section by section, so that a failing line names the section that drifted; every section
  // and every field compares (the structs' operator== is defaulted).
  CHECK(d.node.port == defaults.node.port);
  CHECK(d.node.bind_ipv4 == defaults.node.bind_ipv4);
  CHECK(d.node.bind_ipv6 == defaults.node.bind_ipv6);
  CHECK(d.node.network_id == defaults.node.network_id);
  CHECK(d.node.data_dir == defaults.node.data_dir);
  CHECK(d.node.state_save_interval == defaults.node.state_save_interval);
  CHECK(d.node.log == defaults.node.log);
  CHECK(d.node.http == defaults.node.http);
  CHECK(d.node.https == defaults.node.https);
  CHECK(d.node.bootstrap == defaults.node.bootstrap);
  CHECK(d.node.auth == defaults.node.auth);
  CHECK(d.node.skills == defaults.node.skills);
  CHECK(d.node.mcp == defaults.node.mcp);
  CHECK(d.node.ui == defaults.node.ui);
  CHECK(d.node.kademlia.routing == defaults.node.kademlia.routing);
  CHECK(d.node.kademlia.rate_limit == defaults.node.kademlia.rate_limit);
  CHECK(d.node.kademlia == defaults.node.kademlia);
  CHECK(d.discovery.udp == defaults.discovery.udp);
  CHECK(d.discovery.mdns == defaults.discovery.mdns);
  CHECK(d.discovery.dht == defaults.discovery.dht);
  CHECK(d.discovery.skill_center == defaults.discovery.skill_center);
  CHECK(d.discovery.health_check == defaults.discovery.health_check);
  CHECK(d.discovery.cache == defaults.discovery.cache);
  CHECK(d.discovery.search == defaults.discovery.search);
  CHECK(d.security == defaults.security);
  CHECK(d.provider == defaults.provider);
  CHECK(d.import == defaults.import);
  CHECK(d == defaults);
  CHECK(CrossCheck(d).empty());
}

}  // namespace
}  // namespace skillnode::node::config
