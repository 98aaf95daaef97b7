// DnsSdAdvertiser: advertises this node on the LAN as a DNS-SD service (skill-discovery-protocol
// §1.2) through the host's Avahi daemon: libavahi-client over D-Bus, on our loop (UvAvahiPoll).
//
//   instance "skillnode <first 12 hex of the node id>", type _skillnode._udp, port = DHT UDP port
//   TXT node_id=<64 hex> network_id=<n> dht_port=<p> http=<API URL> version=<version>
//
// Where Avahi is missing the node runs as usual, unadvertised, and says so in one info line,
// "DNS-SD: no Avahi daemon (<why>): not advertised". The client is made with
// AVAHI_CLIENT_NO_FAIL, so with D-Bus up but no avahi-daemon it waits (state "no daemon") and
// registers when the daemon appears. With no system D-Bus at all avahi_client_new() fails
// (NO_FAIL covers the daemon, not the bus); then it is tried again every kDnsSdRetryInterval,
// quietly. When the daemon goes away (client FAILURE, AVAHI_ERR_DISCONNECTED) the client is freed
// and made anew, as Avahi's documentation asks, and the service comes back with the daemon. While
// the daemon (re)registers its host name (S_REGISTERING, S_COLLISION) the service is withdrawn and
// registered again when it is RUNNING. A name another host already uses (entry group COLLISION, or
// AVAHI_ERR_COLLISION when adding) moves to avahi_alternative_service_name() ("... #2"), at most
// kDnsSdRenamesMax times.
//
// libavahi-client makes some D-Bus calls blocking (creating the group, adding the service,
// committing): round trips to a local daemon of well under a millisecond each, a few per
// (re)registration; a hung daemon would stall the loop for up to D-Bus's 25 s reply timeout.
//
// Close() frees the client (the daemon then withdraws the service with goodbye packets) and
// closes every handle. Non-copyable, non-movable; loop thread only.
#ifndef SKILLNODE_NODE_LAN_DNS_SD_H_
#define SKILLNODE_NODE_LAN_DNS_SD_H_

#include <avahi-client/client.h>
#include <avahi-client/publish.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "node/http/prometheus.h"
#include "transport/clock.h"
#include "transport/logger.h"
#include "transport/uv/uv_avahi_poll.h"
#include "transport/uv/uv_loop.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::node::lan {

constexpr std::string_view kDnsSdServiceType = "_skillnode._udp";
// Without a system D-Bus nothing tells us when one appears: a failed connect costs one
// connect(2) on a missing socket, so trying twice a minute is free and soon enough.
constexpr transport::Duration kDnsSdRetryInterval = transport::Seconds(30);
// After the daemon dropped us: long enough that a daemon failing at once cannot make a busy loop,
// short enough that a restarted daemon sees the service again within its own start-up time.
constexpr transport::Duration kDnsSdReconnectDelay = transport::Seconds(1);
// Each rename is a new probe on the LAN (~750 ms); a network that claims every name we try is
// broken or hostile, and after this many we stop and say so.
constexpr int kDnsSdRenamesMax = 16;

// What is advertised.
struct DnsSdService {
  std::string node_id_hex;  // 64 hex digits
  uint32_t network_id = 0;
  uint16_t dht_port = 0;
  std::string http_url;
  std::string version;
};

enum class DnsSdState {
  kOff,          // not started (discovery.mdns.enabled: false, or no DHT socket)
  kNoDaemon,     // no Avahi daemon (or no D-Bus) reachable: waiting for one
  kRegistering,  // the daemon is probing our name
  kAdvertised,   // established on the LAN
  kCollision,    // our name was taken: renamed and probing again, or gave up (see renames)
  kFailed,       // Avahi refused; tried again after kDnsSdRetryInterval
  kClosed,
};
std::string_view DnsSdStateName(DnsSdState state);

class DnsSdAdvertiser {
 public:
  DnsSdAdvertiser(transport::uv::UvLoop& loop, transport::Logger& logger);
  DnsSdAdvertiser(const DnsSdAdvertiser&) = delete;
  DnsSdAdvertiser& operator=(const DnsSdAdvertiser&) = delete;
  ~DnsSdAdvertiser();

  // Once, from the loop thread, with the node's sockets open.
  void Start(DnsSdService service);
  void Close();

  DnsSdState state() const { return state_; }
  const std::string& name() const { return name_; }
  // GET /api/node's "dnssd": {"state", "name", "type", "port", "collisions", "renames"}.
  nlohmann::json Info() const;
  // skillnode_dnssd_advertised, skillnode_dnssd_registrations_total,
  // skillnode_dnssd_collisions_total.
  void WriteMetrics(http::PrometheusWriter& out) const;

 private:
  static void OnClientState(AvahiClient* client, AvahiClientState state, void* userdata);
  static void OnGroupState(AvahiEntryGroup* group, AvahiEntryGroupState state, void* userdata);

  void Connect();
  void FreeClient();
  void Register(AvahiClient* client);
  [[nodiscard]] int AddService();
  // Moves to the alternative name; false when kDnsSdRenamesMax is reached.
  bool Rename();
  void NotAdvertised(const std::string& why);
  void Fail(const std::string& what, int error);
  void Log(transport::LogLevel level, const std::string& message);

  transport::Logger& logger_;
  transport::uv::UvAvahiPoll poll_;
  transport::uv::UvTimer retry_timer_;
  DnsSdService service_;
  std::string name_;
  AvahiClient* client_ = nullptr;
  AvahiEntryGroup* group_ = nullptr;  // owned by client_
  DnsSdState state_ = DnsSdState::kOff;
  bool absence_reported_ = false;  // the "no Avahi daemon" line is out; reset once advertised
  bool failure_reported_ = false;
  uint64_t registrations_ = 0;
  uint64_t collisions_ = 0;
  int renames_ = 0;
};

}  // namespace skillnode::node::lan

#endif  // SKILLNODE_NODE_LAN_DNS_SD_H_
