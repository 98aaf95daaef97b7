#include "node/reach/router_port_mapping.h"

#include <chrono>
#include <string>
#include <utility>

namespace skillnode::node::reach {

namespace {

using transport::uv::portmap::GatewayMapping;
using transport::uv::portmap::GatewayProtocolName;
using transport::uv::portmap::MappingState;
using transport::uv::portmap::MappingStateName;
using transport::uv::portmap::PortMapperConfig;

constexpr MappingState kStates[] = {MappingState::kIdle,      MappingState::kSearching,
                                    MappingState::kMapped,    MappingState::kRenewing,
                                    MappingState::kNoGateway, MappingState::kRemoving,
                                    MappingState::kStopped};

PortMapperConfig MapperConfig(const config::Config& config) {
  PortMapperConfig mapper;
  mapper.lifetime_s = static_cast<uint32_t>(
      std::chrono::duration_cast<std::chrono::seconds>(config.discovery.dht.port_mapping_lifetime)
          .count());
  return mapper;
}

}  // namespace

std::optional<uint16_t> MappablePort(const std::vector<transport::Endpoint>& sockets) {
  for (const transport::Endpoint& socket : sockets) {
    if (socket.address().is_v4() && !socket.address().IsLoopback()) return socket.port();
  }
  return std::nullopt;
}

std::unique_ptr<RouterPortMapping> RouterPortMapping::Start(Daemon& daemon) {
  const config::Config& config = daemon.config();
  std::optional<uint16_t> port;
  std::string off_because;
  if (!config.discovery.dht.enabled) {
    off_because = "the DHT is off";
  } else if (!config.discovery.dht.port_mapping) {
    off_because = "discovery.dht.portMapping is false";
  } else if (port = MappablePort(daemon.env().udp().local_endpoints()); !port) {
    off_because = "no IPv4 DHT socket outside loopback";
  }
  if (!port) {
    daemon.AddNodeInfo("portMapping", [off_because] {
      return nlohmann::json{{"state", "off"}, {"reason", off_because}};
    });
    return nullptr;
  }
  return std::unique_ptr<RouterPortMapping>(new RouterPortMapping(daemon, *port));
}

RouterPortMapping::RouterPortMapping(Daemon& daemon, uint16_t port)
    : daemon_(daemon),
      port_(port),
      mapper_(daemon.env().loop(), MapperConfig(daemon.config()), daemon.logger(),
              [this](const std::optional<GatewayMapping>& mapping) { OnChanged(mapping); }) {
  daemon_.AddNodeInfo("portMapping", [this] { return Info(); });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
  daemon_.AddShutdownStep("remove the port mapping", [this](std::function<void()> done) {
    stopping_ = true;  // the removal is no news for the verdict: the node is leaving
    mapper_.Stop(std::move(done));
  });
  daemon_.AddCloseHook([this] { mapper_.Close(); });
  mapper_.Start(port_);
}

void RouterPortMapping::OnChanged(const std::optional<GatewayMapping>&) {
  if (stopping_) return;
  // A mapping made, moved or lost changes who can reach this node: the dial-backs decide again
  // (a node behind a NAT stops being a client until they say nat again).
  daemon_.node().RecheckReachability(daemon_.Now());
}

nlohmann::json RouterPortMapping::Info() const {
  const std::optional<GatewayMapping>& mapping = mapper_.mapping();
  nlohmann::json info = {
      {"state", std::string(MappingStateName(mapper_.state()))},
      {"port", port_},
      {"protocol", mapping ? nlohmann::json(std::string(GatewayProtocolName(mapping->protocol)))
                           : nlohmann::json(nullptr)},
      {"external",
       mapping ? nlohmann::json(mapping->external.ToString()) : nlohmann::json(nullptr)},
      {"lifetimeS", mapping ? nlohmann::json(mapping->lifetime_s) : nlohmann::json(nullptr)},
      {"renewals", mapper_.renewals()},
      {"error", mapper_.last_error().empty() ? nlohmann::json(nullptr)
                                             : nlohmann::json(mapper_.last_error())},
  };
  return info;
}

void RouterPortMapping::WriteMetrics(http::PrometheusWriter& out) const {
  out.Family("skillnode_port_mapping_state", "gauge",
             "1 for the state the router port mapping is in (transport/uv/portmap)");
  for (const MappingState state : kStates) {
    out.Sample("skillnode_port_mapping_state", {{"state", std::string(MappingStateName(state))}},
               mapper_.state() == state ? 1 : 0);
  }
  out.Counter("skillnode_port_mapping_renewals_total",
              "renewals of the router port mapping that succeeded",
              static_cast<double>(mapper_.renewals()));
}

}  // namespace skillnode::node::reach
