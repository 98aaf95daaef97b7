// The daemon's built-in HTTP routes: /health, /api/node, /metrics, the DHT's lookup and
// contacts endpoints, and the web console (/ui/, node/ui/ui_routes.h). Later issues register theirs
// through Daemon::router().
#include <uv.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstring>

#include "node/daemon.h"
#include "node/node_metrics.h"

namespace skillnode::node {
namespace {

int64_t WholeSeconds(Duration d) {
  return std::chrono::duration_cast<std::chrono::seconds>(d).count();
}

double RoundedMillis(Duration d) { return std::round(ToMillis(d) * 1000.0) / 1000.0; }

// The addresses of this host's interfaces of one family (IPv6 link-local left out: they need
// a scope to be usable).
std::vector<Address> InterfaceAddresses(bool v4) {
  std::vector<Address> out;
  uv_interface_address_t* interfaces = nullptr;
  int count = 0;
  if (uv_interface_addresses(&interfaces, &count) != 0) return out;
  for (int i = 0; i < count; ++i) {
    const auto* address = reinterpret_cast<const sockaddr*>(&interfaces[i].address);
    if ((address->sa_family == AF_INET) != v4) continue;
    std::array<uint8_t, 16> bytes{};
    if (v4) {
      std::memcpy(bytes.data(), &interfaces[i].address.address4.sin_addr, 4);
      out.push_back(Address::V4({bytes[0], bytes[1], bytes[2], bytes[3]}));
    } else {
      std::memcpy(bytes.data(), &interfaces[i].address.address6.sin6_addr, 16);
      const Address a = Address::V6(bytes);
      if (!a.IsLinkLocal()) out.push_back(a);
    }
  }
  uv_free_interface_addresses(interfaces, count);
  return out;
}

nlohmann::json ContactJson(const kademlia::Contact& contact) {
  return {{"id", contact.id.ToHex()}, {"address", contact.endpoint.ToString()}};
}

// A routing-table contact with what the web console draws: its bucket (the bits its id
// shares with ours) and its smoothed round-trip time (null before the first answer).
nlohmann::json TableContactJson(const kademlia::Contact& contact, const kademlia::Key& own) {
  nlohmann::json json = ContactJson(contact);
  json["bucket"] = own.CommonPrefixLength(contact.id);
  json["rtt_ms"] =
      contact.rtt_known() ? nlohmann::json(RoundedMillis(contact.rtt)) : nlohmann::json(nullptr);
  return json;
}

}  // namespace

void Daemon::RegisterRoutes() {
  router_.Add("GET", "/health", [this](const HttpRequest&, Responder responder) {
    responder.Json(200, {{"status", "ok"},
                         {"uptime_s", WholeSeconds(Now() - started_at_)},
                         {"dht", bootstrap::BootstrapPhaseName(bootstrapper_->phase())},
                         {"contacts", node_->routing_table().size()}});
  });
  router_.Add("GET", "/api/node",
              [this](const HttpRequest&, Responder responder) { responder.Json(200, NodeInfo()); });
  router_.Add("GET", "/metrics", [this](const HttpRequest&, Responder responder) {
    responder.Send(HttpResponse::Text(200, Metrics(), std::string(kPrometheusContentType)));
  });
  router_.Add("GET", "/api/dht/lookup", [this](const HttpRequest& request, Responder responder) {
    HandleLookup(request, std::move(responder));
  });
  router_.Add("GET", "/api/dht/contacts", [this](const HttpRequest&, Responder responder) {
    nlohmann::json contacts = nlohmann::json::array();
    for (const auto& contact : node_->routing_table().Export()) {
      contacts.push_back(TableContactJson(contact, node_->id()));
    }
    responder.Json(200, {{"contacts", std::move(contacts)}});
  });
  if (config_.node.ui.enabled) {
    ui_routes_.AddTo(router_);
    AddNodeInfo("ui", [this] { return ui_routes_.Info(); });
    AddMetrics([this](PrometheusWriter& out) { ui_routes_.WriteMetrics(out); });
  }
}

nlohmann::json Daemon::Addresses() const {
  nlohmann::json addresses = nlohmann::json::array();
  for (const Endpoint& bound : env_.udp().local_endpoints()) {
    if (!bound.address().IsUnspecified()) {
      addresses.push_back(bound.ToString());
      continue;
    }
    for (const Address& address : InterfaceAddresses(bound.address().is_v4())) {
      addresses.push_back(Endpoint(address, bound.port()).ToString());
    }
  }
  return addresses;
}

nlohmann::json Daemon::NodeInfo() const {
  const auto table = node_->routing_table().stats();
  nlohmann::json listen = nlohmann::json::array();
  for (const Endpoint& e : env_.udp().local_endpoints()) listen.push_back(e.ToString());
  nlohmann::json peers = nlohmann::json::array();
  for (const HostPort& peer : config_.discovery.dht.bootstrap_nodes) {
    peers.push_back(peer.ToString());
  }
  const TimePoint retry_at = bootstrapper_->retry_at();
  nlohmann::json info = {
      {"id", node_->id().ToHex()},
      {"version", kVersion},
      {"network_id", config_.node.network_id},
      {"addresses", Addresses()},
      {"listen", std::move(listen)},
      {"observed_address", node_->observed_address()
                               ? nlohmann::json(node_->observed_address()->ToString())
                               : nlohmann::json(nullptr)},
      {"http", http_url()},
      {"https", https_ != nullptr ? nlohmann::json(https_url()) : nlohmann::json(nullptr)},
      {"uptime_s", WholeSeconds(Now() - started_at_)},
      {"data_dir", data_dir_->path()},
      {"routing_table",
       {{"contacts", table.contacts},
        {"buckets", table.buckets},
        {"replacements", table.replacements}}},
      {"dht",
       {{"enabled", config_.discovery.dht.enabled},
        {"bootstrap_phase", bootstrap::BootstrapPhaseName(bootstrapper_->phase())},
        {"bootstrap_peers", std::move(peers)},
        {"bootstrap_attempts", bootstrapper_->attempts()},
        {"retry_in_s", retry_at == kTimeNever
                           ? nlohmann::json(nullptr)
                           : nlohmann::json(RoundedMillis(retry_at - Now()) / 1000.0)},
        {"lookups_active", node_->active_lookups()},
        {"rpcs_in_flight", node_->rpcs_in_flight()}}},
      {"store",
       {{"records", dht_->store().records()},
        {"bytes", dht_->store().bytes()},
        {"keys", dht_->store().keys()},
        {"published", dht_->published()},
        {"listeners", dht_->listeners()}}},
      {"dnssd", dnssd_.Info()},
  };
  for (const auto& [key, section] : info_sections_) info[key] = section();
  return info;
}

std::string Daemon::Metrics() const {
  PrometheusWriter out;
  out.Family("skillnode_info", "gauge", "Constant 1, labelled with the node's id and version.");
  out.Sample("skillnode_info",
             {{"id", node_->id().ToHex()},
              {"version", kVersion},
              {"network_id", std::to_string(config_.node.network_id)}},
             1);
  out.Gauge("skillnode_uptime_seconds", "Seconds since the node started.",
            ToMillis(Now() - started_at_) / 1000.0);
  WriteNodeMetrics(out, *node_, env_.udp().stats());
  out.Counter("skillnode_bootstrap_attempts_total", "Attempts to join through bootstrap peers.",
              static_cast<double>(bootstrapper_->attempts()));
  out.Counter("skillnode_bootstrap_joins_total", "Joins that found contacts.",
              static_cast<double>(bootstrapper_->joins()));
  out.Counter("skillnode_state_saves_total", "Routing table saves to the data directory.",
              static_cast<double>(saves_));
  out.Counter("skillnode_state_save_failures_total", "Routing table saves that failed.",
              static_cast<double>(save_failures_));
  out.Family("skillnode_config_reloads_total", "counter",
             "Configuration reloads (SIGHUP): applied, or refused with the running one kept.");
  out.Sample("skillnode_config_reloads_total", {{"outcome", "applied"}},
             static_cast<double>(reloads_applied_));
  out.Sample("skillnode_config_reloads_total", {{"outcome", "refused"}},
             static_cast<double>(reloads_refused_));
  WriteStoreMetrics(out, *dht_);
  dnssd_.WriteMetrics(out);
  http_metrics_.Write(out, http_.connections() + (https_ != nullptr ? https_->connections() : 0),
                      http_.closing() + (https_ != nullptr ? https_->closing() : 0));
  for (const MetricsSection& section : metrics_sections_) section(out);
  return out.Take();
}

void Daemon::HandleLookup(const HttpRequest& request, Responder responder) {
  const auto text = request.Query("key");
  if (!text) {
    return responder.Error(400, "BAD_REQUEST", "query parameter 'key' is required (64 hex digits)",
                           {{"field", "key"}});
  }
  auto key = kademlia::Key::FromHex(*text);
  if (!key) {
    return responder.Error(400, "BAD_REQUEST", "key: " + key.error().message,
                           {{"field", "key"}, {"value", *text}});
  }
  if (!config_.discovery.dht.enabled) {
    return responder.Error(503, "DHT_DISABLED", "the DHT is disabled on this node");
  }
  const bool started =
      node_->FindNode(Now(), *key, [responder](const kademlia::LookupResult& result) mutable {
        nlohmann::json closest = nlohmann::json::array();
        for (const auto& contact : result.closest) closest.push_back(ContactJson(contact));
        responder.Json(200, {{"key", result.target.ToHex()},
                             {"closest", std::move(closest)},
                             {"hops", result.stats.hops},
                             {"messages", result.stats.messages},
                             {"replies", result.stats.replies},
                             {"failures", result.stats.failures},
                             {"duration_ms", RoundedMillis(result.stats.duration)}});
      });
  if (!started) {
    responder.Error(503, "BUSY", "too many lookups are running; try again",
                    {{"lookups_max", config_.node.kademlia.lookups_max}});
  }
}

}  // namespace skillnode::node
