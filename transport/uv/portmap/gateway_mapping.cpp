#include "transport/uv/portmap/gateway_mapping.h"

#include "transport/uv/portmap/natpmp_client.h"
#include "transport/uv/portmap/upnp_client.h"

namespace skillnode::transport::uv::portmap {

std::string_view GatewayProtocolName(GatewayProtocol protocol) {
  switch (protocol) {
    case GatewayProtocol::kNatPmp:
      return "nat-pmp";
    case GatewayProtocol::kUpnp:
      return "upnp";
  }
  return "nat-pmp";
}

ExchangeBudget ExchangeBudget::Within(Duration length, const std::atomic<bool>* cancelled) {
  return ExchangeBudget{std::chrono::steady_clock::now() +
                            std::chrono::duration_cast<std::chrono::steady_clock::duration>(length),
                        cancelled};
}

bool ExchangeBudget::Spent() const {
  return (cancelled != nullptr && cancelled->load(std::memory_order_relaxed)) ||
         std::chrono::steady_clock::now() >= deadline;
}

Result<GatewayMapping> Renew(const GatewayMapping& mapping, const ExchangeBudget& budget) {
  switch (mapping.protocol) {
    case GatewayProtocol::kNatPmp:
      return MapWithNatPmp(mapping.internal_port, mapping.lifetime_s, budget);
    case GatewayProtocol::kUpnp:
      return RenewWithUpnp(mapping, budget);
  }
  return Fail(ErrorCode::kInternal, "unknown gateway protocol");
}

Result<bool> Unmap(const GatewayMapping& mapping, const ExchangeBudget& budget) {
  switch (mapping.protocol) {
    case GatewayProtocol::kNatPmp:
      return UnmapWithNatPmp(mapping.internal_port, budget);
    case GatewayProtocol::kUpnp:
      return UnmapWithUpnp(mapping, budget);
  }
  return Fail(ErrorCode::kInternal, "unknown gateway protocol");
}

}  // namespace skillnode::transport::uv::portmap
