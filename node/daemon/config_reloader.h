// ConfigReloader: SIGHUP's configuration reload (`systemctl reload skillnode`). Owned by the
// Daemon, which hands it the running configuration; node/service/config_reload.h lists what can
// change while running.
//
// Reload() reads the configuration source again (the file and the flags). A configuration that
// does not parse, or that a part cannot take (a key file that cannot be read), is refused with
// its error and the running one stays. Otherwise every part applies its share (AddStep: every
// step checks first, and only when all accepted does any apply), one log line per key reloaded
// and per section that waits for a restart. Loop thread only.
#ifndef SKILLNODE_NODE_DAEMON_CONFIG_RELOADER_H_
#define SKILLNODE_NODE_DAEMON_CONFIG_RELOADER_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "node/config/config.h"
#include "node/http/prometheus.h"
#include "transport/logger.h"
#include "transport/result.h"

namespace skillnode::node::daemon {

// Builds the configuration anew (the file and the flags), for a reload.
using ConfigSource = std::function<transport::Result<config::Config>()>;
// A part's share of a reload: checks and reads what it needs from `next` and returns what
// applies it (empty: nothing of its own changed), or an error that refuses the whole reload.
using ReloadApply = std::function<void()>;
using ReloadStep = std::function<transport::Result<ReloadApply>(const config::Config& running,
                                                                const config::Config& next)>;

class ConfigReloader {
 public:
  enum class Outcome { kNoSource, kRefused, kApplied };

  explicit ConfigReloader(transport::Logger& logger) : logger_(logger) {}
  ConfigReloader(const ConfigReloader&) = delete;
  ConfigReloader& operator=(const ConfigReloader&) = delete;

  // Where a reload reads the configuration; without one, Reload only logs that it cannot.
  void SetSource(ConfigSource source) { source_ = std::move(source); }
  void AddStep(ReloadStep step) { steps_.push_back(std::move(step)); }
  bool has_source() const { return static_cast<bool>(source_); }

  // Reads the configuration again; when every step accepts it, applies every step's share and
  // sets `running` to what the node runs on now (node/service/config_reload.h, PlanReload).
  Outcome Reload(config::Config& running);

  uint64_t applied() const { return applied_; }
  uint64_t refused() const { return refused_; }
  // skillnode_config_reloads_total{outcome="applied"|"refused"}.
  void WriteMetrics(http::PrometheusWriter& out) const;

 private:
  Outcome Refuse(const std::string& why);

  transport::Logger& logger_;
  ConfigSource source_;
  std::vector<ReloadStep> steps_;
  uint64_t applied_ = 0;
  uint64_t refused_ = 0;
};

}  // namespace skillnode::node::daemon

#endif  // SKILLNODE_NODE_DAEMON_CONFIG_RELOADER_H_
