#include "node/reach/node_relays.h"

namespace skillnode::node::reach {

NodeRelays::NodeRelays(Daemon& daemon) : daemon_(daemon) {
  daemon_.AddNodeInfo("relay", [this] { return Info(); });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
}

nlohmann::json NodeRelays::Info() const {
  const kademlia::reach::RelayDriver& relay = daemon_.node().relay();
  const kademlia::reach::RelayStats& stats = relay.stats();
  nlohmann::json held = nlohmann::json::array();
  for (const auto& reservation : relay.held(daemon_.Now())) {
    held.push_back({{"id", reservation.relay.id.ToHex()},
                    {"endpoint", reservation.relay.endpoint.ToString()}});
  }
  const kademlia::NodeStats& node = daemon_.node().stats();
  return {
      {"held", std::move(held)},
      {"clients", relay.table().size()},
      {"clientsMax", relay.table().limits().clients_max},
      {"carried", stats.carried},
      {"refusedNoClient", stats.refused_no_client},
      {"refusedNotAPeer", stats.refused_not_a_peer},
      {"refusedRate", stats.refused_rate},
      {"keepsSent", stats.keeps_sent},
      {"keepsFailed", stats.keeps_failed},
      {"relayedSent", node.relayed_sent},
      {"relayedReceived", node.relayed_received},
  };
}

void NodeRelays::WriteMetrics(http::PrometheusWriter& out) const {
  const kademlia::reach::RelayDriver& relay = daemon_.node().relay();
  const kademlia::reach::RelayStats& stats = relay.stats();
  out.Gauge("skillnode_relays_held",
            "relays this node keeps reservations at, as a client (docs/protocol.md Relays)",
            static_cast<double>(relay.held(daemon_.Now()).size()));
  out.Gauge("skillnode_relay_clients", "clients holding a reservation at this node",
            static_cast<double>(relay.table().size()));
  out.Counter("skillnode_relay_keeps_total", "RELAY_KEEPs this node sent as a client",
              static_cast<double>(stats.keeps_sent));
  out.Counter("skillnode_relay_carried_total",
              "datagrams this node carried as a relay, to its clients or back from them",
              static_cast<double>(stats.carried));
  out.CounterBy("skillnode_relay_refused_total",
                "datagrams this node did not carry as a relay, by reason", "reason",
                {{"no_client", static_cast<double>(stats.refused_no_client)},
                 {"not_a_peer", static_cast<double>(stats.refused_not_a_peer)},
                 {"rate", static_cast<double>(stats.refused_rate)},
                 {"full", static_cast<double>(stats.keeps_refused)}});
  const kademlia::NodeStats& node = daemon_.node().stats();
  out.CounterBy("skillnode_relayed_messages_total",
                "this node's own messages that went through a relay, by direction", "direction",
                {{"sent", static_cast<double>(node.relayed_sent)},
                 {"received", static_cast<double>(node.relayed_received)}});
}

}  // namespace skillnode::node::reach
