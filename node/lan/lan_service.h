// LanService: the LAN adapter on a running node (skill-discovery-protocol §5, §10; docs/
// protocol.md "LAN"). It owns the multicast sockets (UvMulticast), the message authenticator
// and the LanAgent, and wires them to the daemon's loop: datagrams in, timers, the search's LAN
// stage, peers heard on the LAN handed to the bootstrapper (zero configuration), GET /api/node
// ("lan") and /metrics (skillnode_lan_*). With discovery.udp.enabled false nothing of it
// exists.
#ifndef SKILLNODE_NODE_LAN_LAN_SERVICE_H_
#define SKILLNODE_NODE_LAN_LAN_SERVICE_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "discovery/lan/lan_agent.h"
#include "discovery/lan/lan_auth.h"
#include "node/daemon.h"
#include "node/skill_service.h"
#include "transport/uv/uv_multicast.h"

namespace skillnode::node::lan {

// The authenticator's settings from the `security` section: reads the shared key file, the
// trusted roots and this node's certificate and key. The error names the file and the problem.
[[nodiscard]] transport::Result<discovery::lan::AuthConfig> LoadAuthConfig(
    const config::SecurityConfig& security);

// How old this host's list of addresses may get before it is read again.
constexpr transport::Duration kLocalAddressesMaxAge = transport::Seconds(10);

class LanService final : private discovery::lan::LanOutput {
 public:
  // Opens the LAN sockets and attaches to `daemon` and `skills` (which must outlive it). Fails
  // with a message naming the file or socket at fault.
  [[nodiscard]] static transport::Result<std::unique_ptr<LanService>> Create(Daemon& daemon,
                                                                             SkillService& skills);
  LanService(const LanService&) = delete;
  LanService& operator=(const LanService&) = delete;
  ~LanService() override;

 private:
  LanService(Daemon& daemon, SkillService& skills, discovery::lan::AuthConfig auth);
  [[nodiscard]] transport::Result<void> Open();
  void OnDatagram(const transport::Endpoint& from, std::span<const uint8_t> datagram);
  void SendToGroup(std::string_view datagram) override;
  void SendTo(const transport::Endpoint& to, std::string_view datagram) override;
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
  SkillService& skills_;
  transport::uv::UvMulticast multicast_;
  discovery::lan::LanAuthenticator auth_;
  std::unique_ptr<discovery::lan::LanAgent> agent_;
  std::vector<transport::Endpoint> own_;   // this node's send sockets
  std::vector<transport::Address> local_;  // this host's addresses, read at local_read_at_
  transport::TimePoint local_read_at_ = transport::kTimeZero;
  uint64_t own_datagrams_ = 0;
  bool closed_ = false;
};

}  // namespace skillnode::node::lan

#endif  // SKILLNODE_NODE_LAN_LAN_SERVICE_H_
