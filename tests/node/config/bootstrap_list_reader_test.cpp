// BootstrapListReader: bootstrap peers as 'host:port' or {host, port}, each problem at its path,
// alone and through a whole configuration file (discovery.dht.bootstrapNodes).
#include "node/config/bootstrap_list_reader.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "node/config/config.h"
#include "node/config/config_yaml.h"

namespace skillnode::node::config {
namespace {

using Catch::Contains;

// The error text of a configuration file that must be refused.
std::string ErrorOf(const std::string& yaml) {
  auto config = ParseConfig(yaml);
  REQUIRE_FALSE(config);
  return config.error().message;
}

struct Read {
  std::vector<transport::HostPort> peers;
  std::vector<std::string> errors;
};

Read ReadList(const std::string& yaml, std::vector<transport::HostPort> base = {}) {
  auto tree = ParseYaml(yaml);
  REQUIRE(tree);
  Read out{std::move(base), {}};
  ConfigSection root(&*tree, "dht", out.errors);
  BootstrapListReader(root, out.errors).Read("bootstrapNodes", out.peers);
  return out;
}

TEST_CASE("bootstrap peers are read in both shapes, IPv6 included", "[unit]") {
  const Read read = ReadList(
      "bootstrapNodes:\n"
      "  - 10.0.0.1:6881\n"
      "  - {host: seed.example.org, port: 4222}\n"
      "  - {host: \"2001:db8::1\", port: 6881}\n");
  CHECK(read.errors.empty());
  REQUIRE(read.peers.size() == 3);
  CHECK(read.peers[0].ToString() == "10.0.0.1:6881");
  CHECK(read.peers[1].ToString() == "seed.example.org:4222");
  CHECK(read.peers[2].ToString() == "[2001:db8::1]:6881");
}

TEST_CASE("each bad bootstrap entry is reported at its own path", "[unit]") {
  const Read read = ReadList(
      "bootstrapNodes:\n"
      "  - {host: a.example}\n"
      "  - {port: 1}\n"
      "  - [1, 2]\n"
      "  - 10.0.0.1:6881\n");
  REQUIRE(read.errors.size() == 3);
  CHECK_THAT(read.errors[0], Catch::StartsWith("dht.bootstrapNodes[0].port: required"));
  CHECK_THAT(read.errors[1], Catch::StartsWith("dht.bootstrapNodes[1].host: required"));
  CHECK_THAT(read.errors[2],
             Catch::StartsWith("dht.bootstrapNodes[2]: expected {host, port} or 'host:port'"));
  REQUIRE(read.peers.size() == 1);  // the good entry is still read
}

TEST_CASE("a bootstrap list that is not a list, or too long, keeps the base list", "[unit]") {
  const std::vector<transport::HostPort> base = {*transport::HostPort::Parse("10.9.9.9:1")};
  const Read scalar = ReadList("bootstrapNodes: 7\n", base);
  REQUIRE(scalar.errors.size() == 1);
  CHECK_THAT(scalar.errors[0], Catch::Contains("expected a list of {host, port}"));
  CHECK(scalar.peers.size() == 1);
  std::string yaml = "bootstrapNodes:\n";
  for (size_t i = 0; i <= kBootstrapNodesMax; ++i) yaml += "  - 10.0.0.1:6881\n";
  const Read many = ReadList(yaml, base);
  REQUIRE(many.errors.size() == 1);
  CHECK_THAT(many.errors[0], Catch::Contains("at most " + std::to_string(kBootstrapNodesMax)));
  CHECK(many.peers.size() == 1);
  CHECK(ReadList("bootstrapNodes: null\n", base).peers.size() == 1);
  CHECK(ReadList("other: 1\n", base).peers.size() == 1);
}

TEST_CASE("bad bootstrap peers are refused with the entry's index and field", "[unit]") {
  CHECK_THAT(ErrorOf("discovery:\n  dht:\n    bootstrapNodes:\n      - {host: a.example, port: "
                     "1}\n      - {host: 'bad host', port: 6881}\n"),
             Contains("discovery.dht.bootstrapNodes[1].host: 'bad host:6881': 'bad host' is "
                      "neither an address nor a valid host name"));
  CHECK_THAT(
      ErrorOf("discovery:\n  dht:\n    bootstrapNodes:\n      - {host: a.example, port: 0}\n"),
      Contains("discovery.dht.bootstrapNodes[0].port: must be between 1 and 65535, got 0"));
  CHECK_THAT(ErrorOf("discovery:\n  dht:\n    bootstrapNodes:\n      - {port: 6881}\n"),
             Contains("discovery.dht.bootstrapNodes[0].host: required"));
  CHECK_THAT(ErrorOf("discovery:\n  dht:\n    bootstrapNodes:\n      - {host: a.example}\n"),
             Contains("discovery.dht.bootstrapNodes[0].port: required"));
  CHECK_THAT(ErrorOf("discovery:\n  dht:\n    bootstrapNodes:\n      - {host: a, port: 1, x: 2}\n"),
             Contains("discovery.dht.bootstrapNodes[0].x: unknown key"));
  CHECK_THAT(ErrorOf("discovery:\n  dht:\n    bootstrapNodes: ['a.example:99999']\n"),
             Contains("discovery.dht.bootstrapNodes[0]: "));
  CHECK_THAT(ErrorOf("discovery:\n  dht:\n    bootstrapNodes: [[1]]\n"),
             Contains("discovery.dht.bootstrapNodes[0]: expected {host, port} or 'host:port', "
                      "got a list"));
}

TEST_CASE("bootstrap peers may be names, IPv4, IPv6, in map or host:port form", "[unit]") {
  auto config = ParseConfig(R"(
discovery:
  dht:
    bootstrapNodes:
      - {host: dht1.example.net, port: 6881}
      - {host: "::1", port: 6882}
      - 10.0.0.1:6883
      - "[2001:db8::1]:6884"
)");
  REQUIRE(config);
  const auto& peers = config->discovery.dht.bootstrap_nodes;
  REQUIRE(peers.size() == 4);
  CHECK(peers[0].ToString() == "dht1.example.net:6881");
  CHECK(peers[1].ToString() == "[::1]:6882");
  CHECK(peers[2].AsEndpoint()->ToString() == "10.0.0.1:6883");
  CHECK(peers[3].ToString() == "[2001:db8::1]:6884");
}

}  // namespace
}  // namespace skillnode::node::config
