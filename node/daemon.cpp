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

std::string JoinEndpoints(const std::vector<Endpoint>& endpoints) {
  std::string text;
  for (const Endpoint& e : endpoints) text += (text.empty() ? "" : ", ") + e.ToString();
  return text.empty() ? std::string("no socket") : text;
}

}  // namespace

Daemon::Daemon(const Config& config, Logger& logger, uint64_t seed)
    : config_(config),
      logger_(logger),
      env_(logger, seed),
      resolver_(env_.loop()),
      http_(env_.loop(), config.node.http, router_, http_metrics_, logger),
      sigint_(env_.loop()),
      sigterm_(env_.loop()),
      sighup_(env_.loop()),
      shutdown_timer_(env_.loop()),
      dnssd_(env_.loop(), logger),
      notifier_(logger) {
  config_.node.kademlia.network_id = config_.node.network_id;
}

Result<std::unique_ptr<Daemon>> Daemon::Create(const Config& config, Logger& logger) {
  std::unique_ptr<Daemon> daemon(new Daemon(config, logger, UvEnv::RandomSeed()));
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
  const LoopCloseReport report = env_.CloseLoop();
  if (!report.clean()) {
    LogAt(logger_, LogLevel::kError, "event loop did not close cleanly after a failed start");
  }
}

Result<void> Daemon::Open() {
  const int64_t wall_seconds = static_cast<int64_t>(std::time(nullptr));
  auto data_dir = state::DataDir::Open(config_.node.data_dir);
  if (!data_dir) return Fail(data_dir.error().code, data_dir.error().message);
  data_dir_.emplace(std::move(*data_dir));
  auto identity = data_dir_->LoadIdentity(wall_seconds, logger_);
  if (!identity) return Fail(identity.error().code, "identity: " + identity.error().message);
  auto node = OpenNode(*identity);
  if (!node) return node;
  if (config_.node.http.enabled) {
    auto listening = http_.Listen();
    if (!listening) return Fail(listening.error().code, "HTTP API: " + listening.error().message);
  }
  if (config_.node.https.listen) {
    auto listening = OpenHttps();
    if (!listening) return listening;
  }
  RegisterRoutes();
  StartDnsSd();
  for (auto* signal : {&sigint_, &sigterm_}) {
    auto watched = signal->Start(signal == &sigint_ ? SIGINT : SIGTERM,
                                 [this](int signum) { OnSignal(signum); });
    if (!watched) return watched;
  }
  auto hup = sighup_.Start(SIGHUP, [this](int) {
    if (phase_ == Phase::kRunning) Reload();
  });
  if (!hup) return hup;
  bootstrap::BootstrapConfig bootstrap;
  bootstrap.peers = config_.discovery.dht.bootstrap_nodes;
  bootstrap.backoff.initial = config_.node.bootstrap.retry_initial;
  bootstrap.backoff.max = config_.node.bootstrap.retry_max;
  bootstrapper_ =
      std::make_unique<bootstrap::Bootstrapper>(bootstrap, *node_, resolver_, env_.rng(), logger_);
  reload_steps_.push_back(BootstrapReloadStep());
  started_at_ = Now();
  next_save_ = started_at_ + config_.node.state_save_interval;
  next_table_check_ = started_at_ + kTableCheckInterval;
  env_.AddStepper(
      {[this] { return node_->NextDeadline(); }, [this](TimePoint now) { node_->OnTimer(now); }});
  env_.AddStepper({[this] { return bootstrapper_->NextDeadline(); },
                   [this](TimePoint now) { bootstrapper_->OnTimer(now); }});
  env_.AddStepper({[this] { return next_save_; },
                   [this](TimePoint now) {
                     next_save_ = now + config_.node.state_save_interval;
                     SaveState("periodic", LogLevel::kDebug);
                   }});
  env_.AddStepper({[this] { return next_table_check_; },
                   [this](TimePoint now) {
                     next_table_check_ = now + kTableCheckInterval;
                     CheckTable();
                   }});
  env_.AddStepper({[this] { return notifier_.NextDeadline(); },
                   [this](TimePoint now) { notifier_.OnTimer(now); }});
  if (notifier_.enabled()) {
    env_.AddStepper({[this] { return next_status_; },
                     [this](TimePoint now) {
                       next_status_ = now + kStatusCheckInterval;
                       if (phase_ == Phase::kRunning) notifier_.Status(StatusText());
                     }});
  }
  if (config_.discovery.dht.enabled) {
    const auto saved = data_dir_->LoadContacts(config_.node.network_id, wall_seconds, logger_);
    bootstrapper_->Start(Now(), saved);
  }
  env_.Start();
  return {};
}

Result<void> Daemon::OpenNode(const kademlia::Identity& identity) {
  // The keyed hashes' secret comes from the OS: env_.rng() is seeded from it too, but its
  // outputs go out as transaction ids, so it is no secret.
  kademlia::EnsureSodium();
  kademlia::HashKey hash_key{};
  randombytes_buf(hash_key.data(), hash_key.size());
  node_ = std::make_unique<kademlia::Node>(config_.node.kademlia, identity, env_.udp(), env_.rng(),
                                           logger_, Now(), kademlia::Ed25519Signatures(), hash_key);
  kademlia::DhtConfig dht;
  dht.replication = static_cast<size_t>(config_.discovery.dht.replication_factor);
  // The registry listens on the keys of its cached answers and of its watch streams.
  dht.subscriptions_max = kDhtSubscriptionsMax;
  dht.clock_skew = config_.discovery.dht.clock_skew;
  dht_ = std::make_unique<kademlia::SkillDht>(*node_, dht, [](TimePoint) { return WallClockMs(); });
  if (!config_.discovery.dht.enabled) {
    LogAt(logger_, LogLevel::kInfo, "DHT disabled (discovery.dht.enabled: false): no UDP socket");
    return {};
  }
  UdpOptions options;
  options.bind_v4 = config_.node.bind_ipv4;
  options.bind_v6 = config_.node.bind_ipv6;
  options.port = config_.node.port;
  // IPv6 is optional only when it was left at its default (any address).
  options.ipv6_optional = config_.node.bind_ipv6 && config_.node.bind_ipv6->IsUnspecified();
  options.datagram_size_max = kademlia::kDatagramSizeMax;
  auto opened =
      env_.udp().Open(options, [this](const Endpoint& from, std::span<const uint8_t> datagram) {
        node_->OnDatagram(Now(), from, datagram);
      });
  if (!opened) return Fail(opened.error().code, "DHT: " + opened.error().message);
  return {};
}

int Daemon::Run() {
  phase_ = Phase::kRunning;
  LogAt(logger_, LogLevel::kInfo,
        "skillnode node " + node_->id().ToHex() + " on network " +
            std::to_string(config_.node.network_id) + "; DHT on udp " +
            JoinEndpoints(env_.udp().local_endpoints()) +
            (env_.udp().batched_receive() ? " (recvmmsg)" : "") + "; data in " + data_dir_->path());
  if (config_.node.http.enabled) {
    LogAt(logger_, LogLevel::kInfo, "HTTP API listening on " + http_.url());
  }
  if (https_ != nullptr) {
    LogAt(
        logger_, LogLevel::kInfo,
        "HTTPS API listening on " + https_url() + "; certificate " + https_->tls()->description());
  }
  // Every socket and listener was bound by Create() and the parts attached since.
  notifier_.Ready(StatusText());
  notifier_.StartWatchdog(Now());
  next_status_ = Now() + kStatusCheckInterval;
  if (notifier_.enabled()) {
    const Duration watchdog = notifier_.watchdog_interval();
    LogAt(logger_, LogLevel::kInfo,
          "told the service manager READY=1" +
              (watchdog.count() > 0
                   ? "; watchdog pings every " + std::to_string(watchdog.count() / 1000) + " ms"
                   : std::string()));
  }
  env_.loop().Run();
  const LoopCloseReport report = env_.CloseLoop();
  phase_ = Phase::kClosed;
  if (!report.clean()) {
    std::string leaked;
    for (const std::string& type : report.leaked_handles) leaked += " " + type;
    LogAt(logger_, LogLevel::kError,
          "event loop did not close cleanly: uv_loop_close returned " +
              std::to_string(report.close_result) + "; handles left open:" + leaked);
    return 1;
  }
  LogAt(logger_, LogLevel::kInfo, "stopped: every handle closed, uv_loop_close returned 0");
  return 0;
}

void Daemon::RequestStop() { BeginShutdown("stop requested"); }

void Daemon::OnSignal(int signum) {
  const std::string name = signum == SIGINT ? "SIGINT" : "SIGTERM";
  if (phase_ != Phase::kRunning) {
    LogAt(logger_, LogLevel::kWarn, "received " + name + " again: exiting at once");
    std::_Exit(128 + signum);
  }
  BeginShutdown("received " + name);
}

void Daemon::BeginShutdown(const std::string& why) {
  if (phase_ != Phase::kRunning) return;
  phase_ = Phase::kStopping;
  // The steps' requests to peers that stop at the same moment time out, and evict them: the
  // saved table is the one of this moment, with what the steps learn added.
  contacts_at_shutdown_ = node_->routing_table().Export();
  LogAt(logger_, LogLevel::kInfo, why + ": shutting down");
  notifier_.Stopping(why + ": shutting down");
  http_.StopAccepting();
  if (https_ != nullptr) https_->StopAccepting();
  // One count held while the steps start, so a step that finishes at once cannot end the
  // shutdown before the others have started.
  steps_pending_ = shutdown_steps_.size() + 1;
  shutdown_timer_.Start(kShutdownStepsBudget, [this] {
    LogAt(logger_, LogLevel::kWarn,
          std::to_string(steps_pending_) + " shutdown steps still running after " +
              std::to_string(kShutdownStepsBudget.count() / 1000) + " ms: going on without them");
    FinishShutdown();
  });
  for (auto& [name, step] : shutdown_steps_) {
    auto finished = std::make_shared<bool>(false);
    step([this, finished, step_name = name] {
      if (*finished || phase_ != Phase::kStopping) return;
      *finished = true;
      LogAt(logger_, LogLevel::kDebug, "shutdown step " + step_name + " done");
      if (--steps_pending_ == 0) FinishShutdown();
    });
  }
  if (phase_ == Phase::kStopping && --steps_pending_ == 0) FinishShutdown();
}

void Daemon::FinishShutdown() {
  if (phase_ != Phase::kStopping) return;
  phase_ = Phase::kClosing;
  bootstrapper_->Stop();
  SaveState("at shutdown", LogLevel::kInfo, contacts_at_shutdown_);
  node_->Shutdown(Now());
  CloseHandles();
}

void Daemon::CloseHandles() {
  for (const auto& hook : close_hooks_) hook();
  resolver_.Close();
  http_.Close();
  if (https_ != nullptr) https_->Close();
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
    LogAt(logger_, LogLevel::kInfo, "DNS-SD: not advertised: the DHT has no UDP socket");
    return;
  }
  DnsSdService service;
  service.node_id_hex = node_->id().ToHex();
  service.network_id = config_.node.network_id;
  service.dht_port = sockets.front().port();  // the IPv4 and IPv6 sockets share it
  service.http_url = http_url();
  service.version = kVersion;
  dnssd_.Start(std::move(service));
}

// Between periodic saves: the first contact after start (a node that joined and is then killed
// keeps what it learned), and big changes. The change is estimated from counters, not by
// comparing contact lists: the size difference plus evictions and promotions since the save.
void Daemon::CheckTable() {
  // After a failed save (a full disk, say) only the periodic saves try again: one warning a
  // stateSaveInterval, not one a second.
  if (phase_ != Phase::kRunning || last_save_failed_) return;
  const kademlia::RoutingTableStats now = node_->routing_table().stats();
  if (now.contacts == 0) return;  // an empty table never replaces saved contacts anyway
  if (!saved_table_) return SaveState("after joining", LogLevel::kInfo);
  const size_t grown = now.contacts > saved_table_->contacts
                           ? now.contacts - saved_table_->contacts
                           : saved_table_->contacts - now.contacts;
  const size_t changed = grown + (now.evicted - saved_table_->evicted) +
                         (now.promoted - saved_table_->promoted) +
                         (now.displaced - saved_table_->displaced);
  if (changed * kTableChangedFraction > saved_table_->contacts) {
    SaveState("after the table changed", LogLevel::kDebug);
  }
}

void Daemon::SaveState(const char* when, LogLevel level, std::span<const kademlia::Contact> also) {
  if (!config_.discovery.dht.enabled || !data_dir_ || node_ == nullptr) return;
  const kademlia::RoutingTableStats table = node_->routing_table().stats();
  auto contacts = node_->routing_table().Export();
  size_t restored = 0;
  for (const kademlia::Contact& c : also) {
    const bool held = std::any_of(contacts.begin(), contacts.end(),
                                  [&c](const kademlia::Contact& x) { return x.id == c.id; });
    if (held) continue;
    contacts.push_back(c);
    ++restored;
  }
  auto saved = data_dir_->SaveContacts(config_.node.network_id, contacts);
  last_save_failed_ = !saved;
  if (!saved) {
    ++save_failures_;
    LogAt(logger_, LogLevel::kWarn,
          std::string("cannot save contacts ") + when + ": " + saved.error().message);
    return;
  }
  ++saves_;
  if (*saved == state::SaveOutcome::kKeptOlder) {
    LogAt(logger_, level, std::string("routing table empty ") + when + ": kept the saved contacts");
    return;
  }
  if (table.contacts > 0) saved_table_ = table;
  LogAt(logger_, level,
        "saved " + std::to_string(contacts.size()) + " contacts " + when + " to " +
            data_dir_->contacts_path() +
            (restored > 0 ? " (" + std::to_string(restored) +
                                " of them evicted while the shutdown steps ran)"
                          : std::string()));
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

void Daemon::AddNodeInfo(std::string key, NodeInfoSection section) {
  info_sections_.emplace_back(std::move(key), std::move(section));
}

void Daemon::AddMetrics(MetricsSection section) { metrics_sections_.push_back(std::move(section)); }

void Daemon::AddShutdownStep(std::string name, ShutdownStep step) {
  shutdown_steps_.emplace_back(std::move(name), std::move(step));
}

std::string Daemon::http_url() const {
  return config_.node.http.enabled || https_ == nullptr ? http_.url() : https_->url();
}

std::string Daemon::https_url() const { return https_ != nullptr ? https_->url() : ""; }

}  // namespace skillnode::node
