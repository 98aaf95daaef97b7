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
// Saved state: the routing table goes to the data directory every stateSaveInterval, at
// shutdown, within kTableCheckInterval of first holding a contact, and when more than a quarter
// of it changed since the last save (so a kill -9 soon after joining still leaves contacts to
// rejoin through). With discovery.mdns.enabled the node advertises itself on the LAN through the
// host's Avahi daemon (DNS-SD, node/lan/dns_sd.h), or says in one line that it cannot.
//
// Under a service manager (systemd's Type=notify, node/service/service_notifier.h) the node sends
// READY=1 from Run(), when every socket and listener is bound, a STATUS= line whenever its
// summary changes (checked every kStatusCheckInterval), STOPPING=1 when the shutdown starts,
// and WATCHDOG=1 from the loop when WatchdogSec= is set.
//
// Reload, on SIGHUP (or Reload()): the configuration source (the file and the flags) is read
// again. A configuration that does not parse, or that a part cannot take (a key file that
// cannot be read), is refused with its error and the running one stays. Otherwise every part
// applies its share (AddReloadStep; node/service/config_reload.h lists what can change), one
// log line per key reloaded and per section that waits for a restart.
//
// Shutdown, on the first SIGINT or SIGTERM (or RequestStop()): the HTTP listener closes; the
// shutdown steps run, all at once, for at most kShutdownStepsBudget (the node keeps
// running meanwhile, so steps may send datagrams and wait for answers); then the routing table
// is saved (with the contacts it held when the shutdown began: a peer that stopped at the same
// moment fails the steps' requests and is evicted meanwhile, which once left a node of two
// saving no contact at all), the node shut down (its callbacks get kCancelled), every handle
// closed, and the loop runs dry. Run() returns 0 when uv_loop_close() returned 0 with no handle
// left open, else 1. A second signal exits at once (status 128 + signal).
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
#include "node/state/data_dir.h"
#include "kademlia/node.h"
#include "kademlia/store/skill_dht.h"
#include "node/config/config.h"
#include "node/http/http_metrics.h"
#include "node/http/http_server.h"
#include "node/http/prometheus.h"
#include "node/http/router.h"
#include "node/lan/dns_sd.h"
#include "node/service/config_reload.h"
#include "node/service/service_notifier.h"
#include "node/ui/ui_routes.h"
#include "transport/uv/uv_env.h"
#include "transport/uv/uv_resolver.h"
#include "transport/uv/uv_signal.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::node {

// This build's version: GET /api/node, /metrics and the DNS-SD TXT record.
constexpr const char* kVersion = "0.1.0";
// Time the shutdown steps get in total; with the rest of the shutdown (a save, closing
// handles: milliseconds) the process exits well within the 2 s a supervisor allows.
constexpr Duration kShutdownStepsBudget = Millis(1200);
// DHT listen subscriptions this node may hold: the discovery cache's keys (SearchConfig's
// watched_keys_max, 1,024) plus watch streams.
constexpr size_t kDhtSubscriptionsMax = 2048;
// How often the routing table is checked for a save besides the periodic one: a node killed a
// second after it joined must find its contacts on disk; a check is one stats() call.
constexpr Duration kTableCheckInterval = Seconds(1);
// Saved early when more than 1/kTableChangedFraction of the contacts changed since the last
// save (a quarter): a restart then finds most of today's table, and a growing table is saved
// O(log size) times, not on every new contact.
constexpr size_t kTableChangedFraction = 4;
// How often the service status line (STATUS=) is rebuilt; it is sent only when it changed.
constexpr Duration kStatusCheckInterval = Seconds(1);

using ShutdownStep = std::function<void(std::function<void()> done)>;
using NodeInfoSection = std::function<nlohmann::json()>;
using MetricsSection = std::function<void(PrometheusWriter&)>;
using StatusPart = std::function<std::string()>;
// Builds the configuration anew (the file and the flags), for a reload.
using ConfigSource = std::function<Result<Config>()>;
// A part's share of a reload: checks and reads what it needs from `next` and returns what
// applies it (empty: nothing of its own changed), or an error that refuses the whole reload.
using ReloadApply = std::function<void()>;
using ReloadStep = std::function<Result<ReloadApply>(const Config& running, const Config& next)>;

class Daemon {
 public:
  [[nodiscard]] static Result<std::unique_ptr<Daemon>> Create(const Config& config, Logger& logger);
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;
  ~Daemon();

  // Runs until shut down; returns the process exit status.
  int Run();
  // Starts the shutdown as SIGTERM would.
  void RequestStop();

  // Extension points, for use between Create() and Run() (or from the loop thread).
  Router& router() { return router_; }
  kademlia::Node& node() { return *node_; }
  kademlia::SkillDht& dht() { return *dht_; }
  UvEnv& env() { return env_; }
  TimePoint Now() const { return env_.Now(); }
  Logger& logger() { return logger_; }
  const Config& config() const { return config_; }
  const kademlia::Identity& identity() const { return node_->identity(); }
  // The node's data directory (node.dataDir, created at Create()).
  const std::string& data_dir_path() const { return data_dir_->path(); }
  // Adds `key` to the GET /api/node object.
  void AddNodeInfo(std::string key, NodeInfoSection section);
  // Appends families to GET /metrics.
  void AddMetrics(MetricsSection section);
  // Appends ", <part>" to the service manager's status line ("3 registered skills").
  void AddStatusPart(StatusPart part) { status_parts_.push_back(std::move(part)); }
  // Runs at shutdown before the node stops; `done` must be called once (late calls are
  // ignored once kShutdownStepsBudget has passed).
  void AddShutdownStep(std::string name, ShutdownStep step);
  void AddStepper(Stepper stepper) { env_.AddStepper(std::move(stepper)); }
  // Where a reload reads the configuration; without one, SIGHUP only logs that it cannot.
  void SetConfigSource(ConfigSource source) { config_source_ = std::move(source); }
  void AddReloadStep(ReloadStep step) { reload_steps_.push_back(std::move(step)); }
  // Reads the configuration again and applies what can change while running (as SIGHUP).
  void Reload();
  // Runs when the daemon closes its handles (after the shutdown steps), so that a part with
  // handles of its own (the LAN sockets) closes them with the rest.
  void AddCloseHook(std::function<void()> hook) { close_hooks_.push_back(std::move(hook)); }
  // Joins the DHT; the LAN adapter hands it the peers it hears.
  bootstrap::Bootstrapper& bootstrapper() { return *bootstrapper_; }

  // The HTTP API's address ("http://127.0.0.1:7070"; the HTTPS one when plain HTTP is off).
  std::string http_url() const;
  // The HTTPS API's address ("https://0.0.0.0:7443"), or "" without an HTTPS listener.
  std::string https_url() const;

 private:
  Daemon(const Config& config, Logger& logger, uint64_t seed);

  Result<void> Open();
  Result<void> OpenNode(const kademlia::Identity& identity);
  void RegisterRoutes();
  void OnSignal(int signum);
  void BeginShutdown(const std::string& why);
  void FinishShutdown();
  void CloseHandles();
  void StartDnsSd();
  void CheckTable();
  // Saves the routing table, and of `also` the contacts it no longer holds (evicted since).
  void SaveState(const char* when, LogLevel level, std::span<const kademlia::Contact> also = {});
  std::string StatusText() const;
  ReloadStep BootstrapReloadStep();
  Result<void> OpenHttps();
  ReloadStep HttpsReloadStep();

  nlohmann::json NodeInfo() const;
  nlohmann::json Addresses() const;
  std::string Metrics() const;
  void HandleLookup(const HttpRequest& request, Responder responder);

  Config config_;
  Logger& logger_;
  UvEnv env_;
  UvResolver resolver_;
  std::optional<state::DataDir> data_dir_;
  std::unique_ptr<kademlia::Node> node_;
  // The skill store: answers STORE and FIND_VALUE for the keys this node is close to. Declared
  // after node_ so that it detaches from the node before the node goes.
  std::unique_ptr<kademlia::SkillDht> dht_;
  std::unique_ptr<bootstrap::Bootstrapper> bootstrapper_;
  Router router_;
  ui::UiRoutes ui_routes_;  // the web console, when node.ui.enabled
  HttpMetrics http_metrics_;
  HttpServer http_;
  std::unique_ptr<HttpServer> https_;  // with node.https.listen
  UvSignal sigint_;
  UvSignal sigterm_;
  UvSignal sighup_;
  UvTimer shutdown_timer_;
  DnsSdAdvertiser dnssd_;
  ServiceNotifier notifier_;

  std::vector<std::pair<std::string, NodeInfoSection>> info_sections_;
  std::vector<MetricsSection> metrics_sections_;
  std::vector<StatusPart> status_parts_;
  ConfigSource config_source_;
  std::vector<ReloadStep> reload_steps_;
  uint64_t reloads_applied_ = 0;
  uint64_t reloads_refused_ = 0;
  std::vector<std::pair<std::string, ShutdownStep>> shutdown_steps_;
  std::vector<std::function<void()>> close_hooks_;

  enum class Phase { kCreated, kRunning, kStopping, kClosing, kClosed };
  Phase phase_ = Phase::kCreated;
  size_t steps_pending_ = 0;
  TimePoint started_at_ = kTimeZero;
  TimePoint next_save_ = kTimeNever;
  TimePoint next_table_check_ = kTimeNever;
  TimePoint next_status_ = kTimeNever;
  // The routing table at the last save of a non-empty one (none yet: nothing saved this run).
  std::optional<kademlia::RoutingTableStats> saved_table_;
  bool last_save_failed_ = false;
  // The routing table when the shutdown began, saved with what it holds at the end of it.
  std::vector<kademlia::Contact> contacts_at_shutdown_;
  uint64_t saves_ = 0;
  uint64_t save_failures_ = 0;
};

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_DAEMON_H_
