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
  const Config &d = *documented;
  CHECK(d.node.port == defaults.node.port);
  CHECK(d.node.bind_ipv4 == defaults.node.bind_ipv4);
  CHECK(d.node.bind_ipv6 == defaults.node.bind_ipv6);
  CHECK(d.node.network_id == defaults.node.network_id);
  CHECK(d.node.data_dir == defaults.node.data_dir);
  CHECK(d.node.state_save_interval == defaults.node.state_save_interval);
  CHECK(d.node.log.level == defaults.node.log.level);
  CHECK(d.node.log.format == defaults.node.log.format);
  const auto &h = d.node.http, &dh = defaults.node.http;
  CHECK(h.listen == dh.listen);
  CHECK(h.connections_max == dh.connections_max);
  CHECK(h.header_bytes_max == dh.header_bytes_max);
  CHECK(h.body_bytes_max == dh.body_bytes_max);
  CHECK(h.idle_timeout == dh.idle_timeout);
  CHECK(h.request_timeout == dh.request_timeout);
  CHECK(h.response_timeout == dh.response_timeout);
  CHECK(d.node.bootstrap.retry_initial == defaults.node.bootstrap.retry_initial);
  CHECK(d.node.bootstrap.retry_max == defaults.node.bootstrap.retry_max);
  CHECK(d.node.auth.tokens_file == defaults.node.auth.tokens_file);
  CHECK(d.node.auth.failures_per_minute == defaults.node.auth.failures_per_minute);
  CHECK(d.node.auth.failure_sources_max == defaults.node.auth.failure_sources_max);
  CHECK(d.node.skills.store_bytes_max == defaults.node.skills.store_bytes_max);
  const auto &m = d.node.mcp, &dm = defaults.node.mcp;
  CHECK(m.enabled == dm.enabled);
  CHECK(m.sessions_max == dm.sessions_max);
  CHECK(m.session_idle_timeout == dm.session_idle_timeout);
  CHECK(m.body_bytes_max == dm.body_bytes_max);
  CHECK(m.allowed_origins == dm.allowed_origins);
  const auto &k = d.node.kademlia, &dk = defaults.node.kademlia;
  CHECK(k.routing.bucket_size == dk.routing.bucket_size);
  CHECK(k.alpha == dk.alpha);
  CHECK(k.disjoint_paths == dk.disjoint_paths);
  CHECK(k.lookup_slow_retries == dk.lookup_slow_retries);
  CHECK(k.lookup_final_round == dk.lookup_final_round);
  CHECK(k.routing.proximity_ratio == dk.routing.proximity_ratio);
  CHECK(k.rpc_timeout == dk.rpc_timeout);
  CHECK(k.rpc_timeout_min == dk.rpc_timeout_min);
  CHECK(k.peer_soft_deadlines == dk.peer_soft_deadlines);
  CHECK(k.routing.stale_failures_max == dk.routing.stale_failures_max);
  CHECK(k.routing.bucket_refresh_interval == dk.routing.bucket_refresh_interval);
  CHECK(k.rate_limit.per_ip_rate == dk.rate_limit.per_ip_rate);
  CHECK(k.rate_limit.per_ip_burst == dk.rate_limit.per_ip_burst);
  CHECK(k.rate_limit.global_rate == dk.rate_limit.global_rate);
  CHECK(k.rate_limit.global_burst == dk.rate_limit.global_burst);
  const auto &v = d.discovery, &dv = defaults.discovery;
  CHECK(v.udp.enabled == dv.udp.enabled);
  CHECK(v.udp.multicast_group == dv.udp.multicast_group);
  CHECK(v.udp.port == dv.udp.port);
  CHECK(v.udp.broadcast_interval == dv.udp.broadcast_interval);
  CHECK(v.udp.timeout == dv.udp.timeout);
  CHECK(v.udp.interfaces == dv.udp.interfaces);
  CHECK(v.udp.discover_window == dv.udp.discover_window);
  CHECK(v.udp.table_max == dv.udp.table_max);
  CHECK(v.udp.per_source_rate == dv.udp.per_source_rate);
  CHECK(v.udp.per_source_burst == dv.udp.per_source_burst);
  CHECK(v.mdns.enabled == dv.mdns.enabled);
  CHECK(v.dht.enabled == dv.dht.enabled);
  CHECK(v.dht.bootstrap_nodes == dv.dht.bootstrap_nodes);
  CHECK(v.dht.replication_factor == dv.dht.replication_factor);
  CHECK(v.skill_center.enabled == dv.skill_center.enabled);
  CHECK(v.skill_center.url == dv.skill_center.url);
  CHECK(v.skill_center.timeout == dv.skill_center.timeout);
  CHECK(v.skill_center.cache_enabled == dv.skill_center.cache_enabled);
  CHECK(v.skill_center.cache_ttl == dv.skill_center.cache_ttl);
  CHECK(v.skill_center.ca_file == dv.skill_center.ca_file);
  CHECK(v.skill_center.token == dv.skill_center.token);
  CHECK(v.skill_center.token_file == dv.skill_center.token_file);
  CHECK(v.skill_center.response_bytes_max == dv.skill_center.response_bytes_max);
  CHECK(v.skill_center.backoff_initial == dv.skill_center.backoff_initial);
  CHECK(v.skill_center.backoff_max == dv.skill_center.backoff_max);
  CHECK(v.health_check.heartbeat_interval == dv.health_check.heartbeat_interval);
  CHECK(v.health_check.timeout == dv.health_check.timeout);
  CHECK(v.health_check.retry_count == dv.health_check.retry_count);
  CHECK(v.health_check.unhealthy_threshold == dv.health_check.unhealthy_threshold);
  CHECK(v.cache.enabled == dv.cache.enabled);
  CHECK(v.cache.ttl == dv.cache.ttl);
  CHECK(v.cache.size_max == dv.cache.size_max);
  CHECK(v.cache.refresh_before_expiry == dv.cache.refresh_before_expiry);
  const auto &sec = d.security, &dsec = defaults.security;
  CHECK(sec.mode == dsec.mode);
  CHECK(sec.shared_key == dsec.shared_key);
  CHECK(sec.shared_key_file == dsec.shared_key_file);
  CHECK(sec.trusted_roots == dsec.trusted_roots);
  CHECK(sec.certificate == dsec.certificate);
  CHECK(sec.private_key == dsec.private_key);
  CHECK(sec.replay_window == dsec.replay_window);
  CHECK(sec.identity_certificate == dsec.identity_certificate);
  CHECK(sec.require_certified_publishers == dsec.require_certified_publishers);
  CHECK(d.provider.name == defaults.provider.name);
  CHECK(d.provider.url == defaults.provider.url);
  CHECK(d.provider.card_max_age == defaults.provider.card_max_age);
  CHECK(CrossCheck(d).empty());
}

}  // namespace
}  // namespace skillnode::node::config
