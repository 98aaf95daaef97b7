// HealthHistoryRoutes: GET /api/skills/{id}/health-history?agentId=A, the last health
// transitions of a skill registered with this node (health_history.h), for the web console's
// skill page. 404 DISC_002 when none are recorded (another node's skill, a private one, or one
// forgotten past node.ui.healthHistorySkills); 400 without agentId. Added only when
// node.ui.enabled. Loop thread only.
#ifndef SKILLNODE_NODE_UI_HEALTH_HISTORY_ROUTES_H_
#define SKILLNODE_NODE_UI_HEALTH_HISTORY_ROUTES_H_

#include "node/daemon.h"
#include "node/skill_service.h"
#include "node/ui/health_history.h"

namespace skillnode::node::ui {

class HealthHistoryRoutes {
 public:
  // Observes `skills`' registry and adds the route to `daemon`'s router; both must outlive it.
  HealthHistoryRoutes(Daemon& daemon, SkillService& skills);
  HealthHistoryRoutes(const HealthHistoryRoutes&) = delete;
  HealthHistoryRoutes& operator=(const HealthHistoryRoutes&) = delete;

 private:
  HealthHistory history_;
};

}  // namespace skillnode::node::ui

#endif  // SKILLNODE_NODE_UI_HEALTH_HISTORY_ROUTES_H_
