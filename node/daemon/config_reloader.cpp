#include "node/daemon/config_reloader.h"

#include <string>
#include <utility>

#include "node/service/config_reload.h"
#include "node/spd_logger.h"

namespace skillnode::node::daemon {

ConfigReloader::Outcome ConfigReloader::Reload(config::Config& running) {
  if (!source_) {
    LogAt(logger_, transport::LogLevel::kWarn,
          "SIGHUP: this node has no configuration source to reload");
    return Outcome::kNoSource;
  }
  auto next = source_();
  if (!next) return Refuse(next.error().message);
  service::ReloadPlan plan = service::PlanReload(running, *next);
  // Every part checks its share first (files read, keys parsed); only then does any apply.
  std::vector<ReloadApply> applies;
  for (const ReloadStep& step : steps_) {
    auto apply = step(running, *next);
    if (!apply) return Refuse(apply.error().message);
    if (*apply) applies.push_back(std::move(*apply));
  }
  for (const ReloadApply& apply : applies) apply();
  running = std::move(plan.merged);
  ++applied_;
  for (const std::string& key : plan.applied) {
    LogAt(logger_, transport::LogLevel::kInfo, "configuration reload: " + key + " reloaded");
  }
  for (const std::string& section : plan.restart) {
    LogAt(logger_, transport::LogLevel::kWarn,
          "configuration reload: " + section + " changed; it needs a restart to take effect");
  }
  if (plan.empty())
    LogAt(logger_, transport::LogLevel::kInfo, "configuration reload: nothing changed");
  return Outcome::kApplied;
}

ConfigReloader::Outcome ConfigReloader::Refuse(const std::string& why) {
  ++refused_;
  LogAt(logger_, transport::LogLevel::kError,
        "configuration reload refused: " + why + "; the running configuration stays");
  return Outcome::kRefused;
}

void ConfigReloader::WriteMetrics(http::PrometheusWriter& out) const {
  out.Family("skillnode_config_reloads_total", "counter",
             "Configuration reloads (SIGHUP): applied, or refused with the running one kept.");
  out.Sample("skillnode_config_reloads_total", {{"outcome", "applied"}},
             static_cast<double>(applied_));
  out.Sample("skillnode_config_reloads_total", {{"outcome", "refused"}},
             static_cast<double>(refused_));
}

}  // namespace skillnode::node::daemon
