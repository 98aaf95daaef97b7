// PortMapper: keeps a UDP port of this host mapped on its Internet gateway, so that a node behind
// a home router that offers NAT-PMP or UPnP IGD becomes reachable (docs/protocol.md
// "Reachability"). It asks NAT-PMP first (one datagram to the default gateway), then UPnP (an
// SSDP search and SOAP calls), renews the mapping at half its lifetime (a permanent UPnP lease
// is added again every permanent_check, in case the gateway restarted), maps again from the
// start when a renewal fails, and removes the mapping on Stop() (the daemon's SIGTERM).
//
// The clients block (gateway_mapping.h), so each exchange runs on libuv's thread pool, one at a
// time; its answer comes back on the loop thread. Stop() cuts a search or renewal in flight short
// (its budget's flag: NAT-PMP within 100 ms, UPnP after the device type it is waiting for), then
// removes whatever is held, within removal_budget. `changed` runs on the loop thread whenever the
// mapping appears, moves or goes. A PortMapper destroyed while an exchange runs drops its answer.
//
// Loop thread only.
#ifndef SKILLNODE_TRANSPORT_UV_PORTMAP_PORT_MAPPER_H_
#define SKILLNODE_TRANSPORT_UV_PORTMAP_PORT_MAPPER_H_

#include <uv.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "transport/clock.h"
#include "transport/logger.h"
#include "transport/result.h"
#include "transport/uv/portmap/gateway_mapping.h"
#include "transport/uv/uv_loop.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::transport::uv::portmap {

struct PortMapperConfig {
  uint32_t lifetime_s = 3600;                   // asked of the gateway
  Duration budget = Seconds(3);                 // per protocol and exchange
  Duration removal_budget = Seconds(1);         // the removal at Stop (the daemon allows 1.2 s)
  Duration retry_after = Seconds(5 * 60);       // after no gateway mapped the port
  Duration permanent_check = Seconds(30 * 60);  // a permanent lease is added again this often
  Duration renew_min = Seconds(60);             // the soonest a renewal is scheduled
};

enum class MappingState : uint8_t {
  kIdle,       // not started
  kSearching,  // asking the gateway (NAT-PMP, then UPnP); no mapping held
  kMapped,     // a mapping is held; a renewal is scheduled
  kRenewing,   // a mapping is held and being renewed
  kNoGateway,  // no gateway mapped the port; trying again after retry_after
  kRemoving,   // Stop(): the mapping is being removed
  kStopped,
};

// "idle", "searching", "mapped", ...: the API's and the metrics' names.
std::string_view MappingStateName(MappingState state);

class PortMapper {
 public:
  using Changed = std::function<void(const std::optional<GatewayMapping>&)>;

  PortMapper(UvLoop& loop, PortMapperConfig config, Logger& logger, Changed changed);
  ~PortMapper();
  PortMapper(const PortMapper&) = delete;
  PortMapper& operator=(const PortMapper&) = delete;

  // Maps UDP `internal_port` and keeps it mapped.
  void Start(uint16_t internal_port);
  // Removes the mapping (waiting for an exchange in flight first), then runs `done`; at once
  // when nothing is mapped.
  void Stop(std::function<void()> done);

  // Closes the timer and drops the answer of an exchange in flight (it still ends on the thread
  // pool): for the daemon's closing of its handles, after Stop had its budget.
  void Close();

  MappingState state() const { return state_; }
  const std::optional<GatewayMapping>& mapping() const { return mapping_; }
  // Why the last exchange failed (empty after a success).
  const std::string& last_error() const { return last_error_; }
  uint64_t renewals() const { return renewals_; }

 private:
  enum class Exchange : uint8_t { kMap, kRenew, kUnmap };
  struct Job;

  void Run(Exchange exchange);
  static void Work(uv_work_t* request);
  static void AfterWork(uv_work_t* request, int status);
  void OnMapped(Result<GatewayMapping> answer, bool renewal);
  void OnUnmapped(const Result<bool>& answer);
  void Schedule(Duration delay, Exchange exchange);
  void Set(std::optional<GatewayMapping> mapping);
  void Log(LogLevel level, const std::string& message);

  UvLoop& loop_;
  PortMapperConfig config_;
  Logger& logger_;
  Changed changed_;
  UvTimer timer_;
  std::shared_ptr<PortMapper*> owner_;
  MappingState state_ = MappingState::kIdle;
  uint16_t internal_port_ = 0;
  std::optional<GatewayMapping> mapping_;
  std::string last_error_;
  uint64_t renewals_ = 0;
  std::function<void()> stopped_;  // set by Stop(): run once the removal is done
  // The flag of the exchange in flight (shared with its job): set by Stop() to cut it short.
  std::shared_ptr<std::atomic<bool>> cancel_;
};

}  // namespace skillnode::transport::uv::portmap

#endif  // SKILLNODE_TRANSPORT_UV_PORTMAP_PORT_MAPPER_H_
