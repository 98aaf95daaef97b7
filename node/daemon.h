// Daemon: one running skillnode (`skillnode run`): the libuv Env, the Kademlia node,
// bootstrap and saved state, the HTTP API, and process life.
//
// Create() does everything that can fail at start, and fails with a message that names what
// failed: the data directory (identity, saved contacts), the UDP sockets, the HTTP listener.
// Later parts of the node (the skill store, the registry) attach between Create() and Run()
// through the extension points below, e.g.
//
//   auto daemon = Daemon::Create(config, logger);
//   daemon->router().Add("GET", "/api/skills/{id}", handler);
//   daemon->AddNodeInfo("store", [&] { return store.Summary(); });      // in GET /api/node
//   daemon->AddMetrics([&](PrometheusWriter& out) { store.Write(out); });  // in /metrics
//   daemon->AddShutdownStep("unpublish", [&](auto done) { store.Unpublish(done); });
//   daemon->AddStepper({[&] { return store.NextDeadline(); },
//                       [&](TimePoint now) { store.OnTimer(now); }});
//   return (*daemon)->Run();
//
// Daemon owns the parts and wires them together; each job is a class of its own:
//   node/daemon/state_saver.h       when and what is saved of the routing table
//   node/daemon/shutdown_sequence.h the shutdown's steps, their time budget, then save and close
//   node/daemon/config_reloader.h   SIGHUP's configuration reload (AddReloadStep)
//   node/daemon/https_listener.h    the HTTPS listener and its certificate's reload
//   node/daemon/node_api.h          /health, /api/node, /metrics and /api/dht/*
// With discovery.mdns.enabled the node advertises itself on the LAN through the host's Avahi
// daemon (DNS-SD, node/lan/dns_sd.h), or says in one line that it cannot.
//
// Under a service manager (systemd's Type=notify, node/service/service_notifier.h) the node sends
// READY=1 from Run(), when every socket and listener is bound, a STATUS= line whenever its
// summary changes (checked every kStatusCheckInterval), STOPPING=1 when the shutdown starts,
// RELOADING=1 during a reload, and WATCHDOG=1 from the loop when WatchdogSec= is set.
//
// Shutdown, on the first SIGINT or SIGTERM (or RequestStop()): the HTTP listeners stop
// accepting, then the ShutdownSequence runs (the steps, the save, closing every handle) and the
// loop runs dry. Run() returns 0 when uv_loop_close() returned 0 with no handle left open,
// else 1. A second signal exits at once (status 128 + signal).
#ifndef SKILLNODE_NODE_DAEMON_H_
#define SKILLNODE_NODE_DAEMON_H_

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bootstrap/bootstrapper.h"
#include "kademlia/node.h"
#include "kademlia/store/skill_dht.h"
#include "node/config/config.h"
#include "node/daemon/config_reloader.h"
#include "node/daemon/https_listener.h"
#include "node/daemon/node_api.h"
#include "node/daemon/shutdown_sequence.h"
#include "node/daemon/state_saver.h"
#include "node/http/http_metrics.h"
#include "node/http/http_server.h"
#include "node/http/prometheus.h"
#include "node/http/router.h"
#include "node/lan/dns_sd.h"
#include "node/service/config_reload.h"
#include "node/service/service_notifier.h"
#include "node/state/data_dir.h"
#include "node/ui/ui_routes.h"
#include "transport/uv/uv_env.h"
#include "transport/uv/uv_resolver.h"
#include "transport/uv/uv_signal.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::node {

// DHT listen subscriptions this node may hold: the discovery cache's keys (SearchConfig's
// watched_keys_max, 1,024) plus watch streams.
constexpr size_t kDhtSubscriptionsMax = 2048;
// How often the service status line (STATUS=) is rebuilt; it is sent only when it changed.
constexpr transport::Duration kStatusCheckInterval = transport::Seconds(1);

using StatusPart = std::function<std::string()>;

class Daemon {
 public:
  [[nodiscard]] static transport::Result<std::unique_ptr<Daemon>> Create(
      const config::Config& config, transport::Logger& logger);
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;
  ~Daemon();

  // Runs until shut down; returns the process exit status.
  int Run();
  // Starts the shutdown as SIGTERM would.
  void RequestStop();

  // Extension points, for use between Create() and Run() (or from the loop thread).
  http::Router& router() { return router_; }
  kademlia::Node& node() { return *node_; }
  kademlia::store::SkillDht& dht() { return *dht_; }
  transport::uv::UvEnv& env() { return env_; }
  transport::TimePoint Now() const { return env_.Now(); }
  transport::Logger& logger() { return logger_; }
  const config::Config& config() const { return config_; }
  const kademlia::Identity& identity() const { return node_->identity(); }
  // The node's data directory (node.dataDir, created at Create()).
  const std::string& data_dir_path() const { return data_dir_->path(); }
  // Adds `key` to the GET /api/node object.
  void AddNodeInfo(std::string key, daemon::NodeInfoSection section) {
    api_->AddInfo(std::move(key), std::move(section));
  }
  // Appends families to GET /metrics.
  void AddMetrics(daemon::MetricsSection section) { api_->AddMetrics(std::move(section)); }
  // Appends ", <part>" to the service manager's status line ("3 registered skills").
  void AddStatusPart(StatusPart part) { status_parts_.push_back(std::move(part)); }
  // Runs at shutdown before the node stops; `done` must be called once (late calls are
  // ignored once kShutdownStepsBudget has passed).
  void AddShutdownStep(std::string name, daemon::ShutdownStep step) {
    shutdown_.AddStep(std::move(name), std::move(step));
  }
  void AddStepper(transport::uv::Stepper stepper) { env_.AddStepper(std::move(stepper)); }
  // Where a reload reads the configuration; without one, SIGHUP only logs that it cannot.
  void SetConfigSource(daemon::ConfigSource source) { reloader_.SetSource(std::move(source)); }
  void AddReloadStep(daemon::ReloadStep step) { reloader_.AddStep(std::move(step)); }
  // Reads the configuration again and applies what can change while running (as SIGHUP).
  void Reload();
  // Runs when the daemon closes its handles (after the shutdown steps), so that a part with
  // handles of its own (the LAN sockets) closes them with the rest.
  void AddCloseHook(std::function<void()> hook) { close_hooks_.push_back(std::move(hook)); }
  // Joins the DHT; the LAN adapter hands it the peers it hears.
  bootstrap::Bootstrapper& bootstrapper() { return *bootstrapper_; }

  // The HTTP API's address ("http://127.0.0.1:7070"; the HTTPS one when plain HTTP is off).
  std::string http_url() const { return api_->http_url(); }
  // The HTTPS API's address ("https://0.0.0.0:7443"), or "" without an HTTPS listener.
  std::string https_url() const { return https_.url(); }

 private:
  // kRunning from Run() until the loop ran dry (the shutdown's own states: shutdown_.state()).
  enum class Phase { kCreated, kRunning, kClosed };

  Daemon(const config::Config& config, transport::Logger& logger, uint64_t seed);

  transport::Result<void> Open();
  transport::Result<void> OpenNode(const kademlia::Identity& identity);
  transport::Result<void> WatchSignals();
  void AddSteppers();
  void AddApi();
  // True between Run() and the shutdown's beginning.
  bool running() const { return phase_ == Phase::kRunning && shutdown_.running(); }
  void OnSignal(int signum);
  void BeginShutdown(const std::string& why);
  void CloseHandles();
  void StartDnsSd();
  std::string StatusText() const;
  daemon::ReloadStep BootstrapReloadStep();

  config::Config config_;
  transport::Logger& logger_;
  transport::uv::UvEnv env_;
  transport::uv::UvResolver resolver_;
  std::optional<state::DataDir> data_dir_;
  std::unique_ptr<kademlia::Node> node_;
  // The skill store: answers STORE and FIND_VALUE for the keys this node is close to. Declared
  // after node_ so that it detaches from the node before the node goes.
  std::unique_ptr<kademlia::store::SkillDht> dht_;
  std::unique_ptr<bootstrap::Bootstrapper> bootstrapper_;
  http::Router router_;
  ui::UiRoutes ui_routes_;  // the web console, when node.ui.enabled
  http::HttpMetrics http_metrics_;
  http::HttpServer http_;
  daemon::HttpsListener https_;  // with node.https.listen
  transport::uv::UvSignal sigint_;
  transport::uv::UvSignal sigterm_;
  transport::uv::UvSignal sighup_;
  transport::uv::UvTimer shutdown_timer_;  // the shutdown steps' budget
  lan::DnsSdAdvertiser dnssd_;
  service::ServiceNotifier notifier_;
  daemon::ConfigReloader reloader_;
  daemon::ShutdownSequence shutdown_;
  std::unique_ptr<daemon::StateSaver> saver_;  // made by Open(), once the data directory is open
  std::unique_ptr<daemon::NodeApi> api_;       // made by Open(), once every part it reports on is

  std::vector<StatusPart> status_parts_;
  std::vector<std::function<void()>> close_hooks_;
  Phase phase_ = Phase::kCreated;
  transport::TimePoint started_at_ = transport::kTimeZero;
  transport::TimePoint next_status_ = transport::kTimeNever;
};

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_DAEMON_H_
