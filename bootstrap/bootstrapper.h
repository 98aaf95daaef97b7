// Bootstrapper: gets a node into the network and back into it whenever it falls out.
//
// A step function like kademlia::Node: the Env calls OnTimer(now) at NextDeadline() and never
// anything else on a clock; DNS answers and join results that arrive in between are recorded
// and acted on at the next OnTimer (NextDeadline() then says "now"). So it runs unchanged on
// libuv and in the simulator, and tests drive it with a virtual clock.
//
// An attempt first joins through remembered contacts (the saved routing table at start, the
// last contacts seen when the table has since emptied), then, if none answered, through the
// configured bootstrap peers: literal addresses directly, names resolved through the injected
// Resolver (IPv4 and IPv6). When nothing answers, the next attempt waits for an exponential
// back-off with jitter (backoff.h). Once joined, the routing table is checked every
// `table_check_interval`; an empty table starts a new attempt. With no peers and no
// remembered contacts the node is standalone: it waits for others to join through it.
//
// Every log line about a peer names it. Not thread-safe.
#ifndef SKILLNODE_BOOTSTRAP_BOOTSTRAPPER_H_
#define SKILLNODE_BOOTSTRAP_BOOTSTRAPPER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bootstrap/backoff.h"
#include "kademlia/contact.h"
#include "kademlia/node.h"
#include "transport/endpoint.h"
#include "transport/logger.h"
#include "transport/resolver.h"
#include "transport/rng.h"

namespace skillnode::bootstrap {

// Remembered contacts pinged in one attempt: one live contact is enough to rejoin, and 64
// random ones find one even when most of a saved table has gone.
constexpr size_t kRememberedContactsTriedMax = 64;
// LAN peers remembered for later attempts: a LAN of this many nodes is plenty to rejoin by.
constexpr size_t kLanPeersMax = 64;

struct BootstrapConfig {
  std::vector<transport::HostPort> peers;
  BackoffConfig backoff;
  // How often a joined node checks that its routing table still holds someone.
  transport::Duration table_check_interval = transport::Seconds(5);
  // When a joined node repeats its own-id lookup: long enough for peers that joined with it
  // to have been verified by the others (a few round trips), short enough to matter.
  transport::Duration settle_delay = transport::Seconds(3);
  size_t remembered_tried_max = kRememberedContactsTriedMax;
};

enum class BootstrapPhase {
  kIdle,        // Start() not called yet
  kRemembered,  // joining through remembered contacts
  kResolving,   // resolving bootstrap peer names
  kJoining,     // joining through bootstrap peers
  kWaiting,     // the last attempt failed; waiting to retry
  kJoined,      // the routing table holds contacts
  kStandalone,  // nobody to join through; waiting to be contacted
  kStopped,
};
std::string_view BootstrapPhaseName(BootstrapPhase phase);

class Bootstrapper {
 public:
  Bootstrapper(BootstrapConfig config, kademlia::Node& node, transport::Resolver& resolver,
               transport::Rng& rng, transport::Logger& logger);
  Bootstrapper(const Bootstrapper&) = delete;
  Bootstrapper& operator=(const Bootstrapper&) = delete;
  ~Bootstrapper();

  // Begins with `saved` (the saved routing table, possibly empty).
  void Start(transport::TimePoint now, std::span<const kademlia::Contact> saved);
  void OnTimer(transport::TimePoint now);
  // kTimeZero when something is ready to act on now; kTimeNever when idle or stopped.
  transport::TimePoint NextDeadline() const;
  // No more attempts; callbacks still in flight are ignored.
  void Stop();
  // A node heard on the LAN (zero configuration: its DHT endpoint from a SKILLNODE_HELLO).
  // A node with an empty routing table that is not in the middle of an attempt (standalone, or
  // waiting to retry) joins through it at once; a node with contacts joins through it too, once
  // per new peer, so that two groups that formed apart on one LAN meet. Returns true when it
  // started a join. At most kLanPeersMax peers are remembered for later attempts.
  bool OnLanPeer(transport::TimePoint now, const transport::Endpoint& peer);
  // New bootstrap peers (a configuration reload). A node with no contacts that is standalone or
  // waiting to retry tries them at once, with its back-off reset; otherwise they are used from
  // the next attempt (an attempt running now finishes with the old ones). Logs which.
  void SetPeers(transport::TimePoint now, std::vector<transport::HostPort> peers);
  const std::vector<transport::HostPort>& peers() const { return config_.peers; }
  uint64_t lan_joins() const { return lan_joins_; }

  BootstrapPhase phase() const { return phase_; }
  // Attempts through the bootstrap peers so far, and joins that found contacts.
  uint64_t attempts() const { return attempts_; }
  uint64_t joins() const { return joins_; }
  // When the next attempt starts (phase kWaiting), else kTimeNever.
  transport::TimePoint retry_at() const {
    return phase_ == BootstrapPhase::kWaiting ? retry_at_ : transport::kTimeNever;
  }

 private:
  void JoinRemembered(transport::TimePoint now);
  void BeginPeerAttempt(transport::TimePoint now);
  void JoinResolved(transport::TimePoint now);
  void Join(transport::TimePoint now, std::vector<transport::Endpoint> seeds, BootstrapPhase phase);
  void OnJoinResult(transport::TimePoint now, size_t contacts);
  void Joined(transport::TimePoint now, size_t contacts);
  void ScheduleRetry(transport::TimePoint now, const std::string& reason);
  void CheckTable(transport::TimePoint now);
  void Remember();
  void Log(transport::LogLevel level, const std::string& message);

  BootstrapConfig config_;
  kademlia::Node& node_;
  transport::Resolver& resolver_;
  transport::Rng& rng_;
  transport::Logger& logger_;
  Backoff backoff_;
  // Shared with callbacks, which do nothing once it is false (Stop or destruction).
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);

  BootstrapPhase phase_ = BootstrapPhase::kIdle;
  uint64_t generation_ = 0;  // bumped per join/resolve round; stale callbacks are ignored
  uint64_t attempts_ = 0;
  uint64_t joins_ = 0;
  std::vector<transport::Endpoint> remembered_;
  std::vector<transport::Endpoint> lan_peers_;
  uint64_t lan_joins_ = 0;
  std::vector<transport::Endpoint> resolved_;
  size_t resolves_pending_ = 0;
  std::optional<size_t> join_result_;
  transport::TimePoint retry_at_ = transport::kTimeNever;
  transport::TimePoint next_check_ = transport::kTimeNever;
  transport::TimePoint settle_at_ = transport::kTimeNever;
};

}  // namespace skillnode::bootstrap

#endif  // SKILLNODE_BOOTSTRAP_BOOTSTRAPPER_H_
