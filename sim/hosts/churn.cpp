#include "sim/hosts/churn.h"

#include <cmath>

namespace skillnode::sim::hosts {
namespace {

// Mean on/off cycles each slot is rolled through before the epoch. Even Weibull shape 0.5
// forgets its start within a few cycles; 20 costs ~40 draws per slot.
constexpr double kPrerollCycles = 20;

transport::Duration SecondsOf(double s) {
  return transport::Duration(static_cast<int64_t>(std::llround(s * 1e6)));
}

}  // namespace

size_t ChurnSlots(const scenario::ChurnSpec& churn, size_t live) {
  if (churn.start == scenario::ChurnStart::kLifetime) return 2 * live;
  const double cycle = churn.session.mean_s + churn.downtime.mean_s;
  return static_cast<size_t>(
      std::llround(static_cast<double>(live) * cycle / churn.session.mean_s));
}

Churn::Churn(const scenario::Scenario& scenario, Population& population,
             workloads::Workload& workload, engine::EventQueue& queue,
             const transport::TimePoint& now, transport::TimePoint epoch, uint64_t seed)
    : scenario_(scenario),
      population_(population),
      workload_(workload),
      queue_(queue),
      now_(now),
      epoch_(epoch),
      rng_(seed),
      session_(scenario.churn.session),
      downtime_(scenario.churn.downtime) {}

transport::Duration Churn::SampleSession() { return SecondsOf(session_.SampleSeconds(rng_)); }
transport::Duration Churn::SampleDowntime() { return SecondsOf(downtime_.SampleSeconds(rng_)); }

transport::TimePoint Churn::Begin() {
  return scenario_.churn.start == scenario::ChurnStart::kLifetime ? BeginLifetime()
                                                                  : BeginStationary();
}

// OverSim's LifetimeChurn: the first half of the slots come up one by one during a creation
// phase; each lives until a whole session drawn fresh has passed from the end of that phase.
// The other half come up a fresh downtime after the end of the phase. Short sessions end
// early, so departures run above the stationary rate for a while.
transport::TimePoint Churn::BeginLifetime() {
  const size_t slots = population_.honest_slots();
  first_session_.assign(slots, transport::Duration::zero());
  const transport::Duration interval = SecondsOf(scenario_.network.join_interval_ms / 1000);
  const size_t live = slots / 2;
  const transport::TimePoint created = epoch_ + interval * static_cast<int64_t>(live);
  transport::TimePoint last_join = epoch_;
  for (uint32_t slot = 0; slot < slots; ++slot) {
    if (slot < live) {
      last_join = epoch_ + interval * static_cast<int64_t>(slot);
      first_session_[slot] =
          (created - last_join) + std::max(SampleSession(), transport::Duration(1));
      queue_.Push(last_join, engine::EventKind::kOnline, slot, 0);
    } else {
      queue_.Push(created + SampleDowntime(), engine::EventKind::kOnline, slot, 0);
    }
  }
  return last_join;
}

transport::TimePoint Churn::BeginStationary() {
  const size_t slots = population_.honest_slots();
  first_session_.assign(slots, transport::Duration::zero());
  const double cycle_s = session_.mean_s() + downtime_.mean_s();
  const double online_share = session_.mean_s() / cycle_s;
  const transport::Duration interval = SecondsOf(scenario_.network.join_interval_ms / 1000);
  transport::TimePoint next_join = epoch_;
  transport::TimePoint last_join = epoch_;
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
    const transport::Duration residual = SecondsOf(t + length);
    if (online) {
      first_session_[slot] = residual;
      last_join = next_join;
      queue_.Push(next_join, engine::EventKind::kOnline, slot, 0);
      next_join += interval;
    } else {
      queue_.Push(epoch_ + residual, engine::EventKind::kOnline, slot, 0);
    }
  }
  return last_join;
}

void Churn::OnOnline(uint32_t slot) {
  if (population_.online(slot)) return;
  ++counters_.arrivals;
  Host& host = population_.Start(slot);
  transport::Duration session = first_session_[slot];
  first_session_[slot] = transport::Duration::zero();
  if (session == transport::Duration::zero()) session = SampleSession();
  queue_.Push(now_ + session, engine::EventKind::kOffline, slot,
              population_.slot(slot).incarnation);
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
  queue_.Push(now_ + SampleDowntime(), engine::EventKind::kOnline, slot, 0);
}

}  // namespace skillnode::sim::hosts
