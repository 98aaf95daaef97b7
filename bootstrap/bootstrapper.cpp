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

std::string ListEndpoints(std::span<const Endpoint> endpoints) {
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

std::string FormatSeconds(Duration duration) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f s", ToMillis(duration) / 1000.0);
  return text;
}

void AddUnique(std::vector<Endpoint>& endpoints, const Endpoint& endpoint) {
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

Bootstrapper::Bootstrapper(BootstrapConfig config, kademlia::Node& node, Resolver& resolver,
                           Rng& rng, Logger& logger)
    : config_(std::move(config)),
      node_(node),
      resolver_(resolver),
      rng_(rng),
      logger_(logger),
      backoff_(config_.backoff) {}

Bootstrapper::~Bootstrapper() { *alive_ = false; }

void Bootstrapper::Log(LogLevel level, const std::string& message) {
  if (logger_.Enabled(level)) logger_.Log(level, "bootstrap: " + message);
}

void Bootstrapper::Start(TimePoint now, std::span<const kademlia::Contact> saved) {
  if (phase_ != BootstrapPhase::kIdle) return;
  for (const kademlia::Contact& contact : saved) AddUnique(remembered_, contact.endpoint);
  if (!remembered_.empty()) return JoinRemembered(now);
  if (!config_.peers.empty()) return BeginPeerAttempt(now);
  phase_ = BootstrapPhase::kStandalone;
  next_check_ = now + config_.table_check_interval;
  Log(LogLevel::kInfo,
      "no bootstrap peers and no saved contacts: running standalone; other nodes can join "
      "through this one");
}

void Bootstrapper::JoinRemembered(TimePoint now) {
  std::vector<Endpoint> seeds = remembered_;
  rng_.Shuffle(seeds);
  if (seeds.size() > config_.remembered_tried_max) seeds.resize(config_.remembered_tried_max);
  Log(LogLevel::kInfo, "joining through " + std::to_string(seeds.size()) +
                           " remembered contacts: " + ListEndpoints(seeds));
  Join(now, std::move(seeds), BootstrapPhase::kRemembered);
}

void Bootstrapper::BeginPeerAttempt(TimePoint now) {
  ++attempts_;
  ++generation_;
  phase_ = BootstrapPhase::kResolving;
  resolved_.clear();
  // One extra count held during the loop, in case a resolver answers from inside Resolve.
  resolves_pending_ = 1;
  const uint64_t generation = generation_;
  for (const HostPort& peer : config_.peers) {
    if (auto literal = peer.AsEndpoint()) {
      AddUnique(resolved_, *literal);
      continue;
    }
    ++resolves_pending_;
    resolver_.Resolve(peer, [this, alive = alive_, generation,
                             peer](Result<std::vector<Endpoint>> result) {
      if (!*alive || generation != generation_ || phase_ != BootstrapPhase::kResolving) return;
      --resolves_pending_;
      if (!result) {
        Log(LogLevel::kWarn, "peer " + peer.ToString() + ": " + result.error().message);
        return;
      }
      Log(LogLevel::kDebug, "peer " + peer.ToString() + " resolved to " + ListEndpoints(*result));
      for (const Endpoint& endpoint : *result) AddUnique(resolved_, endpoint);
    });
  }
  --resolves_pending_;
  if (resolves_pending_ == 0) JoinResolved(now);
}

void Bootstrapper::JoinResolved(TimePoint now) {
  if (resolved_.empty()) return ScheduleRetry(now, "no bootstrap peer could be resolved");
  Log(LogLevel::kInfo, "attempt " + std::to_string(attempts_) + ": joining through bootstrap " +
                           "peers " + ListEndpoints(resolved_));
  Join(now, resolved_, BootstrapPhase::kJoining);
}

void Bootstrapper::Join(TimePoint now, std::vector<Endpoint> seeds, BootstrapPhase phase) {
  ++generation_;
  phase_ = phase;
  join_result_.reset();
  const uint64_t generation = generation_;
  node_.Join(now, seeds, [this, alive = alive_, generation](size_t contacts) {
    if (!*alive || generation != generation_) return;
    join_result_ = contacts;
  });
}

void Bootstrapper::OnTimer(TimePoint now) {
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
        settle_at_ = kTimeNever;
        Log(LogLevel::kDebug, "looking up our own id again to meet peers that joined with us");
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

void Bootstrapper::OnJoinResult(TimePoint now, size_t contacts) {
  if (contacts > 0) return Joined(now, contacts);
  if (phase_ == BootstrapPhase::kRemembered) {
    Log(LogLevel::kWarn, "no remembered contact answered");
    if (!config_.peers.empty()) return BeginPeerAttempt(now);
    return ScheduleRetry(now, "no remembered contact answered and no bootstrap peer is set");
  }
  ScheduleRetry(now, "no bootstrap peer answered");
}

void Bootstrapper::Joined(TimePoint now, size_t contacts) {
  backoff_.Reset();
  ++joins_;
  phase_ = BootstrapPhase::kJoined;
  next_check_ = now + config_.table_check_interval;
  settle_at_ = now + config_.settle_delay;
  Log(LogLevel::kInfo, "joined the DHT: " + std::to_string(contacts) + " contacts");
  Remember();
}

void Bootstrapper::ScheduleRetry(TimePoint now, const std::string& reason) {
  const Duration delay = backoff_.Next(rng_);
  retry_at_ = now + delay;
  phase_ = BootstrapPhase::kWaiting;
  Log(LogLevel::kWarn, reason + "; retrying in " + FormatSeconds(delay));
}

void Bootstrapper::CheckTable(TimePoint now) {
  next_check_ = now + config_.table_check_interval;
  const size_t contacts = node_.routing_table().size();
  if (contacts > 0) {
    if (phase_ == BootstrapPhase::kStandalone) {
      Log(LogLevel::kInfo,
          "peers joined through this node: " + std::to_string(contacts) + " contacts");
      phase_ = BootstrapPhase::kJoined;
    }
    Remember();
    return;
  }
  if (phase_ == BootstrapPhase::kStandalone) return;
  Log(LogLevel::kWarn, "routing table is empty: bootstrapping again");
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

TimePoint Bootstrapper::NextDeadline() const {
  switch (phase_) {
    case BootstrapPhase::kResolving:
      return resolves_pending_ == 0 ? kTimeZero : kTimeNever;
    case BootstrapPhase::kRemembered:
    case BootstrapPhase::kJoining:
      return join_result_ ? kTimeZero : kTimeNever;
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
  return kTimeNever;
}

void Bootstrapper::SetPeers(TimePoint now, std::vector<HostPort> peers) {
  config_.peers = std::move(peers);
  const bool idle = phase_ == BootstrapPhase::kStandalone || phase_ == BootstrapPhase::kWaiting;
  if (idle && !config_.peers.empty() && node_.routing_table().size() == 0) {
    Log(LogLevel::kInfo, "new bootstrap peers: trying them now");
    backoff_.Reset();
    return BeginPeerAttempt(now);
  }
  if (config_.peers.empty() && phase_ == BootstrapPhase::kWaiting) {
    // Nobody left to retry: wait to be joined, as a node started without peers does.
    phase_ = BootstrapPhase::kStandalone;
    next_check_ = now + config_.table_check_interval;
  }
  Log(LogLevel::kInfo, "new bootstrap peers: used from the next attempt");
}

bool Bootstrapper::OnLanPeer(TimePoint now, const Endpoint& peer) {
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
        Log(LogLevel::kInfo, "joining through " + peer.ToString() + ", heard on the LAN");
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
  Log(LogLevel::kDebug, "meeting " + peer.ToString() + ", heard on the LAN");
  const Endpoint seeds[] = {peer};
  node_.Join(now, seeds, [](size_t) {});
  return true;
}

void Bootstrapper::Stop() {
  phase_ = BootstrapPhase::kStopped;
  *alive_ = false;
}

}  // namespace skillnode::bootstrap
