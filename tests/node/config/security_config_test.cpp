// The LAN and security sections of the configuration (docs/configuration.md; the embedded
// default is checked against it in readme_config_test.cpp): bad values are refused naming
// the key, and the cross-checks between security keys.
#include <catch2/catch.hpp>
#include <string>

#include "node/config/config.h"
#include "node/config/config_yaml.h"

namespace skillnode::node::config {
namespace {

TEST_CASE("the LAN and security sections refuse bad values, naming the key", "[unit]") {
  struct Case {
    const char* yaml;
    const char* message;
  };
  const Case cases[] = {
      {"security:\n  mode: paranoid\n", "security.mode: expected off, verify or require"},
      {"discovery:\n  udp:\n    interfaces: eth0\n", "discovery.udp.interfaces: expected a list"},
      {"discovery:\n  udp:\n    rateLimit: {perSource: 0}\n",
       "discovery.udp.rateLimit.perSource: must be between"},
      {"security:\n  trustedRoots: [\"\"]\n", "security.trustedRoots[0]: expected the path"},
      {"discovery:\n  mdns: {enabled: maybe}\n", "discovery.mdns.enabled"},
  };
  for (const Case& c : cases) {
    INFO(c.yaml);
    auto config = ParseConfig(c.yaml);
    REQUIRE_FALSE(config);
    CHECK(config.error().message.find(c.message) != std::string::npos);
  }
  auto require_without_keys = ParseConfig("security:\n  mode: require\n");
  REQUIRE(require_without_keys);
  const auto problems = CrossCheck(*require_without_keys);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].starts_with("security.mode: require needs"));
  auto half_a_pair = ParseConfig("security:\n  certificate: node.pem\n");
  REQUIRE(half_a_pair);
  CHECK(CrossCheck(*half_a_pair).front() ==
        "security.privateKey: required with security.certificate");
}

}  // namespace
}  // namespace skillnode::node::config
