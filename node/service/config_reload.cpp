#include "node/service/config_reload.h"

#include <functional>
#include <utility>

namespace skillnode::node {

bool SameLanSecurity(const SecurityConfig& a, const SecurityConfig& b) {
  return a.mode == b.mode && a.shared_key == b.shared_key &&
         a.shared_key_file == b.shared_key_file && a.trusted_roots == b.trusted_roots &&
         a.certificate == b.certificate && a.private_key == b.private_key &&
         a.replay_window == b.replay_window;
}

bool SameSkillCenterSettings(const SkillCenterConfig& a, const SkillCenterConfig& b) {
  SkillCenterConfig a_enabled = a;
  a_enabled.enabled = b.enabled;
  return a_enabled == b;
}

ReloadPlan PlanReload(const Config& running, const Config& next) {
  ReloadPlan plan;
  plan.merged = running;
  Config& merged = plan.merged;
  if (next.node.log.level != running.node.log.level) {
    plan.applied.push_back("node.log.level");
    merged.node.log.level = next.node.log.level;
  }
  if (next.node.auth.tokens_file != running.node.auth.tokens_file) {
    plan.applied.push_back("node.auth.tokensFile");
    merged.node.auth.tokens_file = next.node.auth.tokens_file;
  }
  if (next.discovery.dht.bootstrap_nodes != running.discovery.dht.bootstrap_nodes) {
    plan.applied.push_back("discovery.dht.bootstrapNodes");
    merged.discovery.dht.bootstrap_nodes = next.discovery.dht.bootstrap_nodes;
  }
  if (!SameSkillCenterSettings(next.discovery.skill_center, running.discovery.skill_center)) {
    plan.applied.push_back("discovery.skillCenter");
    const bool enabled = merged.discovery.skill_center.enabled;
    merged.discovery.skill_center = next.discovery.skill_center;
    merged.discovery.skill_center.enabled = enabled;
  }
  if (!SameLanSecurity(next.security, running.security)) {
    plan.applied.push_back("security (LAN signatures)");
    const SecurityConfig kept = merged.security;
    merged.security = next.security;
    merged.security.identity_certificate = kept.identity_certificate;
    merged.security.require_certified_publishers = kept.require_certified_publishers;
  }

  // What is left differs only where a restart is needed: compare `next` with the applied keys
  // taken back out, section by section.
  const Config& n = next;
  const Config& m = merged;
  using Same = std::function<bool(const Config&, const Config&)>;
  const std::pair<const char*, Same> sections[] = {
      {"node.port", [](const Config& a, const Config& b) { return a.node.port == b.node.port; }},
      {"node.bindIPv4",
       [](const Config& a, const Config& b) { return a.node.bind_ipv4 == b.node.bind_ipv4; }},
      {"node.bindIPv6",
       [](const Config& a, const Config& b) { return a.node.bind_ipv6 == b.node.bind_ipv6; }},
      {"node.networkId",
       [](const Config& a, const Config& b) { return a.node.network_id == b.node.network_id; }},
      {"node.dataDir",
       [](const Config& a, const Config& b) { return a.node.data_dir == b.node.data_dir; }},
      {"node.stateSaveInterval",
       [](const Config& a, const Config& b) {
         return a.node.state_save_interval == b.node.state_save_interval;
       }},
      {"node.log.format",
       [](const Config& a, const Config& b) { return a.node.log.format == b.node.log.format; }},
      {"node.http", [](const Config& a, const Config& b) { return a.node.http == b.node.http; }},
      {"node.bootstrap",
       [](const Config& a, const Config& b) { return a.node.bootstrap == b.node.bootstrap; }},
      {"node.auth",
       [](const Config& a, const Config& b) {
         return a.node.auth.failures_per_minute == b.node.auth.failures_per_minute &&
                a.node.auth.failure_sources_max == b.node.auth.failure_sources_max;
       }},
      {"node.skills",
       [](const Config& a, const Config& b) { return a.node.skills == b.node.skills; }},
      {"node.mcp", [](const Config& a, const Config& b) { return a.node.mcp == b.node.mcp; }},
      {"node.kademlia",
       [](const Config& a, const Config& b) { return a.node.kademlia == b.node.kademlia; }},
      {"discovery.udp",
       [](const Config& a, const Config& b) { return a.discovery.udp == b.discovery.udp; }},
      {"discovery.mdns",
       [](const Config& a, const Config& b) { return a.discovery.mdns == b.discovery.mdns; }},
      {"discovery.dht",
       [](const Config& a, const Config& b) {
         return a.discovery.dht.enabled == b.discovery.dht.enabled &&
                a.discovery.dht.replication_factor == b.discovery.dht.replication_factor;
       }},
      {"discovery.skillCenter.enabled",
       [](const Config& a, const Config& b) {
         return a.discovery.skill_center.enabled == b.discovery.skill_center.enabled;
       }},
      {"discovery.healthCheck",
       [](const Config& a, const Config& b) {
         return a.discovery.health_check == b.discovery.health_check;
       }},
      {"discovery.cache",
       [](const Config& a, const Config& b) { return a.discovery.cache == b.discovery.cache; }},
      {"security.identityCertificate",
       [](const Config& a, const Config& b) {
         return a.security.identity_certificate == b.security.identity_certificate;
       }},
      {"security.requireCertifiedPublishers",
       [](const Config& a, const Config& b) {
         return a.security.require_certified_publishers == b.security.require_certified_publishers;
       }},
      {"provider", [](const Config& a, const Config& b) { return a.provider == b.provider; }},
  };
  for (const auto& [name, same] : sections) {
    if (!same(m, n)) plan.restart.push_back(name);
  }
  // The LAN authenticator takes new roots at once; the DHT's certified-publisher policy reads
  // them at start only.
  if (running.security.require_certified_publishers &&
      next.security.trusted_roots != running.security.trusted_roots) {
    plan.restart.push_back("security.trustedRoots (certified publishers)");
  }
  return plan;
}

}  // namespace skillnode::node
