// GET /api/skills/{id}/replicas[?agentId=A]: where the network holds a skill's signed record,
// found now by a DHT get of the skill's key (SHA256("skill:" + id)) that runs to the end and
// notes which nodes answered with each record's newest version. The web console's skill page
// shows it as "replicas found" and the record's expiry. docs/api.md has the answer's shape.
//
// Private records only with a token (as GET /api/skills/{id}); tombstones are left out. 404
// DISC_002 when no live record is found, 503 DHT_DISABLED without the DHT, 503 BUSY when
// the node already runs its maximum of lookups (KademliaConfig::lookups_max). Loop thread only.
#ifndef SKILLNODE_NODE_API_SKILL_REPLICAS_ROUTES_H_
#define SKILLNODE_NODE_API_SKILL_REPLICAS_ROUTES_H_

#include "node/daemon.h"
#include "node/skill_service.h"

namespace skillnode::node::api {

// Adds the route to `daemon`'s router; `skills` (its authenticator) must outlive the daemon's
// loop.
void AddSkillReplicasRoute(Daemon& daemon, SkillService& skills);

}  // namespace skillnode::node::api

#endif  // SKILLNODE_NODE_API_SKILL_REPLICAS_ROUTES_H_
