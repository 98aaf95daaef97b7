// Daemon::Reload: SIGHUP's configuration reload (node/service/config_reload.h).
#include <utility>
#include <vector>

#include "node/daemon.h"
#include "node/spd_logger.h"

namespace skillnode::node {

void Daemon::Reload() {
  if (!config_source_) {
    LogAt(logger_, LogLevel::kWarn, "SIGHUP: this node has no configuration source to reload");
    return;
  }
  notifier_.Reloading();
  auto refuse = [this](const std::string& why) {
    ++reloads_refused_;
    LogAt(logger_, LogLevel::kError,
          "configuration reload refused: " + why + "; the running configuration stays");
    notifier_.Ready(StatusText());
  };
  auto next = config_source_();
  if (!next) return refuse(next.error().message);
  ReloadPlan plan = PlanReload(config_, *next);
  // Every part checks its share first (files read, keys parsed); only then does any apply.
  std::vector<ReloadApply> applies;
  for (const ReloadStep& step : reload_steps_) {
    auto apply = step(config_, *next);
    if (!apply) return refuse(apply.error().message);
    if (*apply) applies.push_back(std::move(*apply));
  }
  for (const ReloadApply& apply : applies) apply();
  config_ = std::move(plan.merged);
  ++reloads_applied_;
  for (const std::string& key : plan.applied) {
    LogAt(logger_, LogLevel::kInfo, "configuration reload: " + key + " reloaded");
  }
  for (const std::string& section : plan.restart) {
    LogAt(logger_, LogLevel::kWarn,
          "configuration reload: " + section + " changed; it needs a restart to take effect");
  }
  if (plan.empty()) LogAt(logger_, LogLevel::kInfo, "configuration reload: nothing changed");
  notifier_.Ready(StatusText());
}

// The daemon's own share: the bootstrap peers.
ReloadStep Daemon::BootstrapReloadStep() {
  return [this](const Config& running, const Config& next) -> Result<ReloadApply> {
    if (next.discovery.dht.bootstrap_nodes == running.discovery.dht.bootstrap_nodes) {
      return ReloadApply{};
    }
    return ReloadApply([this, peers = next.discovery.dht.bootstrap_nodes] {
      bootstrapper_->SetPeers(Now(), peers);
    });
  };
}

}  // namespace skillnode::node
