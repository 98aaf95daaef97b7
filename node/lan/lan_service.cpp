#include "node/lan/lan_service.h"

#include <algorithm>
#include <chrono>
#include <tuple>
#include <utility>

#include "kademlia/wire/encoding.h"
#include "node/spd_logger.h"
#include "node/state/atomic_file.h"
#include "node/wall_clock.h"

namespace skillnode::node::lan {
namespace {

// A shared key or PEM file is a few KiB at most.
constexpr size_t kSecurityFileSizeMax = 256 * 1024;

transport::Result<std::string> ReadText(const std::string& key, const std::string& path) {
  auto bytes = state::ReadWholeFile(path, kSecurityFileSizeMax);
  if (!bytes)
    return transport::Fail(bytes.error().code, "security." + key + ": " + bytes.error().message);
  return std::string(bytes->begin(), bytes->end());
}

}  // namespace

transport::Result<discovery::lan::AuthConfig> LoadAuthConfig(
    const config::SecurityConfig& security) {
  discovery::lan::AuthConfig auth;
  switch (security.mode) {
    case config::SecurityMode::kOff:
      auth.mode = discovery::lan::AuthMode::kOff;
      break;
    case config::SecurityMode::kVerify:
      auth.mode = discovery::lan::AuthMode::kVerify;
      break;
    case config::SecurityMode::kRequire:
      auth.mode = discovery::lan::AuthMode::kRequire;
      break;
  }
  std::string key = security.shared_key;
  if (!security.shared_key_file.empty()) {
    auto text = ReadText("sharedKeyFile", security.shared_key_file);
    if (!text) return tl::unexpected(text.error());
    key = *text;
    while (!key.empty() && (key.back() == '\n' || key.back() == '\r')) key.pop_back();
    if (key.empty())
      return transport::Fail(transport::ErrorCode::kInvalidArgument,
                             "security.sharedKeyFile: empty");
  }
  auth.shared_key.assign(key.begin(), key.end());
  if (!security.trusted_roots.empty()) {
    auto roots = discovery::lan::TrustStore::FromPemFiles(security.trusted_roots);
    if (!roots)
      return transport::Fail(roots.error().code, "security.trustedRoots: " + roots.error().message);
    auth.roots = std::move(*roots);
  }
  if (!security.certificate.empty()) {
    auto signer = discovery::lan::Signer::FromPemFiles(security.private_key, security.certificate);
    if (!signer) {
      return transport::Fail(signer.error().code,
                             "security.certificate: " + signer.error().message);
    }
    auth.signer = std::move(*signer);
  }
  auth.replay_window_ms = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(security.replay_window).count());
  return auth;
}

transport::Result<std::unique_ptr<LanService>> LanService::Create(Daemon& daemon,
                                                                  SkillService& skills) {
  auto auth = LoadAuthConfig(daemon.config().security);
  if (!auth) return tl::unexpected(auth.error());
  std::unique_ptr<LanService> service(new LanService(daemon, skills, std::move(*auth)));
  auto opened = service->Open();
  if (!opened) return tl::unexpected(opened.error());
  return service;
}

LanService::LanService(Daemon& daemon, SkillService& skills, discovery::lan::AuthConfig auth)
    : daemon_(daemon),
      skills_(skills),
      multicast_(daemon.env().loop(), daemon.logger()),
      auth_(std::move(auth)) {}

LanService::~LanService() {
  skills_.searcher().SetLanStage(nullptr);
  multicast_.Close();
}

transport::Result<void> LanService::Open() {
  const config::UdpDiscoveryConfig& udp = daemon_.config().discovery.udp;
  auto interfaces = transport::uv::FindMulticastInterfaces(udp.interfaces);
  if (!interfaces) {
    return transport::Fail(interfaces.error().code,
                           "discovery.udp.interfaces: " + interfaces.error().message);
  }
  transport::uv::MulticastOptions options;
  options.group = udp.multicast_group;
  options.port = udp.port;
  options.interfaces = std::move(*interfaces);
  options.datagram_size_max = discovery::lan::kLanDatagramMax;
  auto opened = multicast_.Open(
      options, [this](const transport::Endpoint& from, std::span<const uint8_t> datagram, bool) {
        OnDatagram(from, datagram);
      });
  if (!opened) return transport::Fail(opened.error().code, "LAN: " + opened.error().message);
  own_ = multicast_.send_endpoints();
  local_ = transport::uv::LocalAddresses();
  local_read_at_ = daemon_.Now();

  discovery::lan::LanConfig config;
  config.broadcast_interval = udp.broadcast_interval;
  config.entry_timeout = udp.timeout;
  config.discover_window = udp.discover_window;
  config.table_max = udp.table_max;
  config.per_source_rate = udp.per_source_rate;
  config.per_source_burst = udp.per_source_burst;
  config.node_id = daemon_.node().id().ToHex();
  config.network_id = daemon_.config().node.network_id;
  config.dht_port = daemon_.config().discovery.dht.enabled ? daemon_.env().udp().port() : 0;
  config.http_url = daemon_.http_url();
  discovery::lan::LanOutput& output = *this;
  agent_ = std::make_unique<discovery::lan::LanAgent>(config, skills_.registry(), auth_, output,
                                                      daemon_.env().rng(), &WallClockMs);
  agent_->OnNewPeer([this](transport::TimePoint now, const discovery::lan::LanPeer& peer) {
    LogAt(daemon_.logger(), transport::LogLevel::kInfo,
          "LAN: heard node " + peer.node_id.substr(0, 16) + " at " + peer.lan.address().ToString() +
              (peer.dht.port() != 0 ? " (DHT " + peer.dht.ToString() + ")" : ""));
    if (peer.dht.port() != 0 && daemon_.config().discovery.dht.enabled) {
      daemon_.bootstrapper().OnLanPeer(now, peer.dht);
    }
  });
  skills_.searcher().SetLanStage(agent_.get());
  agent_->Start(daemon_.Now());
  daemon_.AddStepper({[this] { return closed_ ? transport::kTimeNever : agent_->NextDeadline(); },
                      [this](transport::TimePoint now) {
                        if (!closed_) agent_->OnTimer(now);
                      }});
  daemon_.AddNodeInfo("lan", [this] { return Info(); });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
  // A reload's new LAN signature settings: every key and certificate file is read first.
  daemon_.AddReloadStep(
      [this](const config::Config& running,
             const config::Config& next) -> transport::Result<daemon::ReloadApply> {
        if (service::SameLanSecurity(next.security, running.security)) return daemon::ReloadApply{};
        auto auth = LoadAuthConfig(next.security);
        if (!auth) return tl::unexpected(auth.error());
        auto shared = std::make_shared<discovery::lan::AuthConfig>(std::move(*auth));
        return daemon::ReloadApply([this, shared] { auth_.Reconfigure(std::move(*shared)); });
      });
  // After the registry's shutdown step has sent its SKILL_UNREGISTERs (steps run together, and
  // the registry's sends happen synchronously when it starts), the sockets close with the loop.
  daemon_.AddCloseHook([this] {
    closed_ = true;
    skills_.searcher().SetLanStage(nullptr);
    multicast_.Close();
  });
  std::string joined;
  for (const std::string& name : multicast_.joined()) joined += (joined.empty() ? "" : ", ") + name;
  LogAt(daemon_.logger(), joined.empty() ? transport::LogLevel::kWarn : transport::LogLevel::kInfo,
        "LAN on " + udp.multicast_group.ToString() + ":" + std::to_string(udp.port) +
            (joined.empty() ? ": no multicast-capable interface joined; the LAN adapter hears "
                              "only what is sent to its port"
                            : " via " + joined) +
            "; security " + std::string(config::SecurityModeName(daemon_.config().security.mode)));
  return {};
}

void LanService::OnDatagram(const transport::Endpoint& from, std::span<const uint8_t> datagram) {
  if (closed_) return;
  if (std::find(own_.begin(), own_.end(), from) != own_.end()) {
    ++own_datagrams_;
    return;
  }
  // The host's addresses change (DHCP, a new interface): read them again now and then.
  const transport::TimePoint now = daemon_.Now();
  if (now >= local_read_at_ + kLocalAddressesMaxAge) {
    local_ = transport::uv::LocalAddresses();
    local_read_at_ = now;
  }
  const bool from_this_host =
      from.address().IsLoopback() ||
      std::find(local_.begin(), local_.end(), from.address()) != local_.end();
  agent_->OnDatagram(
      now, from, std::string_view(reinterpret_cast<const char*>(datagram.data()), datagram.size()),
      from_this_host);
}

void LanService::SendToGroup(std::string_view datagram) {
  if (closed_) return;
  multicast_.SendToGroup(kademlia::wire::AsBytes(datagram));
}

void LanService::SendTo(const transport::Endpoint& to, std::string_view datagram) {
  if (closed_) return;
  multicast_.SendTo(to, kademlia::wire::AsBytes(datagram));
}

nlohmann::json LanService::Info() const {
  nlohmann::json peers = nlohmann::json::array();
  for (const auto& peer : agent_->peers()) {
    peers.push_back({{"nodeId", peer.node_id},
                     {"lan", peer.lan.ToString()},
                     {"dht", peer.dht.port() != 0 ? peer.dht.ToString() : ""},
                     {"http", peer.http_url}});
  }
  return {{"group", daemon_.config().discovery.udp.multicast_group.ToString() + ":" +
                        std::to_string(multicast_.port())},
          {"interfaces", multicast_.joined()},
          {"security", config::SecurityModeName(daemon_.config().security.mode)},
          {"tableEntries", agent_->table().size()},
          {"peers", peers}};
}

void LanService::WriteMetrics(http::PrometheusWriter& out) const {
  const auto& s = agent_->stats();
  const auto& m = multicast_.stats();
  out.Gauge("skillnode_lan_table_entries", "Skills heard on the LAN from other hosts.",
            static_cast<double>(agent_->table().size()));
  out.Gauge("skillnode_lan_peers", "Nodes heard on the LAN (SKILLNODE_HELLO).",
            static_cast<double>(agent_->peers().size()));
  out.Family("skillnode_lan_received_total", "counter", "LAN messages taken in, by type.");
  for (const auto& [type, count] : s.received) {
    out.Sample("skillnode_lan_received_total", {{"type", type}}, static_cast<double>(count));
  }
  out.Family("skillnode_lan_dropped_total", "counter",
             "LAN datagrams not taken, by reason (malformed, unknown_type, rate_limited, "
             "unsigned, bad_signature, stale, replayed, ...).");
  out.Sample("skillnode_lan_dropped_total", {{"reason", "oversize"}},
             static_cast<double>(m.dropped_oversize));
  out.Sample("skillnode_lan_dropped_total", {{"reason", "own"}},
             static_cast<double>(own_datagrams_));
  for (const auto& [reason, count] : s.dropped) {
    out.Sample("skillnode_lan_dropped_total", {{"reason", reason}}, static_cast<double>(count));
  }
  out.Family("skillnode_lan_acks_total", "counter", "SKILL_REGISTER_ACKs sent, by status.");
  for (const auto& [status, count] : s.acks) {
    out.Sample("skillnode_lan_acks_total", {{"status", status}}, static_cast<double>(count));
  }
  out.Counter("skillnode_lan_sent_total", "LAN datagrams sent.", static_cast<double>(m.sent));
  out.Counter("skillnode_lan_send_errors_total", "LAN datagrams the kernel did not take.",
              static_cast<double>(m.send_errors));
  out.Counter("skillnode_lan_discover_rounds_total",
              "SKILL_DISCOVER rounds this node's searches started.",
              static_cast<double>(s.discover_rounds));
  out.Counter("skillnode_lan_discovers_answered_total", "SKILL_DISCOVERs this node answered.",
              static_cast<double>(s.discovers_answered));
  out.Family("skillnode_lan_challenges_total", "counter",
             "Certificate challenges (spec 10.3) by outcome.");
  for (const auto& [outcome, count] : {std::pair{"started", s.challenges},
                                       {"passed", s.challenges_passed},
                                       {"failed", s.challenges_failed}}) {
    out.Sample("skillnode_lan_challenges_total", {{"outcome", outcome}},
               static_cast<double>(count));
  }
  out.Counter("skillnode_lan_expired_total", "LAN table entries forgotten after the timeout.",
              static_cast<double>(s.table_expired));
}

}  // namespace skillnode::node::lan
