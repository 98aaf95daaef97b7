#include "node/service/config_reload.h"

#include <utility>

namespace skillnode::node::service {

bool SameLanSecurity(const config::SecurityConfig& a, const config::SecurityConfig& b) {
  return a.mode == b.mode && a.shared_key == b.shared_key &&
         a.shared_key_file == b.shared_key_file && a.trusted_roots == b.trusted_roots &&
         a.certificate == b.certificate && a.private_key == b.private_key &&
         a.replay_window == b.replay_window;
}

bool SameSkillCenterSettings(const config::SkillCenterConfig& a,
                             const config::SkillCenterConfig& b) {
  config::SkillCenterConfig a_enabled = a;
  a_enabled.enabled = b.enabled;
  return a_enabled == b;
}

ReloadPlan PlanReload(const config::Config& running, const config::Config& next) {
  ReloadPlan plan;
  plan.merged = running;
  config::Config& merged = plan.merged;
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
  if (next.node.https.cert_file != running.node.https.cert_file ||
      next.node.https.key_file != running.node.https.key_file) {
    plan.applied.push_back("node.https.certFile/keyFile");
    merged.node.https.cert_file = next.node.https.cert_file;
    merged.node.https.key_file = next.node.https.key_file;
  }
  if (!SameSkillCenterSettings(next.discovery.skill_center, running.discovery.skill_center)) {
    plan.applied.push_back("discovery.skillCenter");
    const bool enabled = merged.discovery.skill_center.enabled;
    merged.discovery.skill_center = next.discovery.skill_center;
    merged.discovery.skill_center.enabled = enabled;
  }
  if (!SameLanSecurity(next.security, running.security)) {
    plan.applied.push_back("security (LAN signatures)");
    const config::SecurityConfig kept = merged.security;
    merged.security = next.security;
    merged.security.identity_certificate = kept.identity_certificate;
    merged.security.require_certified_publishers = kept.require_certified_publishers;
  }

  // What is left differs only where a restart is needed: compare `next` with the applied keys
  // taken back out, section by section.
  const config::Config& m = merged;
  const config::Config& n = next;
  const auto restart_if_changed = [&plan](const char* section, const auto& a, const auto& b) {
    if (!(a == b)) plan.restart.push_back(section);
  };
  restart_if_changed("node.port", m.node.port, n.node.port);
  restart_if_changed("node.bindIPv4", m.node.bind_ipv4, n.node.bind_ipv4);
  restart_if_changed("node.bindIPv6", m.node.bind_ipv6, n.node.bind_ipv6);
  restart_if_changed("node.networkId", m.node.network_id, n.node.network_id);
  restart_if_changed("node.dataDir", m.node.data_dir, n.node.data_dir);
  restart_if_changed("node.stateSaveInterval", m.node.state_save_interval,
                     n.node.state_save_interval);
  restart_if_changed("node.log.format", m.node.log.format, n.node.log.format);
  restart_if_changed("node.http", m.node.http, n.node.http);
  restart_if_changed("node.https", m.node.https, n.node.https);  // certificates merged
  restart_if_changed("node.bootstrap", m.node.bootstrap, n.node.bootstrap);
  restart_if_changed("node.auth", m.node.auth, n.node.auth);  // tokens_file is merged already
  restart_if_changed("node.skills", m.node.skills, n.node.skills);
  restart_if_changed("node.mcp", m.node.mcp, n.node.mcp);
  restart_if_changed("node.ui", m.node.ui, n.node.ui);
  restart_if_changed("node.kademlia", m.node.kademlia, n.node.kademlia);
  restart_if_changed("discovery.udp", m.discovery.udp, n.discovery.udp);
  restart_if_changed("discovery.mdns", m.discovery.mdns, n.discovery.mdns);
  restart_if_changed("discovery.dht", m.discovery.dht, n.discovery.dht);  // peers merged
  restart_if_changed("discovery.skillCenter.enabled", m.discovery.skill_center.enabled,
                     n.discovery.skill_center.enabled);
  restart_if_changed("discovery.healthCheck", m.discovery.health_check, n.discovery.health_check);
  restart_if_changed("discovery.cache", m.discovery.cache, n.discovery.cache);
  restart_if_changed("security.identityCertificate", m.security.identity_certificate,
                     n.security.identity_certificate);
  restart_if_changed("security.requireCertifiedPublishers", m.security.require_certified_publishers,
                     n.security.require_certified_publishers);
  restart_if_changed("provider", m.provider, n.provider);
  // The LAN authenticator takes new roots at once; the DHT's certified-publisher policy reads
  // them at start only.
  if (running.security.require_certified_publishers &&
      next.security.trusted_roots != running.security.trusted_roots) {
    plan.restart.push_back("security.trustedRoots (certified publishers)");
  }
  return plan;
}

}  // namespace skillnode::node::service
