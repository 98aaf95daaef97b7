#include "sim/hosts/churn.h"

#include <cmath>

namespace skillnode::sim {
namespace {

// Mean on/off cycles each slot is rolled through before the epoch. Even Weibull shape 0.5
// forgets its start within a few cycles; 20 costs ~40 draws per slot.
constexpr double kPrerollCycles = 20;

Duration SecondsOf(double s) { return Duration(static_cast<int64_t>(std::llround(s * 1e6))); }

}  // namespace

size_t ChurnSlots(const ChurnSpec& churn, size_t live) {
  if (churn.start == ChurnStart::kLifetime) return 2 * live;
  const double cycle = churn.session.mean_s + churn.downtime.mean_s;
  return static_cast<size_t>(
      std::llround(static_cast<double>(live) * cycle / churn.session.mean_s));
}

Churn::Churn(const Scenario& scenario, Population& population, Workload& workload,
             EventQueue& queue, const TimePoint& now, TimePoint epoch, uint64_t seed)
    : scenario_(scenario),
      population_(population),
      workload_(workload),
      queue_(queue),
      now_(now),
      epoch_(epoch),
      rng_(seed),
      session_(scenario.churn.session),
      downtime_(scenario.churn.downtime) {}

Duration Churn::SampleSession() { return SecondsOf(session_.SampleSeconds(rng_)); }
Duration Churn::SampleDowntime() { return SecondsOf(downtime_.SampleSeconds(rng_)); }

TimePoint Churn::Begin() {
  return scenario_.churn.start == ChurnStart::kLifetime ? BeginLifetime() : BeginStationary();
}

// OverSim's LifetimeChurn: the first half of the slots come up one by one during a creation
// phase; each lives until a whole session drawn fresh has passed from the end of that phase.
// The other half come up a fresh downtime after the end of the phase. Short sessions end
// early, so departures run above the stationary rate for a while.
TimePoint Churn::BeginLifetime() {
  const size_t slots = population_.honest_slots();
  first_session_.assign(slots, Duration::zero());
  const Duration interval = SecondsOf(scenario_.network.join_interval_ms / 1000);
  const size_t live = slots / 2;
  const TimePoint created = epoch_ + interval * static_cast<int64_t>(live);
  TimePoint last_join = epoch_;
  for (uint32_t slot = 0; slot < slots; ++slot) {
    if (slot < live) {
      last_join = epoch_ + interval * static_cast<int64_t>(slot);
      first_session_[slot] = (created - last_join) + std::max(SampleSession(), Duration(1));
      queue_.Push(last_join, EventKind::kOnline, slot, 0);
    } else {
      queue_.Push(created + SampleDowntime(), EventKind::kOnline, slot, 0);
    }
  }
  return last_join;
}

TimePoint Churn::BeginStationary() {
  const size_t slots = population_.honest_slots();
  first_session_.assign(slots, Duration::zero());
  const double cycle_s = session_.mean_s() + downtime_.mean_s();
  const double online_share = session_.mean_s() / cycle_s;
  const Duration interval = SecondsOf(scenario_.network.join_interval_ms / 1000);
  TimePoint next_join = epoch_;
  TimePoint last_join = epoch_;
  for (uint32_t slot = 0; slot < slots; ++slot) {
    bool online = rng_.Chance(online_share);
    double t = -kPrerollCycles * cycle_s;
    double length = 0;
    while (true) {
      length = (online ? session_ : downtime_).SampleSeconds(rng_);
      if (t + length > 0) break;
      t += length;
      online = !online;
    }
    const Duration residual = SecondsOf(t + length);
    if (online) {
      first_session_[slot] = residual;
      last_join = next_join;
      queue_.Push(next_join, EventKind::kOnline, slot, 0);
      next_join += interval;
    } else {
      queue_.Push(epoch_ + residual, EventKind::kOnline, slot, 0);
    }
  }
  return last_join;
}

void Churn::OnOnline(uint32_t slot) {
  if (population_.online(slot)) return;
  ++counters_.arrivals;
  Host& host = population_.Start(slot);
  Duration session = first_session_[slot];
  first_session_[slot] = Duration::zero();
  if (session == Duration::zero()) session = SampleSession();
  queue_.Push(now_ + session, EventKind::kOffline, slot, population_.slot(slot).incarnation);
  if (host.node() == nullptr) return;
  population_.Join(slot, [this](uint32_t joined) {
    ++counters_.joins_completed;
    workload_.StartPeriodic(joined);
    if (on_joined_) on_joined_(joined);
  });
}

void Churn::OnOffline(uint32_t slot, uint64_t incarnation) {
  if (!population_.online(slot) || population_.slot(slot).incarnation != incarnation) return;
  const bool graceful = rng_.Chance(scenario_.churn.graceful_fraction);
  ++(graceful ? counters_.graceful : counters_.crashes);
  population_.Stop(slot, graceful);
  queue_.Push(now_ + SampleDowntime(), EventKind::kOnline, slot, 0);
}

}  // namespace skillnode::sim
