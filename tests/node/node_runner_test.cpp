// RunNode and BuildConfig without a loop: how `run`'s options become the configuration (flags
// over the file, the cross-key checks, the data directory), what --check-config prints, and the
// exit status of a configuration that is refused before any part of the node is made.
#include "node/node_runner.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "support/temp_dir.h"

namespace skillnode::node {
namespace {

using Catch::Contains;
using Catch::StartsWith;

// What the code under test writes to `stream` (std::cout or std::cerr) while this is alive.
class Captured {
 public:
  explicit Captured(std::ostream& stream) : stream_(stream), saved_(stream.rdbuf(text_.rdbuf())) {}
  Captured(const Captured&) = delete;
  Captured& operator=(const Captured&) = delete;
  ~Captured() { stream_.rdbuf(saved_); }

  std::string Text() const { return text_.str(); }

 private:
  std::ostream& stream_;
  std::ostringstream text_;
  std::streambuf* saved_;
};

const char* HomeOnly(const char* name) { return std::string(name) == "HOME" ? "/home/u" : nullptr; }
const char* NoEnvironment(const char*) { return nullptr; }

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

TEST_CASE("the LAN flags turn the LAN off or replace its interfaces and port", "[unit]") {
  RunFlags flags;
  auto defaults = BuildConfig("", flags, &HomeOnly);
  REQUIRE(defaults);
  CHECK(defaults->discovery.udp.enabled);
  CHECK(defaults->discovery.udp.interfaces.empty());

  flags.no_lan = true;
  flags.lan_interfaces = {"eth0", "10.0.0.2"};
  flags.lan_port = 5454;
  auto config = BuildConfig("", flags, &HomeOnly);
  REQUIRE(config);
  CHECK_FALSE(config->discovery.udp.enabled);
  CHECK_FALSE(config->discovery.mdns.enabled);
  CHECK(config->discovery.udp.interfaces == std::vector<std::string>{"eth0", "10.0.0.2"});
  CHECK(config->discovery.udp.port == 5454);
}

TEST_CASE("--no-port-mapping turns the router's port mapping off", "[unit]") {
  RunFlags flags;
  auto defaults = BuildConfig("", flags, &HomeOnly);
  REQUIRE(defaults);
  CHECK(defaults->discovery.dht.port_mapping);
  flags.no_port_mapping = true;
  auto config = BuildConfig("", flags, &HomeOnly);
  REQUIRE(config);
  CHECK_FALSE(config->discovery.dht.port_mapping);
  // The LAN flags leave it alone.
  RunFlags no_lan;
  no_lan.no_lan = true;
  auto lan_off = BuildConfig("", no_lan, &HomeOnly);
  REQUIRE(lan_off);
  CHECK(lan_off->discovery.dht.port_mapping);
}

TEST_CASE(
    "without a file the flags apply to the embedded defaults and the data directory "
    "follows the environment",
    "[unit]") {
  RunFlags flags;
  auto config = BuildConfig("", flags, &HomeOnly);
  REQUIRE(config);
  CHECK(config->node.port == 6881);
  CHECK(config->node.http.listen.ToString() == "127.0.0.1:7070");
  CHECK(config->node.data_dir == "/home/u/.local/share/skillnode");

  auto homeless = BuildConfig("", flags, &NoEnvironment);
  REQUIRE_FALSE(homeless);
  CHECK(homeless.error().message ==
        "node.dataDir: not set, and neither XDG_DATA_HOME nor HOME gives a default");
  flags.data_dir = "~/sn";  // "~" without HOME stays as given
  auto given = BuildConfig("", flags, &NoEnvironment);
  REQUIRE(given);
  CHECK(given->node.data_dir == "~/sn");
}

TEST_CASE("the flags' problems come first, then the cross-key checks', one per line", "[unit]") {
  testing::TempDir dir;
  const std::string file = dir.File("center.yaml");
  std::ofstream(file) << "discovery:\n  skillCenter:\n    enabled: true\n";
  RunFlags flags;
  flags.http = "nowhere";
  auto bad = BuildConfig(file, flags, &HomeOnly);
  REQUIRE_FALSE(bad);
  const std::string& message = bad.error().message;
  const size_t newline = message.find('\n');
  REQUIRE(newline != std::string::npos);
  CHECK_THAT(message.substr(0, newline), StartsWith("--http: expected ADDRESS:PORT"));
  CHECK(message.substr(newline + 1) ==
        "discovery.skillCenter.url: required when discovery.skillCenter.enabled");
}

TEST_CASE("--check-config prints that a valid file is valid and exits 0", "[unit]") {
  testing::TempDir dir;
  const std::string file = dir.File("good.yaml");
  std::ofstream(file) << "node:\n  port: 7000\n";
  RunOptions options;
  options.check_file = file;
  options.flags.data_dir = dir.File("data");
  Captured out(std::cout);
  Captured err(std::cerr);
  CHECK(RunNode(options) == 0);
  CHECK(out.Text() == file + ": configuration is valid\n");
  CHECK(err.Text().empty());
  CHECK_FALSE(std::filesystem::exists(dir.File("data")));  // checked, not started
}

TEST_CASE("--check-config lists every problem of the file with the flags applied and exits 2",
          "[unit]") {
  testing::TempDir dir;
  const std::string file = dir.File("bad.yaml");
  std::ofstream(file) << "discovery:\n  skillCenter:\n    enabled: true\n";
  RunOptions options;
  options.config_file = dir.File("ignored.yaml");  // --check-config reads only its own file
  options.check_file = file;
  options.flags.http = "nowhere";
  Captured out(std::cout);
  Captured err(std::cerr);
  CHECK(RunNode(options) == 2);
  CHECK(out.Text().empty());
  CHECK_THAT(err.Text(), StartsWith("skillnode: invalid configuration in " + file +
                                    ":\n  --http: expected ADDRESS:PORT"));
  CHECK_THAT(err.Text(), Contains("\n  discovery.skillCenter.url: required when "
                                  "discovery.skillCenter.enabled\n"));
}

TEST_CASE("run refuses an invalid configuration with status 2 before it makes any part", "[unit]") {
  testing::TempDir dir;
  RunOptions options;
  options.flags.data_dir = dir.File("data");
  Captured out(std::cout);
  Captured err(std::cerr);
  SECTION("a bad flag on the embedded defaults names no file") {
    options.flags.bootstrap = {"bad host:1"};
    CHECK(RunNode(options) == 2);
    CHECK_THAT(err.Text(),
               StartsWith("skillnode: invalid configuration:\n  --bootstrap: expected HOST:PORT"));
  }
  SECTION("a missing file is named") {
    options.config_file = dir.File("missing.yaml");
    CHECK(RunNode(options) == 2);
    CHECK_THAT(err.Text(),
               StartsWith("skillnode: invalid configuration in " + options.config_file + ":\n  "));
    CHECK_THAT(err.Text(), Contains("missing.yaml does not exist"));
  }
  CHECK(out.Text().empty());
  CHECK_FALSE(std::filesystem::exists(dir.File("data")));  // no identity, no saved state
}

}  // namespace
}  // namespace skillnode::node
