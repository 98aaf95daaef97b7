// Reading configuration files: the seed's shape, every kind of bad value named by its path.
#include "node/config/config.h"

#include <catch2/catch.hpp>
#include <iterator>
#include <string>

#include "node/config/config_yaml.h"

namespace skillnode::node::config {
namespace {

using Catch::Contains;

// The error text of a configuration that must be refused.
std::string ErrorOf(const std::string& yaml) {
  auto config = ParseConfig(yaml);
  REQUIRE_FALSE(config);
  return config.error().message;
}

TEST_CASE("an empty configuration file gives the embedded defaults", "[unit]") {
  for (const char* text : {"", "# nothing\n", "node:\ndiscovery:\n"}) {
    auto config = ParseConfig(text);
    REQUIRE(config);
    CHECK(config->node.port == 6881);
    CHECK(config->node.http.listen.ToString() == "127.0.0.1:7070");
    CHECK(config->discovery.dht.enabled);
    CHECK(config->discovery.dht.bootstrap_nodes.empty());
    CHECK(config->discovery.dht.replication_factor == 3);
    CHECK(config->node.kademlia.routing.bucket_size == 20);
    CHECK(config->node.log.level == transport::LogLevel::kInfo);
  }
}

TEST_CASE("the seed's configuration reference (13.2) parses as written", "[unit]") {
  const char* seed = R"(
discovery:
  udp:
    enabled: true
    multicastGroup: 224.0.0.1
    port: 54321
    broadcastInterval: 5000
    timeout: 30000

  dht:
    enabled: true
    bootstrapNodes:
      - host: dht1.ooder.net
        port: 6881
    replicationFactor: 3

  skillCenter:
    enabled: true
    url: https://skillcenter.ooder.net
    timeout: 10000
    cache:
      enabled: true
      ttl: 300000

  healthCheck:
    heartbeatInterval: 5000
    timeout: 30000
    retryCount: 3
    unhealthyThreshold: 3
)";
  auto config = ParseConfig(seed);
  REQUIRE(config);
  REQUIRE(config->discovery.dht.bootstrap_nodes.size() == 1);
  CHECK(config->discovery.dht.bootstrap_nodes[0].ToString() == "dht1.ooder.net:6881");
  CHECK(config->discovery.skill_center.enabled);
  CHECK(config->discovery.skill_center.url == "https://skillcenter.ooder.net");
  CHECK(config->discovery.skill_center.cache_ttl == transport::Millis(300000));
  CHECK(config->discovery.health_check.unhealthy_threshold == 3);
  CHECK(config->discovery.udp.port == 54321);
}

TEST_CASE("the node section sets ports, addresses, logs, limits and kademlia tunables", "[unit]") {
  auto config = ParseConfig(R"(
node:
  port: 7000
  bindIPv4: 127.0.0.1
  bindIPv6: ""
  networkId: 42
  dataDir: /var/lib/skillnode
  stateSaveInterval: 5000
  log: {level: debug, format: json}
  http: {listen: "[::1]:8080", maxConnections: 10, maxHeaderBytes: 2048, maxBodyBytes: 100,
         idleTimeout: 1000, requestTimeout: 500, responseTimeout: 2000}
  bootstrap: {retryInitial: 200, retryMax: 10000}
  kademlia:
    k: 8
    alpha: 4
    disjointPaths: 2
    rpcTimeout: 2000
    rpcTimeoutMin: 50
    staleFailuresMax: 5
    bucketRefreshInterval: 60000
    rateLimit: {perIp: 100.5, perIpBurst: 200, global: 1000, globalBurst: 2000}
discovery:
  dht: {replicationFactor: 8}
)");
  REQUIRE(config);
  const auto& n = config->node;
  CHECK(n.port == 7000);
  CHECK(n.bind_ipv4->ToString() == "127.0.0.1");
  CHECK_FALSE(n.bind_ipv6.has_value());
  CHECK(n.network_id == 42);
  CHECK(n.data_dir == "/var/lib/skillnode");
  CHECK(n.log.level == transport::LogLevel::kDebug);
  CHECK(n.log.format == LogFormat::kJson);
  CHECK(n.http.listen.ToString() == "[::1]:8080");
  CHECK(n.http.connections_max == 10);
  CHECK(n.http.request_timeout == transport::Millis(500));
  CHECK(n.bootstrap.retry_initial == transport::Millis(200));
  CHECK(n.kademlia.routing.bucket_size == 8);
  CHECK(n.kademlia.alpha == 4);
  CHECK(n.kademlia.disjoint_paths == 2);
  CHECK(n.kademlia.rpc_timeout_min == transport::Millis(50));
  CHECK(n.kademlia.routing.stale_failures_max == 5);
  CHECK(n.kademlia.rate_limit.per_ip_rate == 100.5);
  CHECK(CrossCheck(*config).empty());
}

TEST_CASE("the word search's field weights are read, each in its range", "[unit]") {
  auto config = ParseConfig(
      "discovery:\n  search:\n    fieldWeights: {name: 5, description: 0.5, scenes: 0}\n");
  REQUIRE(config);
  const discovery::text::FieldWeights& weights = config->discovery.search.field_weights;
  CHECK(weights.name == 5.0);
  CHECK(weights.description == 0.5);
  CHECK(weights.scenes == 0.0);
  CHECK(weights.capabilities == discovery::text::FieldWeights{}.capabilities);  // kept
  CHECK_THAT(ErrorOf("discovery:\n  search:\n    fieldWeights: {tags: -1}\n"),
             Contains("discovery.search.fieldWeights.tags"));
  CHECK_THAT(ErrorOf("discovery:\n  search:\n    fieldWeights: {title: 2}\n"),
             Contains("discovery.search.fieldWeights.title: unknown key"));
}

TEST_CASE("unknown keys are refused with their path and the keys that are known", "[unit]") {
  CHECK_THAT(
      ErrorOf("discovery:\n  dht:\n    replicationFactr: 3\n"),
      Contains("discovery.dht.replicationFactr: unknown key (expected one of: enabled, "
               "bootstrapNodes, replicationFactor, clockSkew, indexJobsPerSecond, portMapping, "
               "portMappingLifetime) (line 3)"));
  CHECK_THAT(ErrorOf("nodes:\n  port: 1\n"), Contains("nodes: unknown key"));
  CHECK_THAT(ErrorOf("node:\n  http:\n    listne: 1.2.3.4:5\n"),
             Contains("node.http.listne: unknown key"));
  CHECK_THAT(ErrorOf("node:\n  kademlia:\n    rateLimit:\n      perIP: 5\n"),
             Contains("node.kademlia.rateLimit.perIP: unknown key"));
}

TEST_CASE("values of the wrong type are refused with their path", "[unit]") {
  CHECK_THAT(ErrorOf("discovery:\n  dht:\n    replicationFactor: three\n"),
             Contains("discovery.dht.replicationFactor: expected an integer, got 'three'"));
  CHECK_THAT(ErrorOf("discovery:\n  dht:\n    replicationFactor: \"3\"\n"),
             Contains("discovery.dht.replicationFactor: expected an integer, got '3'"));
  CHECK_THAT(ErrorOf("discovery:\n  udp:\n    enabled: yes\n"),
             Contains("discovery.udp.enabled: expected true or false, got 'yes'"));
  CHECK_THAT(ErrorOf("node: [1, 2]\n"), Contains("node: expected a map, got a list"));
  CHECK_THAT(ErrorOf("node:\n  port: {a: 1}\n"),
             Contains("node.port: expected an integer, got a map"));
  CHECK_THAT(ErrorOf("discovery:\n  dht:\n    bootstrapNodes: 5\n"),
             Contains("discovery.dht.bootstrapNodes: expected a list of {host, port}, got '5'"));
  CHECK_THAT(ErrorOf("node:\n  kademlia:\n    rateLimit: {perIp: fast}\n"),
             Contains("node.kademlia.rateLimit.perIp: expected a number, got 'fast'"));
  CHECK_THAT(ErrorOf("node:\n  log: {level: loud}\n"),
             Contains("node.log.level: expected trace, debug, info, warn or error, got 'loud'"));
  CHECK_THAT(ErrorOf("node:\n  log: {format: xml}\n"),
             Contains("node.log.format: expected text or json, got 'xml'"));
  CHECK_THAT(ErrorOf("42\n"), Contains("configuration: expected a map, got '42'"));
}

TEST_CASE("values out of range are refused with the range and the value", "[unit]") {
  CHECK_THAT(ErrorOf("discovery:\n  dht:\n    replicationFactor: 0\n"),
             Contains("discovery.dht.replicationFactor: must be between 1 and 20, got 0"));
  CHECK_THAT(ErrorOf("discovery:\n  dht:\n    replicationFactor: 21\n"),
             Contains("must be between 1 and 20, got 21"));
  CHECK_THAT(ErrorOf("node:\n  port: 70000\n"),
             Contains("node.port: must be between 0 and 65535, got 70000"));
  CHECK_THAT(ErrorOf("node:\n  port: -1\n"), Contains("node.port: must be between 0 and 65535"));
  CHECK_THAT(ErrorOf("node:\n  kademlia: {k: 0}\n"),
             Contains("node.kademlia.k: must be between 1 and 32, got 0"));
  CHECK_THAT(ErrorOf("node:\n  http: {maxConnections: 0}\n"),
             Contains("node.http.maxConnections: must be between 1 and 100000, got 0"));
  CHECK_THAT(ErrorOf("node:\n  networkId: 4294967296\n"),
             Contains("node.networkId: must be between 0 and 4294967295"));
  CHECK_THAT(ErrorOf("node:\n  port: 99999999999999999999999\n"),
             Contains("node.port: expected an integer"));
}

TEST_CASE("provider.domains takes up to 4 provable names, each refused by its entry", "[unit]") {
  auto config = ParseConfig(
      "provider:\n  domains: [pub.example, skills.example.org]\n"
      "  domainProofUrl: \"http://127.0.0.1:9/{domain}/proof\"\n  domainProofTtl: 2000\n");
  REQUIRE(config);
  CHECK(config->provider.domains == std::vector<std::string>{"pub.example", "skills.example.org"});
  CHECK(config->provider.domain_proof_url == "http://127.0.0.1:9/{domain}/proof");
  CHECK(config->provider.domain_proof_ttl == transport::Millis(2000));
  auto defaults = ParseConfig("");
  REQUIRE(defaults);
  CHECK(defaults->provider.domains.empty());
  CHECK(defaults->provider.domain_proof_url == kDomainProofUrlDefault);
  const std::string bad = ErrorOf("provider: {domains: [pub.example, localhost, pub.example]}\n");
  CHECK_THAT(bad, Contains("provider.domains[1]: 'localhost' is not a domain name"));
  CHECK_THAT(bad, Contains("provider.domains[2]: 'pub.example' is listed twice"));
  CHECK_THAT(ErrorOf("provider: {domains: [10.0.0.1]}\n"), Contains("provider.domains[0]: "));
  CHECK_THAT(ErrorOf("provider: {domains: [a.example, b.example, c.example, d.example, "
                     "e.example]}\n"),
             Contains("provider.domains: at most 4 entries, got 5"));
  CHECK_THAT(ErrorOf("provider: {domainProofUrl: \"https://proofs.example/p\"}\n"),
             Contains("provider.domainProofUrl: 'https://proofs.example/p' does not contain "
                      "{domain}"));
  CHECK_THAT(ErrorOf("provider: {domainProofUrl: \"ftp://{domain}/p\"}\n"),
             Contains("provider.domainProofUrl: expected an http:// or https:// URL"));
}

TEST_CASE("provider.cardMaxAge reads milliseconds from none up to a day", "[unit]") {
  auto config = ParseConfig("provider:\n  cardMaxAge: 60000\n");
  REQUIRE(config);
  CHECK(config->provider.card_max_age == transport::Seconds(60));
  auto none = ParseConfig("provider: {cardMaxAge: 0}\n");
  REQUIRE(none);
  CHECK(none->provider.card_max_age == transport::Duration::zero());
  CHECK_THAT(ErrorOf("provider: {cardMaxAge: 86400001}\n"),
             Contains("provider.cardMaxAge: must be between 0 and 86400000"));
}

TEST_CASE("port mapping is on by default, can be turned off, and its lifetime is bounded",
          "[unit]") {
  auto defaults = ParseConfig("");
  REQUIRE(defaults);
  CHECK(defaults->discovery.dht.port_mapping);
  CHECK(defaults->discovery.dht.port_mapping_lifetime == transport::Seconds(3600));
  auto set = ParseConfig("discovery:\n  dht: {portMapping: false, portMappingLifetime: 120000}\n");
  REQUIRE(set);
  CHECK_FALSE(set->discovery.dht.port_mapping);
  CHECK(set->discovery.dht.port_mapping_lifetime == transport::Seconds(120));
  CHECK_THAT(ErrorOf("discovery: {dht: {portMappingLifetime: 119999}}\n"),
             Contains("discovery.dht.portMappingLifetime: must be between 120000 and 86400000, "
                      "got 119999"));
  CHECK_THAT(ErrorOf("discovery: {dht: {portMappingLifetime: 86400001}}\n"),
             Contains("discovery.dht.portMappingLifetime: must be between 120000 and 86400000"));
  CHECK_THAT(ErrorOf("discovery: {dht: {portMapping: maybe}}\n"),
             Contains("discovery.dht.portMapping"));
}

TEST_CASE("every problem in a file is reported at once, one per line", "[unit]") {
  const std::string text =
      ErrorOf("node:\n  port: x\n  colour: red\ndiscovery:\n  dht:\n    replicationFactor: 0\n");
  CHECK_THAT(text, Contains("node.port: expected an integer, got 'x' (line 2)"));
  CHECK_THAT(text, Contains("node.colour: unknown key"));
  CHECK_THAT(text, Contains("discovery.dht.replicationFactor: must be between 1 and 20, got 0 "
                            "(line 6)"));
  CHECK(std::count(text.begin(), text.end(), '\n') == 2);
}

TEST_CASE("malformed YAML and duplicate keys are refused with a line number", "[unit]") {
  CHECK_THAT(ErrorOf("node:\n  port: [1, 2\n"), Contains("line "));
  CHECK_THAT(ErrorOf("node:\n  port: 1\n  port: 2\n"), Contains("line 3: duplicate key 'port'"));
}

TEST_CASE("bind addresses must match their family; an empty one turns it off", "[unit]") {
  CHECK_THAT(ErrorOf("node:\n  bindIPv6: 1.2.3.4\n"),
             Contains("node.bindIPv6: expected an IPv6 address or \"\" (off), got '1.2.3.4'"));
  CHECK_THAT(ErrorOf("node:\n  bindIPv4: \"::\"\n"), Contains("node.bindIPv4: expected an IPv4"));
  auto off = ParseConfig("node:\n  bindIPv4: \"\"\n  bindIPv6: \"\"\n");
  REQUIRE(off);
  CHECK_THAT(CrossCheck(*off).at(0), Contains("node.bindIPv4: IPv4 and IPv6 are both off"));
}

TEST_CASE("settings that contradict each other are refused by the cross-checks", "[unit]") {
  auto config = ParseConfig(
      "node:\n  kademlia: {k: 4, rpcTimeout: 100, rpcTimeoutMin: 200}\n"
      "discovery:\n  dht: {replicationFactor: 5}\n  skillCenter: {enabled: true}\n"
      "  cache: {ttl: 1000, refreshBeforeExpiry: 1000}\n");
  REQUIRE(config);
  const auto errors = CrossCheck(*config);
  std::string all;
  for (const auto& e : errors) all += e + "\n";
  CHECK_THAT(all, Contains("discovery.dht.replicationFactor: must not exceed node.kademlia.k (4), "
                           "got 5"));
  CHECK_THAT(all, Contains("node.kademlia.rpcTimeoutMin: must not exceed"));
  CHECK_THAT(all, Contains("discovery.skillCenter.url: required when"));
  CHECK_THAT(all, Contains("discovery.cache.refreshBeforeExpiry: must be less than"));
}

TEST_CASE("import.answerWait follows node.http.responseTimeout and must stay under it", "[unit]") {
  auto defaults = ParseConfig("");
  REQUIRE(defaults);
  CHECK(defaults->import.reports_max == 64);
  CHECK(ImportAnswerWait(*defaults) == transport::Seconds(29));
  auto short_timeout = ParseConfig("node:\n  http: {responseTimeout: 1500}\n");
  REQUIRE(short_timeout);
  CHECK(ImportAnswerWait(*short_timeout) == transport::Millis(750));
  CHECK(CrossCheck(*short_timeout).empty());
  auto set = ParseConfig(
      "node:\n  http: {responseTimeout: 3000}\nimport: {answerWait: 1500, maxReports: 5}\n");
  REQUIRE(set);
  CHECK(ImportAnswerWait(*set) == transport::Millis(1500));
  CHECK(set->import.reports_max == 5);
  CHECK(CrossCheck(*set).empty());
  auto over = ParseConfig("node:\n  http: {responseTimeout: 3000}\nimport: {answerWait: 2500}\n");
  REQUIRE(over);
  REQUIRE(CrossCheck(*over).size() == 1);
  CHECK(CrossCheck(*over)[0] ==
        "import.answerWait: must be at most node.http.responseTimeout less 1000 ms, or half of "
        "it when that is more (2000), got 2500");
  CHECK_THAT(ErrorOf("import: {maxReports: 0}\n"),
             Contains("import.maxReports: must be between 1"));
}

TEST_CASE("the HTTPS listener is off by default and needs a certificate and a key", "[unit]") {
  auto defaults = ParseConfig("");
  REQUIRE(defaults);
  CHECK_FALSE(defaults->node.https.listen);
  CHECK(defaults->node.http.enabled);
  auto config = ParseConfig(
      "node:\n  http: {enabled: false}\n  https: {listen: \"0.0.0.0:7443\", certFile: ~/c.pem, "
      "keyFile: /k.pem, handshakeTimeout: 2500}\n");
  REQUIRE(config);
  REQUIRE(config->node.https.listen);
  CHECK(config->node.https.listen->ToString() == "0.0.0.0:7443");
  CHECK(config->node.https.cert_file == "~/c.pem");
  CHECK(config->node.https.handshake_timeout == transport::Millis(2500));
  CHECK(CrossCheck(*config).empty());
  CHECK_THAT(ErrorOf("node:\n  https: {listen: \"localhost:7443\"}\n"),
             Contains("node.https.listen: expected ADDRESS:PORT"));
  CHECK_THAT(ErrorOf("node:\n  https: {handshakeTimeout: 99999}\n"),
             Contains("node.https.handshakeTimeout"));
  auto incomplete = ParseConfig("node:\n  http: {enabled: false}\n  https: {listen: \"\"}\n");
  REQUIRE(incomplete);
  std::string all;
  for (const auto& e : CrossCheck(*incomplete)) all += e + "\n";
  CHECK_THAT(all, Contains("node.http.enabled: false leaves the node without an API"));
  auto keyless = ParseConfig("node:\n  https: {listen: \"127.0.0.1:7443\", certFile: c.pem}\n");
  REQUIRE(keyless);
  all.clear();
  for (const auto& e : CrossCheck(*keyless)) all += e + "\n";
  CHECK_THAT(all, Contains("node.https.keyFile: required when node.https.listen is set"));
  CHECK_THAT(all, !Contains("certFile"));
}

TEST_CASE("the default data directory follows XDG_DATA_HOME, then HOME", "[unit]") {
  auto env = [](const char* xdg, const char* home) {
    return [xdg, home](const char* name) -> const char* {
      return std::string(name) == "XDG_DATA_HOME" ? xdg
             : std::string(name) == "HOME"        ? home
                                                  : nullptr;
    };
  };
  CHECK(DefaultDataDir(env("/xdg", "/home/u")) == "/xdg/skillnode");
  CHECK(DefaultDataDir(env(nullptr, "/home/u")) == "/home/u/.local/share/skillnode");
  CHECK(DefaultDataDir(env("relative", "/home/u")) == "/home/u/.local/share/skillnode");
  CHECK(DefaultDataDir(env(nullptr, nullptr)).empty());
  CHECK(ExpandHome("~/data", env(nullptr, "/home/u")) == "/home/u/data");
  CHECK(ExpandHome("/abs/~", env(nullptr, "/home/u")) == "/abs/~");
}

TEST_CASE("a missing configuration file is an error that names it", "[unit]") {
  auto config = LoadConfigFile("/nonexistent/skillnode.yaml");
  REQUIRE_FALSE(config);
  CHECK_THAT(config.error().message, Contains("/nonexistent/skillnode.yaml does not exist"));
}

}  // namespace
}  // namespace skillnode::node::config
