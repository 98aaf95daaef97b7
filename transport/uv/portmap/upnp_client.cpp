#include "transport/uv/portmap/upnp_client.h"

#include <miniupnpc/miniupnpc.h>
#include <miniupnpc/upnpcommands.h>
#include <miniupnpc/upnperrors.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <string>

namespace skillnode::transport::uv::portmap {

namespace {

constexpr const char* kDescription = "skillnode";
// The one device type searched for: every Internet gateway device answers a search for version 1
// (a device answers searches for the versions below its own). upnpDiscover would search for four
// types in turn, and the library waits at least 1 s for each: 4 s when no gateway answers.
const char* const kSearchedTypes[] = {"urn:schemas-upnp-org:device:InternetGatewayDevice:1",
                                      nullptr};
// UPnP error 725, OnlyPermanentLeasesSupported: the gateway takes lease 0 only.
constexpr int kOnlyPermanentLeases = 725;

std::string Describe(int code) {
  const char* text = strupnperror(code);
  return text != nullptr ? std::string(text) + " (" + std::to_string(code) + ")"
                         : "UPnP error " + std::to_string(code);
}

struct DevlistFree {
  void operator()(UPNPDev* list) const { freeUPNPDevlist(list); }
};

// The external address the gateway reports, with `port`.
Result<Endpoint> ExternalOf(const GatewayMapping& mapping, uint16_t port) {
  std::array<char, 64> text{};
  const int got = UPNP_GetExternalIPAddress(mapping.upnp_control_url.c_str(),
                                            mapping.upnp_service_type.c_str(), text.data());
  if (got != UPNPCOMMAND_SUCCESS) {
    return Fail(ErrorCode::kRefused, "UPnP external address: " + Describe(got));
  }
  auto address = Address::Parse(text.data());
  if (!address) {
    return Fail(ErrorCode::kParse,
                "UPnP external address: not an address: '" + std::string(text.data()) + "'");
  }
  return Endpoint(*address, port);
}

// AddPortMapping of `mapping` (its internal port, same external port) for `lifetime_s`,
// falling back to a permanent lease where the gateway takes only those.
Result<GatewayMapping> Add(GatewayMapping mapping, uint32_t lifetime_s) {
  const std::string port = std::to_string(mapping.internal_port);
  std::string lease = std::to_string(lifetime_s);
  int added =
      UPNP_AddPortMapping(mapping.upnp_control_url.c_str(), mapping.upnp_service_type.c_str(),
                          port.c_str(), port.c_str(), mapping.upnp_internal_host.c_str(),
                          kDescription, "UDP", nullptr, lease.c_str());
  if (added == kOnlyPermanentLeases && lifetime_s != 0) {
    lifetime_s = 0;
    lease = "0";
    added = UPNP_AddPortMapping(mapping.upnp_control_url.c_str(), mapping.upnp_service_type.c_str(),
                                port.c_str(), port.c_str(), mapping.upnp_internal_host.c_str(),
                                kDescription, "UDP", nullptr, lease.c_str());
  }
  if (added != UPNPCOMMAND_SUCCESS) {
    return Fail(ErrorCode::kRefused, "UPnP AddPortMapping of UDP " + port + ": " + Describe(added));
  }
  auto external = ExternalOf(mapping, mapping.internal_port);
  if (!external) return tl::unexpected(external.error());
  mapping.external = *external;
  mapping.lifetime_s = lifetime_s;
  return mapping;
}

}  // namespace

Result<GatewayMapping> MapWithUpnp(uint16_t internal_port, uint32_t lifetime_s,
                                   const ExchangeBudget& budget) {
  if (budget.Spent()) return Fail(ErrorCode::kCancelled, "UPnP: stopped before the search");
  const int delay_ms = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(kUpnpDiscoveryWait).count());
  int error = 0;
  std::unique_ptr<UPNPDev, DevlistFree> devices(upnpDiscoverDevices(
      kSearchedTypes, delay_ms, nullptr, nullptr, UPNP_LOCAL_PORT_ANY, 0, 2, &error, 0));
  if (!devices) {
    return Fail(ErrorCode::kNotFound,
                "UPnP: no gateway answered the search (" + std::to_string(delay_ms) + " ms)");
  }
  UPNPUrls urls{};
  IGDdatas data{};
  std::array<char, 64> lan_address{};
#if MINIUPNPC_API_VERSION >= 18
  // miniupnpc 2.2.8 added the WAN address argument and renumbered the answers (1: connected
  // with a public address, 2: connected with a private one, 3: not connected, 4: not an IGD).
  std::array<char, 64> wan_address{};
  int found = UPNP_GetValidIGD(devices.get(), &urls, &data, lan_address.data(),
                               static_cast<int>(lan_address.size()), wan_address.data(),
                               static_cast<int>(wan_address.size()));
  if (found == 2)
    found = 1;
  else if (found == 3)
    found = 2;
  else if (found == 4)
    found = 3;
#else
  const int found = UPNP_GetValidIGD(devices.get(), &urls, &data, lan_address.data(),
                                     static_cast<int>(lan_address.size()));
#endif
  if (found == 0) return Fail(ErrorCode::kNotFound, "UPnP: no Internet gateway device found");
  GatewayMapping mapping;
  mapping.protocol = GatewayProtocol::kUpnp;
  mapping.internal_port = internal_port;
  mapping.upnp_control_url = urls.controlURL != nullptr ? urls.controlURL : "";
  mapping.upnp_service_type = data.first.servicetype;
  mapping.upnp_internal_host = lan_address.data();
  FreeUPNPUrls(&urls);
  if (budget.Spent()) return Fail(ErrorCode::kCancelled, "UPnP: stopped after the search");
  if (found != 1) {
    return Fail(ErrorCode::kNotFound, found == 2
                                          ? "UPnP: the gateway says it is not connected"
                                          : "UPnP: the device found is not an Internet gateway");
  }
  return Add(std::move(mapping), lifetime_s);
}

Result<GatewayMapping> RenewWithUpnp(const GatewayMapping& mapping, const ExchangeBudget& budget) {
  if (budget.Spent()) return Fail(ErrorCode::kCancelled, "UPnP renewal: stopped");
  return Add(mapping, mapping.lifetime_s);
}

Result<bool> UnmapWithUpnp(const GatewayMapping& mapping, const ExchangeBudget& budget) {
  if (budget.Spent()) return Fail(ErrorCode::kCancelled, "UPnP removal: no time left");
  const std::string port = std::to_string(mapping.internal_port);
  const int deleted =
      UPNP_DeletePortMapping(mapping.upnp_control_url.c_str(), mapping.upnp_service_type.c_str(),
                             port.c_str(), "UDP", nullptr);
  if (deleted != UPNPCOMMAND_SUCCESS) {
    return Fail(ErrorCode::kRefused,
                "UPnP DeletePortMapping of UDP " + port + ": " + Describe(deleted));
  }
  return true;
}

}  // namespace skillnode::transport::uv::portmap
