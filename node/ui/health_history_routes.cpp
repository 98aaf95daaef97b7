#include "node/ui/health_history_routes.h"

#include "node/wall_clock.h"

namespace skillnode::node::ui {

HealthHistoryRoutes::HealthHistoryRoutes(Daemon& daemon, SkillService& skills)
    : history_(daemon.config().node.ui.health_history_max,
               daemon.config().node.ui.health_history_skills_max) {
  skills.registry().AddObserver(
      [this](const discovery::RegistryEvent& event) { history_.Record(event, WallClockMs()); });
  daemon.router().Add("GET", "/api/skills/{id}/health-history",
                      [this](const http::HttpRequest& request, http::Responder r) {
                        const auto agent = request.Query("agentId");
                        if (!agent || agent->empty()) {
                          return r.Error(400, "BAD_REQUEST",
                                         "query parameter 'agentId' is required",
                                         {{"field", "agentId"}});
                        }
                        nlohmann::json found = history_.For(*agent, *request.Param("id"));
                        if (found.is_null()) {
                          return r.Error(404, "DISC_002",
                                         "no health history of skill " + *request.Param("id") +
                                             " of agent " + *agent + " on this node",
                                         {{"skillId", *request.Param("id")}, {"agentId", *agent}});
                        }
                        r.Json(200, found);
                      });
  daemon.AddNodeInfo("healthHistory", [this] {
    return nlohmann::json{{"skills", history_.skills()}};
  });
}

}  // namespace skillnode::node::ui
