// BootstrapListReader: bootstrap peers as 'host:port' or {host, port}, each problem at its path.
#include "node/config/bootstrap_list_reader.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "node/config/config_yaml.h"

namespace skillnode::node::config {
namespace {

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

}  // namespace
}  // namespace skillnode::node::config
