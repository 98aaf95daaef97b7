#include "node/daemon.h"

#include <signal.h>
#include <sodium.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <utility>

#include "kademlia/wire/encoding.h"
#include "node/spd_logger.h"
#include "node/wall_clock.h"

namespace skillnode::node {
namespace {

std::string JoinEndpoints(const std::vector<transport::Endpoint>& endpoints) {
  std::string text;
  for (const transport::Endpoint& e : endpoints) text += (text.empty() ? "" : ", ") + e.ToString();
  return text.empty() ? std::string("no socket") : text;
}

}  // namespace

Daemon::Daemon(const config::Config& config, transport::Logger& logger, uint64_t seed)
    : config_(config),
      logger_(logger),
      env_(logger, seed),
      resolver_(env_.loop()),
      http_(env_.loop(), config.node.http, router_, http_metrics_, logger),
      https_(env_.loop(), router_, http_metrics_, logger),
      sigint_(env_.loop()),
      sigterm_(env_.loop()),
      sighup_(env_.loop()),
      shutdown_timer_(env_.loop()),
      dnssd_(env_.loop(), logger),
      notifier_(logger),
      reloader_(logger),
      shutdown_(daemon::ShutdownActions{
                    .start_timer =
                        [this](transport::Duration budget, std::function<void()> expired) {
                          shutdown_timer_.Start(budget, std::move(expired));
                        },
                    .save =
                        [this] {
                          bootstrapper_->Stop();
                          saver_->SaveAtShutdown();
                        },
                    .close =
                        [this] {
                          node_->Shutdown(Now());
                          CloseHandles();
                        }},
                logger) {
  config_.node.kademlia.network_id = config_.node.network_id;
}

transport::Result<std::unique_ptr<Daemon>> Daemon::Create(const config::Config& config,
                                                          transport::Logger& logger) {
  std::unique_ptr<Daemon> daemon(new Daemon(config, logger, transport::uv::UvEnv::RandomSeed()));
  auto opened = daemon->Open();
  if (!opened) return tl::unexpected(opened.error());  // the destructor closes what was opened
  return daemon;
}

Daemon::~Daemon() {
  if (phase_ == Phase::kClosed) return;
  // Create() failed, or Run() was never called: close what is open and let libuv free it.
  if (bootstrapper_ != nullptr) bootstrapper_->Stop();
  if (node_ != nullptr) node_->Shutdown(Now());
  CloseHandles();
  env_.loop().Run();
  const transport::uv::LoopCloseReport report = env_.CloseLoop();
  if (!report.clean()) {
    LogAt(logger_, transport::LogLevel::kError,
          "event loop did not close cleanly after a failed start");
  }
}

transport::Result<void> Daemon::Open() {
  const int64_t wall_seconds = static_cast<int64_t>(std::time(nullptr));
  auto data_dir = state::DataDir::Open(config_.node.data_dir);
  if (!data_dir) return transport::Fail(data_dir.error().code, data_dir.error().message);
  data_dir_.emplace(std::move(*data_dir));
  auto identity = data_dir_->LoadIdentity(wall_seconds, logger_);
  if (!identity)
    return transport::Fail(identity.error().code, "identity: " + identity.error().message);
  auto node = OpenNode(*identity);
  if (!node) return node;
  bootstrap::BootstrapConfig bootstrap;
  bootstrap.peers = config_.discovery.dht.bootstrap_nodes;
  bootstrap.backoff.initial = config_.node.bootstrap.retry_initial;
  bootstrap.backoff.max = config_.node.bootstrap.retry_max;
  bootstrapper_ =
      std::make_unique<bootstrap::Bootstrapper>(bootstrap, *node_, resolver_, env_.rng(), logger_);
  if (config_.node.http.enabled) {
    auto listening = http_.Listen();
    if (!listening)
      return transport::Fail(listening.error().code, "HTTP API: " + listening.error().message);
  }
  if (config_.node.https.listen) {
    auto listening = https_.Open(config_);
    if (!listening) return listening;
    reloader_.AddStep(https_.MakeReloadStep());
  }
  started_at_ = Now();
  saver_ = std::make_unique<daemon::StateSaver>(
      daemon::StateSaverConfig{.enabled = config_.discovery.dht.enabled,
                               .network_id = config_.node.network_id,
                               .save_interval = config_.node.state_save_interval},
      *data_dir_,
      daemon::TableSource{.stats = [this] { return node_->routing_table().stats(); },
                          .contacts = [this] { return node_->routing_table().Export(); }},
      logger_);
  AddApi();
  StartDnsSd();
  auto watched = WatchSignals();
  if (!watched) return watched;
  reloader_.AddStep(BootstrapReloadStep());
  saver_->Start(started_at_);
  AddSteppers();
  if (config_.discovery.dht.enabled) {
    const auto saved = data_dir_->LoadContacts(config_.node.network_id, wall_seconds, logger_);
    bootstrapper_->Start(Now(), saved);
  }
  env_.Start();
  return {};
}

// The daemon's own routes (node_api.h) and the web console's (node/ui/ui_routes.h); later
// parts register theirs through router().
void Daemon::AddApi() {
  api_ = std::make_unique<daemon::NodeApi>(daemon::NodeApi::Parts{.config = config_,
                                                                  .data_dir = *data_dir_,
                                                                  .env = env_,
                                                                  .node = *node_,
                                                                  .dht = *dht_,
                                                                  .bootstrapper = *bootstrapper_,
                                                                  .dnssd = dnssd_,
                                                                  .http_metrics = http_metrics_,
                                                                  .http = http_,
                                                                  .https = https_,
                                                                  .saver = *saver_,
                                                                  .reloader = reloader_,
                                                                  .started_at = started_at_});
  api_->AddTo(router_);
  if (config_.node.ui.enabled) {
    ui_routes_.AddTo(router_);
    AddNodeInfo("ui", [this] { return ui_routes_.Info(); });
    AddMetrics([this](http::PrometheusWriter& out) { ui_routes_.WriteMetrics(out); });
  }
}

transport::Result<void> Daemon::WatchSignals() {
  for (auto* signal : {&sigint_, &sigterm_}) {
    auto watched = signal->Start(signal == &sigint_ ? SIGINT : SIGTERM,
                                 [this](int signum) { OnSignal(signum); });
    if (!watched) return watched;
  }
  return sighup_.Start(SIGHUP, [this](int) {
    if (running()) Reload();
  });
}

void Daemon::AddSteppers() {
  env_.AddStepper({[this] { return node_->NextDeadline(); },
                   [this](transport::TimePoint now) { node_->OnTimer(now); }});
  env_.AddStepper({[this] { return bootstrapper_->NextDeadline(); },
                   [this](transport::TimePoint now) { bootstrapper_->OnTimer(now); }});
  env_.AddStepper({[this] { return saver_->NextDeadline(); },
                   [this](transport::TimePoint now) { saver_->OnTimer(now); }});
  env_.AddStepper({[this] { return notifier_.NextDeadline(); },
                   [this](transport::TimePoint now) { notifier_.OnTimer(now); }});
  if (notifier_.enabled()) {
    env_.AddStepper({[this] { return next_status_; },
                     [this](transport::TimePoint now) {
                       next_status_ = now + kStatusCheckInterval;
                       if (running()) notifier_.Status(StatusText());
                     }});
  }
}

transport::Result<void> Daemon::OpenNode(const kademlia::Identity& identity) {
  // The keyed hashes' secret comes from the OS: env_.rng() is seeded from it too, but its
  // outputs go out as transaction ids, so it is no secret.
  kademlia::wire::EnsureSodium();
  kademlia::HashKey hash_key{};
  randombytes_buf(hash_key.data(), hash_key.size());
  node_ = std::make_unique<kademlia::Node>(config_.node.kademlia, identity, env_.udp(), env_.rng(),
                                           logger_, Now(), kademlia::Ed25519Signatures(), hash_key);
  kademlia::store::DhtConfig dht;
  dht.replication = static_cast<size_t>(config_.discovery.dht.replication_factor);
  // The registry listens on the keys of its cached answers and of its watch streams.
  dht.subscriptions_max = kDhtSubscriptionsMax;
  dht.clock_skew = config_.discovery.dht.clock_skew;
  dht.term_jobs_per_second = config_.discovery.dht.index_jobs_per_second;
  dht.term_jobs_burst = 2 * dht.term_jobs_per_second;
  dht_ = std::make_unique<kademlia::store::SkillDht>(
      *node_, dht, [](transport::TimePoint) { return WallClockMs(); });
  if (!config_.discovery.dht.enabled) {
    LogAt(logger_, transport::LogLevel::kInfo,
          "DHT disabled (discovery.dht.enabled: false): no UDP socket");
    return {};
  }
  transport::uv::UdpOptions options;
  options.bind_v4 = config_.node.bind_ipv4;
  options.bind_v6 = config_.node.bind_ipv6;
  options.port = config_.node.port;
  // IPv6 is optional only when it was left at its default (any address).
  options.ipv6_optional = config_.node.bind_ipv6 && config_.node.bind_ipv6->IsUnspecified();
  // A relay's envelope (RELAY, RELAY_BACK, RELAYED) is a little longer than any other message.
  options.datagram_size_max = kademlia::wire::kRelayDatagramSizeMax;
  auto opened = env_.udp().Open(
      options, [this](const transport::Endpoint& from, std::span<const uint8_t> datagram) {
        node_->OnDatagram(Now(), from, datagram);
      });
  if (!opened) return transport::Fail(opened.error().code, "DHT: " + opened.error().message);
  return {};
}

int Daemon::Run() {
  phase_ = Phase::kRunning;
  LogAt(logger_, transport::LogLevel::kInfo,
        "skillnode node " + node_->id().ToHex() + " on network " +
            std::to_string(config_.node.network_id) + "; DHT on udp " +
            JoinEndpoints(env_.udp().local_endpoints()) +
            (env_.udp().batched_receive() ? " (recvmmsg)" : "") + "; data in " + data_dir_->path());
  if (config_.node.http.enabled) {
    LogAt(logger_, transport::LogLevel::kInfo, "HTTP API listening on " + http_.url());
  }
  if (https_.open()) {
    LogAt(logger_, transport::LogLevel::kInfo,
          "HTTPS API listening on " + https_.url() + "; certificate " + https_.certificate());
  }
  // Every socket and listener was bound by Create() and the parts attached since.
  notifier_.Ready(StatusText());
  notifier_.StartWatchdog(Now());
  next_status_ = Now() + kStatusCheckInterval;
  if (notifier_.enabled()) {
    const transport::Duration watchdog = notifier_.watchdog_interval();
    LogAt(logger_, transport::LogLevel::kInfo,
          "told the service manager READY=1" +
              (watchdog.count() > 0
                   ? "; watchdog pings every " + std::to_string(watchdog.count() / 1000) + " ms"
                   : std::string()));
  }
  env_.loop().Run();
  const transport::uv::LoopCloseReport report = env_.CloseLoop();
  phase_ = Phase::kClosed;
  if (!report.clean()) {
    std::string leaked;
    for (const std::string& type : report.leaked_handles) leaked += " " + type;
    LogAt(logger_, transport::LogLevel::kError,
          "event loop did not close cleanly: uv_loop_close returned " +
              std::to_string(report.close_result) + "; handles left open:" + leaked);
    return 1;
  }
  LogAt(logger_, transport::LogLevel::kInfo,
        "stopped: every handle closed, uv_loop_close returned 0");
  return 0;
}

void Daemon::RequestStop() { BeginShutdown("stop requested"); }

void Daemon::OnSignal(int signum) {
  const std::string name = signum == SIGINT ? "SIGINT" : "SIGTERM";
  if (!running()) {
    LogAt(logger_, transport::LogLevel::kWarn, "received " + name + " again: exiting at once");
    std::_Exit(128 + signum);
  }
  BeginShutdown("received " + name);
}

void Daemon::BeginShutdown(const std::string& why) {
  if (!running()) return;
  saver_->BeginShutdown();
  LogAt(logger_, transport::LogLevel::kInfo, why + ": shutting down");
  notifier_.Stopping(why + ": shutting down");
  http_.StopAccepting();
  https_.StopAccepting();
  shutdown_.Begin();
}

void Daemon::CloseHandles() {
  for (const auto& hook : close_hooks_) hook();
  resolver_.Close();
  http_.Close();
  https_.Close();
  sigint_.Close();
  sigterm_.Close();
  sighup_.Close();
  shutdown_timer_.Close();
  dnssd_.Close();
  env_.Close();
}

void Daemon::StartDnsSd() {
  if (!config_.discovery.mdns.enabled) return;
  const auto& sockets = env_.udp().local_endpoints();
  if (sockets.empty()) {
    LogAt(logger_, transport::LogLevel::kInfo, "DNS-SD: not advertised: the DHT has no UDP socket");
    return;
  }
  lan::DnsSdService service;
  service.node_id_hex = node_->id().ToHex();
  service.network_id = config_.node.network_id;
  service.dht_port = sockets.front().port();  // the IPv4 and IPv6 sockets share it
  service.http_url = http_url();
  service.version = daemon::kVersion;
  dnssd_.Start(std::move(service));
}

// One line for `systemctl status`: "12 contacts, 40 stored records, 3 registered skills", with
// "bootstrapping (joining)" or "standalone: ..." in place of the contacts while there are none.
std::string Daemon::StatusText() const {
  std::string text;
  const size_t contacts = node_->routing_table().stats().contacts;
  if (!config_.discovery.dht.enabled) {
    text = "DHT disabled";
  } else if (contacts == 0 && bootstrapper_->phase() == bootstrap::BootstrapPhase::kStandalone) {
    text = "standalone: no contacts; waiting to be joined";
  } else if (contacts == 0) {
    text = "bootstrapping (" + std::string(bootstrap::BootstrapPhaseName(bootstrapper_->phase())) +
           ")";
  } else {
    text = std::to_string(contacts) + " contacts";
  }
  text += ", " + std::to_string(dht_->store().records()) + " stored records";
  for (const StatusPart& part : status_parts_) text += ", " + part();
  return text;
}

void Daemon::Reload() {
  if (reloader_.has_source()) notifier_.Reloading();
  if (reloader_.Reload(config_) != daemon::ConfigReloader::Outcome::kNoSource) {
    notifier_.Ready(StatusText());
  }
}

// The daemon's own share of a reload: the bootstrap peers.
daemon::ReloadStep Daemon::BootstrapReloadStep() {
  return [this](const config::Config& running,
                const config::Config& next) -> transport::Result<daemon::ReloadApply> {
    if (next.discovery.dht.bootstrap_nodes == running.discovery.dht.bootstrap_nodes) {
      return daemon::ReloadApply{};
    }
    return daemon::ReloadApply([this, peers = next.discovery.dht.bootstrap_nodes] {
      bootstrapper_->SetPeers(Now(), peers);
    });
  };
}

}  // namespace skillnode::node
