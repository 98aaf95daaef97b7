#include "bootstrap/bootstrapper.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace skillnode::bootstrap {
namespace {

// Endpoints listed by name in one log line; the rest are counted.
constexpr size_t kEndpointsLoggedMax = 5;
// Remembered endpoints kept from the routing table between checks.
constexpr size_t kRememberedMax = 256;

std::string ListEndpoints(std::span<const transport::Endpoint> endpoints) {
  std::string text;
  for (size_t i = 0; i < endpoints.size() && i < kEndpointsLoggedMax; ++i) {
    if (i > 0) text += ", ";
    text += endpoints[i].ToString();
  }
  if (endpoints.size() > kEndpointsLoggedMax) {
    text += " and " + std::to_string(endpoints.size() - kEndpointsLoggedMax) + " more";
  }
  return text;
}

std::string FormatSeconds(transport::Duration duration) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f s", transport::ToMillis(duration) / 1000.0);
  return text;
}

void AddUnique(std::vector<transport::Endpoint>& endpoints, const transport::Endpoint& endpoint) {
  if (std::find(endpoints.begin(), endpoints.end(), endpoint) == endpoints.end()) {
    endpoints.push_back(endpoint);
  }
}

}  // namespace

std::string_view BootstrapPhaseName(BootstrapPhase phase) {
  switch (phase) {
    case BootstrapPhase::kIdle:
      return "idle";
    case BootstrapPhase::kRemembered:
      return "joining_remembered";
    case BootstrapPhase::kResolving:
      return "resolving";
    case BootstrapPhase::kJoining:
      return "joining";
    case BootstrapPhase::kWaiting:
      return "waiting_to_retry";
    case BootstrapPhase::kJoined:
      return "joined";
    case BootstrapPhase::kStandalone:
      return "standalone";
    case BootstrapPhase::kStopped:
      return "stopped";
  }
  return "unknown";
}

Bootstrapper::Bootstrapper(BootstrapConfig config, kademlia::Node& node,
                           transport::Resolver& resolver, transport::Rng& rng,
                           transport::Logger& logger)
    : config_(std::move(config)),
      node_(node),
      resolver_(resolver),
      rng_(rng),
      logger_(logger),
      backoff_(config_.backoff) {}

Bootstrapper::~Bootstrapper() { *alive_ = false; }

void Bootstrapper::Log(transport::LogLevel level, const std::string& message) {
  if (logger_.Enabled(level)) logger_.Log(level, "bootstrap: " + message);
}

void Bootstrapper::Start(transport::TimePoint now, std::span<const kademlia::Contact> saved) {
  if (phase_ != BootstrapPhase::kIdle) return;
  for (const kademlia::Contact& contact : saved) AddUnique(remembered_, contact.endpoint);
  if (!remembered_.empty()) return JoinRemembered(now);
  if (!config_.peers.empty()) return BeginPeerAttempt(now);
  phase_ = BootstrapPhase::kStandalone;
  next_check_ = now + config_.table_check_interval;
  Log(transport::LogLevel::kInfo,
      "no bootstrap peers and no saved contacts: running standalone; other nodes can join "
      "through this one");
}

void Bootstrapper::JoinRemembered(transport::TimePoint now) {
  std::vector<transport::Endpoint> seeds = remembered_;
  rng_.Shuffle(seeds);
  if (seeds.size() > config_.remembered_tried_max) seeds.resize(config_.remembered_tried_max);
  Log(transport::LogLevel::kInfo, "joining through " + std::to_string(seeds.size()) +
                                      " remembered contacts: " + ListEndpoints(seeds));
  Join(now, std::move(seeds), BootstrapPhase::kRemembered);
}

void Bootstrapper::BeginPeerAttempt(transport::TimePoint now) {
  ++attempts_;
  ++generation_;
  phase_ = BootstrapPhase::kResolving;
  resolved_.clear();
  // One extra count held during the loop, in case a resolver answers from inside Resolve.
  resolves_pending_ = 1;
  const uint64_t generation = generation_;
  for (const transport::HostPort& peer : config_.peers) {
    if (auto literal = peer.AsEndpoint()) {
      AddUnique(resolved_, *literal);
      continue;
    }
    ++resolves_pending_;
    resolver_.Resolve(peer, [this, alive = alive_, generation,
                             peer](transport::Result<std::vector<transport::Endpoint>> result) {
      if (!*alive || generation != generation_ || phase_ != BootstrapPhase::kResolving) return;
      --resolves_pending_;
      if (!result) {
        Log(transport::LogLevel::kWarn, "peer " + peer.ToString() + ": " + result.error().message);
        return;
      }
      Log(transport::LogLevel::kDebug,
          "peer " + peer.ToString() + " resolved to " + ListEndpoints(*result));
      for (const transport::Endpoint& endpoint : *result) AddUnique(resolved_, endpoint);
    });
  }
  --resolves_pending_;
  if (resolves_pending_ == 0) JoinResolved(now);
}

void Bootstrapper::JoinResolved(transport::TimePoint now) {
  if (resolved_.empty()) return ScheduleRetry(now, "no bootstrap peer could be resolved");
  Log(transport::LogLevel::kInfo, "attempt " + std::to_string(attempts_) +
                                      ": joining through bootstrap " + "peers " +
                                      ListEndpoints(resolved_));
  Join(now, resolved_, BootstrapPhase::kJoining);
}

void Bootstrapper::Join(transport::TimePoint now, std::vector<transport::Endpoint> seeds,
                        BootstrapPhase phase) {
  ++generation_;
  phase_ = phase;
  join_result_.reset();
  const uint64_t generation = generation_;
  node_.Join(now, seeds, [this, alive = alive_, generation](size_t contacts) {
    if (!*alive || generation != generation_) return;
    join_result_ = contacts;
  });
}

void Bootstrapper::OnTimer(transport::TimePoint now) {
  switch (phase_) {
    case BootstrapPhase::kResolving:
      if (resolves_pending_ == 0) JoinResolved(now);
      break;
    case BootstrapPhase::kRemembered:
    case BootstrapPhase::kJoining:
      if (join_result_) {
        const size_t contacts = *join_result_;
        join_result_.reset();
        OnJoinResult(now, contacts);
      }
      break;
    case BootstrapPhase::kWaiting:
      if (node_.routing_table().size() > 0) {
        Joined(now, node_.routing_table().size());  // peers found us meanwhile
      } else if (now >= retry_at_) {
        remembered_.empty() ? BeginPeerAttempt(now) : JoinRemembered(now);
      }
      break;
    case BootstrapPhase::kJoined:
      if (now >= settle_at_) {
        settle_at_ = transport::kTimeNever;
        Log(transport::LogLevel::kDebug,
            "looking up our own id again to meet peers that joined with us");
        node_.FindNode(now, node_.id(), nullptr);
      }
      if (now >= next_check_) CheckTable(now);
      break;
    case BootstrapPhase::kStandalone:
      if (now >= next_check_) CheckTable(now);
      break;
    case BootstrapPhase::kIdle:
    case BootstrapPhase::kStopped:
      break;
  }
}

void Bootstrapper::OnJoinResult(transport::TimePoint now, size_t contacts) {
  if (contacts > 0) return Joined(now, contacts);
  if (phase_ == BootstrapPhase::kRemembered) {
    Log(transport::LogLevel::kWarn, "no remembered contact answered");
    if (!config_.peers.empty()) return BeginPeerAttempt(now);
    return ScheduleRetry(now, "no remembered contact answered and no bootstrap peer is set");
  }
  ScheduleRetry(now, "no bootstrap peer answered");
}

void Bootstrapper::Joined(transport::TimePoint now, size_t contacts) {
  backoff_.Reset();
  ++joins_;
  phase_ = BootstrapPhase::kJoined;
  next_check_ = now + config_.table_check_interval;
  settle_at_ = now + config_.settle_delay;
  Log(transport::LogLevel::kInfo, "joined the DHT: " + std::to_string(contacts) + " contacts");
  Remember();
}

void Bootstrapper::ScheduleRetry(transport::TimePoint now, const std::string& reason) {
  const transport::Duration delay = backoff_.Next(rng_);
  retry_at_ = now + delay;
  phase_ = BootstrapPhase::kWaiting;
  Log(transport::LogLevel::kWarn, reason + "; retrying in " + FormatSeconds(delay));
}

void Bootstrapper::CheckTable(transport::TimePoint now) {
  next_check_ = now + config_.table_check_interval;
  const size_t contacts = node_.routing_table().size();
  if (contacts > 0) {
    if (phase_ == BootstrapPhase::kStandalone) {
      Log(transport::LogLevel::kInfo,
          "peers joined through this node: " + std::to_string(contacts) + " contacts");
      phase_ = BootstrapPhase::kJoined;
    }
    Remember();
    return;
  }
  if (phase_ == BootstrapPhase::kStandalone) return;
  Log(transport::LogLevel::kWarn, "routing table is empty: bootstrapping again");
  if (!remembered_.empty()) return JoinRemembered(now);
  if (!config_.peers.empty()) return BeginPeerAttempt(now);
  phase_ = BootstrapPhase::kStandalone;
}

void Bootstrapper::Remember() {
  const auto contacts = node_.routing_table().Export();
  remembered_.clear();
  for (const kademlia::Contact& contact : contacts) {
    if (remembered_.size() == kRememberedMax) break;
    AddUnique(remembered_, contact.endpoint);
  }
}

transport::TimePoint Bootstrapper::NextDeadline() const {
  switch (phase_) {
    case BootstrapPhase::kResolving:
      return resolves_pending_ == 0 ? transport::kTimeZero : transport::kTimeNever;
    case BootstrapPhase::kRemembered:
    case BootstrapPhase::kJoining:
      return join_result_ ? transport::kTimeZero : transport::kTimeNever;
    case BootstrapPhase::kWaiting:
      return retry_at_;
    case BootstrapPhase::kJoined:
      return std::min(next_check_, settle_at_);
    case BootstrapPhase::kStandalone:
      return next_check_;
    case BootstrapPhase::kIdle:
    case BootstrapPhase::kStopped:
      break;
  }
  return transport::kTimeNever;
}

void Bootstrapper::SetPeers(transport::TimePoint now, std::vector<transport::HostPort> peers) {
  config_.peers = std::move(peers);
  const bool idle = phase_ == BootstrapPhase::kStandalone || phase_ == BootstrapPhase::kWaiting;
  if (idle && !config_.peers.empty() && node_.routing_table().size() == 0) {
    Log(transport::LogLevel::kInfo, "new bootstrap peers: trying them now");
    backoff_.Reset();
    return BeginPeerAttempt(now);
  }
  if (config_.peers.empty() && phase_ == BootstrapPhase::kWaiting) {
    // Nobody left to retry: wait to be joined, as a node started without peers does.
    phase_ = BootstrapPhase::kStandalone;
    next_check_ = now + config_.table_check_interval;
  }
  Log(transport::LogLevel::kInfo, "new bootstrap peers: used from the next attempt");
}

bool Bootstrapper::OnLanPeer(transport::TimePoint now, const transport::Endpoint& peer) {
  if (std::find(lan_peers_.begin(), lan_peers_.end(), peer) != lan_peers_.end()) return false;
  if (lan_peers_.size() >= kLanPeersMax) lan_peers_.erase(lan_peers_.begin());
  lan_peers_.push_back(peer);
  AddUnique(remembered_, peer);
  switch (phase_) {
    case BootstrapPhase::kIdle:
    case BootstrapPhase::kStopped:
    case BootstrapPhase::kResolving:
    case BootstrapPhase::kRemembered:
    case BootstrapPhase::kJoining:
      return false;  // not started, stopped, or an attempt is running (it may find the peer)
    case BootstrapPhase::kWaiting:
    case BootstrapPhase::kStandalone:
      if (node_.routing_table().size() == 0) {
        ++lan_joins_;
        Log(transport::LogLevel::kInfo,
            "joining through " + peer.ToString() + ", heard on the LAN");
        Join(now, {peer}, BootstrapPhase::kJoining);
        return true;
      }
      break;
    case BootstrapPhase::kJoined:
      break;
  }
  // Already in a network: look our own id up through the newcomer too, so that its group and
  // ours learn of each other. The answer changes nothing here.
  ++lan_joins_;
  Log(transport::LogLevel::kDebug, "meeting " + peer.ToString() + ", heard on the LAN");
  const transport::Endpoint seeds[] = {peer};
  node_.Join(now, seeds, [](size_t) {});
  return true;
}

void Bootstrapper::Stop() {
  phase_ = BootstrapPhase::kStopped;
  *alive_ = false;
}

}  // namespace skillnode::bootstrap
