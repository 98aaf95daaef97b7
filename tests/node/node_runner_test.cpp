// BuildConfig: how `run`'s flags override the configuration file.
#include "node/node_runner.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "support/temp_dir.h"

namespace skillnode::node {
namespace {

using Catch::Contains;

const char* HomeOnly(const char* name) { return std::string(name) == "HOME" ? "/home/u" : nullptr; }

TEST_CASE("command-line flags override the file and are checked like it", "[unit]") {
  testing::TempDir dir;
  const std::string file = dir.File("config.yaml");
  std::ofstream(file) << "node:\n  port: 7000\n  dataDir: ~/sn\ndiscovery:\n  dht:\n"
                         "    bootstrapNodes: [a.example:1]\n";
  RunFlags flags;
  auto from_file = BuildConfig(file, flags, &HomeOnly);
  REQUIRE(from_file);
  CHECK(from_file->node.port == 7000);
  CHECK(from_file->node.data_dir == "/home/u/sn");
  flags.port = 7001;
  flags.http = "0.0.0.0:9000";
  flags.bootstrap = {"b.example:2", "[::1]:3"};
  flags.network_id = 9;
  flags.log_level = "warn";
  flags.log_format = "json";
  flags.data_dir = "/tmp/x";
  auto config = BuildConfig(file, flags, &HomeOnly);
  REQUIRE(config);
  CHECK(config->node.port == 7001);
  CHECK(config->node.http.listen.ToString() == "0.0.0.0:9000");
  REQUIRE(config->discovery.dht.bootstrap_nodes.size() == 2);  // replaced, not appended
  CHECK(config->discovery.dht.bootstrap_nodes[1].ToString() == "[::1]:3");
  CHECK(config->node.network_id == 9);
  CHECK(config->node.log.level == transport::LogLevel::kWarn);
  CHECK(config->node.log.format == config::LogFormat::kJson);
  CHECK(config->node.data_dir == "/tmp/x");

  flags.http = "nowhere";
  flags.bootstrap = {"bad host:1"};
  auto bad = BuildConfig(file, flags, &HomeOnly);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == transport::ErrorCode::kInvalidArgument);
  CHECK_THAT(bad.error().message, Contains("--http: expected ADDRESS:PORT"));
  CHECK_THAT(bad.error().message, Contains("--bootstrap: expected HOST:PORT"));
}

}  // namespace
}  // namespace skillnode::node
