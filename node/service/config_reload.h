// Configuration reload (SIGHUP, `systemctl reload skillnode`): which changes the running node
// takes, and which wait for a restart.
//
// Taken at once (each by the part that owns it, through Daemon::AddReloadStep):
//   node.log.level                 the logger's level
//   node.auth.tokensFile           the HTTP API's token file (read again)
//   node.https certificate         certFile and keyFile: read again at every reload, changed
//                                  or not (renewals rewrite them); open connections keep theirs
//   discovery.dht.bootstrapNodes   the bootstrap peers (a node with no contacts tries them now)
//   discovery.skillCenter          url, token, CA file, timeouts, back-off and cache settings
//                                  (not `enabled`, which adds or removes the stage)
//   security (LAN signatures)      mode, shared key, trusted roots, certificate, key, replay
//                                  window (certificates learned under the old roots are
//                                  forgotten)
// Everything else (ports, listeners, the data directory, the Kademlia parameters, ...) is
// reported by its section, "node.http", and takes effect at the next restart.
#ifndef SKILLNODE_NODE_SERVICE_CONFIG_RELOAD_H_
#define SKILLNODE_NODE_SERVICE_CONFIG_RELOAD_H_

#include <string>
#include <vector>

#include "node/config/config.h"

namespace skillnode::node::service {

struct ReloadPlan {
  // Reloadable keys whose value changed, by the names above.
  std::vector<std::string> applied;
  // Sections (or keys) that changed but take effect only at a restart.
  std::vector<std::string> restart;
  // The configuration the node runs on after the reload: `running` with the applied keys
  // taken from `next`.
  config::Config merged;

  bool empty() const { return applied.empty() && restart.empty(); }
};

[[nodiscard]] ReloadPlan PlanReload(const config::Config& running, const config::Config& next);

// The LAN signature settings of `security` (what a reload gives the LAN authenticator).
bool SameLanSecurity(const config::SecurityConfig& a, const config::SecurityConfig& b);
// discovery.skillCenter apart from `enabled`.
bool SameSkillCenterSettings(const config::SkillCenterConfig& a,
                             const config::SkillCenterConfig& b);

}  // namespace skillnode::node::service

#endif  // SKILLNODE_NODE_SERVICE_CONFIG_RELOAD_H_
