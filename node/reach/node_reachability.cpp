#include "node/reach/node_reachability.h"

#include <string>

#include "kademlia/reach/reach_verdict.h"
#include "node/spd_logger.h"

namespace skillnode::node::reach {

namespace {

using kademlia::reach::PortMapping;
using kademlia::reach::Reachability;
using kademlia::reach::ReachabilityName;

constexpr Reachability kVerdicts[] = {Reachability::kUnknown, Reachability::kPublic,
                                      Reachability::kNat};

std::string_view PortMappingName(PortMapping mapping) {
  switch (mapping) {
    case PortMapping::kUnknown:
      return "unknown";
    case PortMapping::kStable:
      return "stable";
    case PortMapping::kVarying:
      return "varying";
  }
  return "unknown";
}

}  // namespace

std::unique_ptr<NodeReachability> NodeReachability::Start(Daemon& daemon) {
  return std::unique_ptr<NodeReachability>(new NodeReachability(daemon));
}

NodeReachability::NodeReachability(Daemon& daemon)
    : daemon_(daemon), dial_port_(daemon.env().loop(), daemon.logger()) {
  if (daemon_.config().discovery.dht.enabled) OpenDialPort();
  daemon_.AddNodeInfo("reachability", [this] {
    return std::string(ReachabilityName(daemon_.node().reach().reachability(daemon_.Now())));
  });
  daemon_.AddNodeInfo("externalAddress", [this] { return ExternalAddress(); });
  daemon_.AddNodeInfo("clientMode", [this] { return daemon_.node().client_mode(); });
  daemon_.AddNodeInfo("reach", [this] { return Info(); });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
  daemon_.AddCloseHook([this] {
    daemon_.node().SetDialTransport(nullptr);
    dial_port_.Close();
  });
}

void NodeReachability::OpenDialPort() {
  const config::NodeSection& node = daemon_.config().node;
  transport::uv::UdpOptions options;
  options.bind_v4 = node.bind_ipv4;
  options.bind_v6 = node.bind_ipv6;
  options.port = 0;
  options.ipv6_optional = true;
  options.datagram_size_max = kademlia::kDatagramSizeMax;
  // Nobody is told this port: whatever comes in is dropped (counted by the transport).
  auto opened =
      dial_port_.Open(options, [](const transport::Endpoint&, std::span<const uint8_t>) {});
  if (!opened) {
    LogAt(daemon_.logger(), transport::LogLevel::kWarn,
          "reachability: no dial port (" + opened.error().message +
              "); dial-backs go out from the DHT socket");
    return;
  }
  dial_port_open_ = true;
  daemon_.node().SetDialTransport(&dial_port_);
}

nlohmann::json NodeReachability::ExternalAddress() const {
  const kademlia::reach::ExternalAddress& external = daemon_.node().reach().external(daemon_.Now());
  if (external.endpoint) return external.endpoint->ToString();
  if (external.address) return external.address->ToString();
  return nullptr;
}

nlohmann::json NodeReachability::Info() const {
  kademlia::reach::ReachDriver& reach = daemon_.node().reach();
  const kademlia::reach::ExternalAddress& external = reach.external(daemon_.Now());
  const kademlia::reach::ReachStats& probes = reach.tracker_stats();
  const kademlia::reach::ReachDriverStats& driver = reach.stats();
  nlohmann::json dial_port = nullptr;
  if (dial_port_open_) {
    nlohmann::json ports = nlohmann::json::array();
    for (const transport::Endpoint& e : dial_port_.local_endpoints()) ports.push_back(e.ToString());
    dial_port = std::move(ports);
  }
  return {
      {"probing", daemon_.config().node.kademlia.reach_probes},
      {"natMapping", std::string(PortMappingName(external.mapping))},
      {"votes", external.votes},
      {"dialPort", std::move(dial_port)},
      {"probesStarted", probes.probes_started},
      {"probesReached", probes.probes_reached},
      {"probesNotReached", probes.probes_not_reached},
      {"probesUnanswered", driver.asks_unanswered},
      {"dialBacksFromContacts", probes.dial_backs_from_contacts},
      {"verdictChanges", probes.verdict_changes},
      {"addressChanges", probes.address_changes},
      {"helped", driver.helps},
      {"dialBacksSent", driver.dial_backs_sent},
      {"dialBacksRefused", driver.dial_backs_limited},
  };
}

void NodeReachability::WriteMetrics(http::PrometheusWriter& out) const {
  kademlia::reach::ReachDriver& reach = daemon_.node().reach();
  const Reachability now = reach.reachability(daemon_.Now());
  out.Family("skillnode_reachability", "gauge",
             "1 for what dial-backs from third parties say of this node (kademlia/reach)");
  for (const Reachability verdict : kVerdicts) {
    out.Sample("skillnode_reachability", {{"verdict", std::string(ReachabilityName(verdict))}},
               now == verdict ? 1 : 0);
  }
  const kademlia::reach::ReachStats& probes = reach.tracker_stats();
  out.Family("skillnode_reach_probes_total", "counter",
             "dial-back probes this node asked for, by outcome (none: none, or not yet)");
  out.Sample("skillnode_reach_probes_total", {{"outcome", "reached"}},
             static_cast<double>(probes.probes_reached));
  out.Sample("skillnode_reach_probes_total", {{"outcome", "not_reached"}},
             static_cast<double>(probes.probes_not_reached));
  out.Sample("skillnode_reach_probes_total", {{"outcome", "none"}},
             static_cast<double>(probes.probes_started - probes.probes_reached -
                                 probes.probes_not_reached));
  out.Gauge("skillnode_client_mode",
            "1 while this node is a client: its messages say so and peers keep it out of their "
            "routing tables",
            daemon_.node().client_mode() ? 1 : 0);
  const kademlia::NodeStats& stats = daemon_.node().stats();
  out.Counter("skillnode_client_messages_total",
              "messages from peers in client mode, kept out of the routing table",
              static_cast<double>(stats.client_messages));
  out.Counter("skillnode_clients_removed_total",
              "contacts removed from the routing table when they said they are clients now",
              static_cast<double>(stats.clients_removed));
  const kademlia::reach::ReachDriverStats& driver = reach.stats();
  out.Counter("skillnode_reach_helped_total", "REACH_ASKs of peers passed on to a third party",
              static_cast<double>(driver.helps));
  out.Counter("skillnode_reach_dial_backs_sent_total",
              "dial-backs sent for a peer's probe, as its third party",
              static_cast<double>(driver.dial_backs_sent));
}

}  // namespace skillnode::node::reach
