#include "node/daemon/node_api.h"

#include <uv.h>

#include <chrono>
#include <cstring>

#include "node/node_metrics.h"

namespace skillnode::node::daemon {
namespace {

int64_t WholeSeconds(transport::Duration d) {
  return std::chrono::duration_cast<std::chrono::seconds>(d).count();
}

// The addresses of this host's interfaces of one family (IPv6 link-local left out: they need
// a scope to be usable).
std::vector<transport::Address> InterfaceAddresses(bool v4) {
  std::vector<transport::Address> out;
  uv_interface_address_t* interfaces = nullptr;
  int count = 0;
  if (uv_interface_addresses(&interfaces, &count) != 0) return out;
  for (int i = 0; i < count; ++i) {
    const auto* address = reinterpret_cast<const sockaddr*>(&interfaces[i].address);
    if ((address->sa_family == AF_INET) != v4) continue;
    std::array<uint8_t, 16> bytes{};
    if (v4) {
      std::memcpy(bytes.data(), &interfaces[i].address.address4.sin_addr, 4);
      out.push_back(transport::Address::V4({bytes[0], bytes[1], bytes[2], bytes[3]}));
    } else {
      std::memcpy(bytes.data(), &interfaces[i].address.address6.sin6_addr, 16);
      const transport::Address a = transport::Address::V6(bytes);
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
  json["rtt_ms"] = contact.rtt_known() ? nlohmann::json(transport::ToMillis(contact.rtt))
                                       : nlohmann::json(nullptr);
  return json;
}

}  // namespace

void NodeApi::AddTo(http::Router& router) {
  router.Add("GET", "/health", [this](const http::HttpRequest&, http::Responder responder) {
    responder.Json(200, {{"status", "ok"},
                         {"uptime_s", WholeSeconds(parts_.env.Now() - parts_.started_at)},
                         {"dht", bootstrap::BootstrapPhaseName(parts_.bootstrapper.phase())},
                         {"contacts", parts_.node.routing_table().size()}});
  });
  router.Add("GET", "/api/node", [this](const http::HttpRequest&, http::Responder responder) {
    responder.Json(200, NodeInfo());
  });
  router.Add("GET", "/metrics", [this](const http::HttpRequest&, http::Responder responder) {
    responder.Send(
        http::HttpResponse::Text(200, Metrics(), std::string(http::kPrometheusContentType)));
  });
  router.Add("GET", "/api/dht/lookup",
             [this](const http::HttpRequest& request, http::Responder responder) {
               HandleLookup(request, std::move(responder));
             });
  router.Add("GET", "/api/dht/contacts",
             [this](const http::HttpRequest&, http::Responder responder) {
               nlohmann::json contacts = nlohmann::json::array();
               for (const auto& contact : parts_.node.routing_table().Export()) {
                 contacts.push_back(TableContactJson(contact, parts_.node.id()));
               }
               responder.Json(200, {{"contacts", std::move(contacts)}});
             });
}

void NodeApi::AddInfo(std::string key, NodeInfoSection section) {
  info_sections_.emplace_back(std::move(key), std::move(section));
}

std::string NodeApi::http_url() const {
  return parts_.config.node.http.enabled || !parts_.https.open() ? parts_.http.url()
                                                                 : parts_.https.url();
}

nlohmann::json NodeApi::Addresses() const {
  nlohmann::json addresses = nlohmann::json::array();
  for (const transport::Endpoint& bound : parts_.env.udp().local_endpoints()) {
    if (!bound.address().IsUnspecified()) {
      addresses.push_back(bound.ToString());
      continue;
    }
    for (const transport::Address& address : InterfaceAddresses(bound.address().is_v4())) {
      addresses.push_back(transport::Endpoint(address, bound.port()).ToString());
    }
  }
  return addresses;
}

nlohmann::json NodeApi::DhtInfo() const {
  nlohmann::json peers = nlohmann::json::array();
  for (const transport::HostPort& peer : parts_.config.discovery.dht.bootstrap_nodes) {
    peers.push_back(peer.ToString());
  }
  const transport::TimePoint retry_at = parts_.bootstrapper.retry_at();
  return {{"enabled", parts_.config.discovery.dht.enabled},
          {"bootstrapPhase", bootstrap::BootstrapPhaseName(parts_.bootstrapper.phase())},
          {"bootstrapPeers", std::move(peers)},
          {"bootstrapAttempts", parts_.bootstrapper.attempts()},
          {"retryInSeconds",
           retry_at == transport::kTimeNever
               ? nlohmann::json(nullptr)
               : nlohmann::json(transport::ToMillis(retry_at - parts_.env.Now()) / 1000.0)},
          {"lookupsActive", parts_.node.active_lookups()},
          {"rpcsInFlight", parts_.node.rpcs_in_flight()}};
}

nlohmann::json NodeApi::NodeInfo() const {
  const auto table = parts_.node.routing_table().stats();
  nlohmann::json listen = nlohmann::json::array();
  for (const transport::Endpoint& e : parts_.env.udp().local_endpoints())
    listen.push_back(e.ToString());
  const auto& observed = parts_.node.observed_address();
  const kademlia::store::SkillDht& dht = parts_.dht;
  nlohmann::json info = {
      {"id", parts_.node.id().ToHex()},
      {"version", kVersion},
      {"networkId", parts_.config.node.network_id},
      {"addresses", Addresses()},
      {"listen", std::move(listen)},
      {"observedAddress",
       observed ? nlohmann::json(observed->ToString()) : nlohmann::json(nullptr)},
      {"http", http_url()},
      {"https", parts_.https.open() ? nlohmann::json(parts_.https.url()) : nlohmann::json(nullptr)},
      {"uptimeSeconds", WholeSeconds(parts_.env.Now() - parts_.started_at)},
      {"dataDir", parts_.data_dir.path()},
      {"routingTable",
       {{"contacts", table.contacts},
        {"buckets", table.buckets},
        {"replacements", table.replacements}}},
      {"dht", DhtInfo()},
      {"store",
       {{"records", dht.store().records()},
        {"bytes", dht.store().bytes()},
        {"keys", dht.store().keys()},
        {"published", dht.published()},
        {"listeners", dht.listeners()}}},
      {"dnssd", parts_.dnssd.Info()},
  };
  for (const auto& [key, section] : info_sections_) info[key] = section();
  AddOldNodeInfoNames(info);
  return info;
}

std::string NodeApi::Metrics() const {
  http::PrometheusWriter out;
  out.Family("skillnode_info", "gauge", "Constant 1, labelled with the node's id and version.");
  out.Sample("skillnode_info",
             {{"id", parts_.node.id().ToHex()},
              {"version", kVersion},
              {"network_id", std::to_string(parts_.config.node.network_id)}},
             1);
  out.Gauge("skillnode_uptime_seconds", "Seconds since the node started.",
            transport::ToMillis(parts_.env.Now() - parts_.started_at) / 1000.0);
  WriteNodeMetrics(out, parts_.node, parts_.env.udp().stats());
  out.Counter("skillnode_bootstrap_attempts_total", "Attempts to join through bootstrap peers.",
              static_cast<double>(parts_.bootstrapper.attempts()));
  out.Counter("skillnode_bootstrap_joins_total", "Joins that found contacts.",
              static_cast<double>(parts_.bootstrapper.joins()));
  parts_.saver.WriteMetrics(out);
  parts_.reloader.WriteMetrics(out);
  WriteStoreMetrics(out, parts_.dht);
  parts_.dnssd.WriteMetrics(out);
  parts_.http_metrics.Write(out, parts_.http.connections() + parts_.https.connections(),
                            parts_.http.closing() + parts_.https.closing());
  for (const MetricsSection& section : metrics_sections_) section(out);
  return out.Take();
}

void NodeApi::HandleLookup(const http::HttpRequest& request, http::Responder responder) {
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
  if (!parts_.config.discovery.dht.enabled) {
    return responder.Error(503, "DHT_DISABLED", "the DHT is disabled on this node");
  }
  const bool started = parts_.node.FindNode(
      parts_.env.Now(), *key, [responder](const kademlia::LookupResult& result) mutable {
        nlohmann::json closest = nlohmann::json::array();
        for (const auto& contact : result.closest) closest.push_back(ContactJson(contact));
        responder.Json(200, {{"key", result.target.ToHex()},
                             {"closest", std::move(closest)},
                             {"hops", result.stats.hops},
                             {"messages", result.stats.messages},
                             {"replies", result.stats.replies},
                             {"failures", result.stats.failures},
                             {"duration_ms", transport::ToMillis(result.stats.duration)}});
      });
  if (!started) {
    responder.Error(503, "BUSY", "too many lookups are running; try again",
                    {{"lookups_max", parts_.config.node.kademlia.lookups_max}});
  }
}

}  // namespace skillnode::node::daemon
