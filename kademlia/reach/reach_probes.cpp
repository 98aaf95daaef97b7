#include "kademlia/reach/reach_probes.h"

#include <algorithm>
#include <cassert>

namespace skillnode::kademlia::reach {

namespace {

transport::Duration IntervalFor(const ReachConfig& config, Reachability verdict) {
  return verdict == Reachability::kUnknown ? config.probe_interval_unknown : config.probe_interval;
}

}  // namespace

bool ReachProbes::Due(transport::TimePoint now, Reachability verdict) const {
  return now >= NextDue(verdict);
}

transport::TimePoint ReachProbes::NextDue(Reachability verdict) const {
  if (probes_.size() >= config_.probes_in_flight_max) return transport::kTimeNever;
  if (last_started_ == transport::kTimeZero) return transport::kTimeZero;
  return last_started_ + IntervalFor(config_, verdict);
}

bool ReachProbes::Asking(const NodeId& helper) const {
  for (const auto& [nonce, probe] : probes_) {
    if (probe.helper == helper) return true;
  }
  return false;
}

void ReachProbes::Started(transport::TimePoint now, uint64_t nonce, const NodeId& helper) {
  assert(!probes_.contains(nonce));
  assert(probes_.size() < config_.probes_in_flight_max);
  probes_.emplace(nonce, Probe{helper, now + config_.probe_timeout, false});
  assert(now != transport::kTimeZero);
  last_started_ = now;
}

void ReachProbes::Answered(transport::TimePoint now, uint64_t nonce, bool dialed) {
  const auto it = probes_.find(nonce);
  if (it == probes_.end()) return;  // ended already: its dial-back came, or its time ran out
  if (!dialed) {
    probes_.erase(it);
    return;
  }
  it->second.dialed = true;
  it->second.deadline = now + config_.dial_back_grace;
}

DialBackFate ReachProbes::DialedBack(uint64_t nonce, bool from_contact) {
  const auto it = probes_.find(nonce);
  if (it == probes_.end()) return DialBackFate::kUnknown;
  probes_.erase(it);
  return from_contact ? DialBackFate::kFromContact : DialBackFate::kReached;
}

std::vector<DialOutcome> ReachProbes::Expire(transport::TimePoint now) {
  std::vector<DialOutcome> decided;
  for (auto it = probes_.begin(); it != probes_.end();) {
    if (it->second.deadline > now) {
      ++it;
      continue;
    }
    if (it->second.dialed) decided.push_back(DialOutcome::kNotReached);
    it = probes_.erase(it);
  }
  return decided;
}

transport::TimePoint ReachProbes::NextDeadline() const {
  transport::TimePoint next = transport::kTimeNever;
  for (const auto& [nonce, probe] : probes_) next = std::min(next, probe.deadline);
  return next;
}

}  // namespace skillnode::kademlia::reach
