// PopulationSetup (population_setup.h): the oracle build or the joins, the adversaries, the
// measurement windows and the run's end. The order of every draw from the seed and of every
// event scheduled here is part of a scenario's trace hash: changing it changes every run.
#include "sim/engine/population_setup.h"

#include <algorithm>
#include <cassert>
#include <vector>

#include "sim/engine/sim_time.h"
#include "sim/hosts/builder.h"
#include "sim/network/addressing.h"

namespace skillnode::sim::engine {

PopulationSetup::PopulationSetup(const Parts& parts)
    : scenario_(parts.scenario),
      honest_slots_(parts.honest_slots),
      queue_(parts.queue),
      network_(parts.network),
      population_(parts.population),
      workload_(parts.workload),
      churn_(parts.churn),
      records_(parts.records),
      words_(parts.words) {
  assert(honest_slots_ <= population_.size());
  assert((churn_ != nullptr) == scenario_.churn.enabled);
  assert((records_ != nullptr) == scenario_.records.enabled);
  assert((words_ != nullptr) == scenario_.words.enabled);
}

transport::TimePoint PopulationSetup::Run(transport::Rng& rng, transport::TimePoint now,
                                          const ProgressFn& progress) {
  assert(phase_ == Phase::kBefore);
  phase_ = Phase::kRan;
  const scenario::WorkloadSpec& w = scenario_.workload;
  const transport::TimePoint warmup_end = kEpoch + SecondsOf(w.warmup_s);
  const transport::TimePoint measure_end = kEpoch + SecondsOf(w.warmup_s + w.measure_s);
  if (scenario_.network.build == scenario::BuildMode::kOracle) {
    BuildFromOracle(rng, now, progress);
    workload_.ScheduleStatic(kEpoch + kStaticStartDelay);
    StartStaticRecords(kEpoch + kStaticStartDelay);
    StartStaticWords(kEpoch + kStaticStartDelay);
  } else {
    StartScriptedAdversaries();
    transport::TimePoint joins_done = kEpoch;
    if (churn_ != nullptr) {
      joins_done = churn_->Begin();
      joins_done = std::max(joins_done, ScheduleJoins(joins_done));
      workload_.SetWindow(warmup_end, measure_end);
      SetTrafficWindow(warmup_end, measure_end);
      if (records_ != nullptr) records_->SetWindow(warmup_end, measure_end);
      if (words_ != nullptr) words_->SetWindow(warmup_end, measure_end);
    } else {
      joins_done = ScheduleJoins(kEpoch);
      workload_.ScheduleStatic(joins_done + SecondsOf(scenario_.network.settle_s));
      StartStaticRecords(joins_done + SecondsOf(scenario_.network.settle_s));
      StartStaticWords(joins_done + SecondsOf(scenario_.network.settle_s));
    }
    ScheduleAnnounces(joins_done + kAnnounceDelay);
  }
  transport::TimePoint last = workload_.last_start();
  if (records_ != nullptr) last = std::max(last, records_->window_end());
  if (words_ != nullptr) last = std::max(last, words_->window_end());
  const transport::TimePoint end = last + SecondsOf(w.drain_s);
  // Static networks: traffic is measured from the first lookup to the end.
  if (churn_ == nullptr) SetTrafficWindow(workload_.first_start(), end);
  queue_.Push(end, EventKind::kStop, 0, 0);
  return end;
}

void PopulationSetup::BuildFromOracle(transport::Rng& rng, transport::TimePoint now,
                                      const ProgressFn& progress) {
  const size_t total = population_.size();
  for (uint32_t slot = 0; slot < total; ++slot) {
    population_.Start(slot);
    if (progress && (slot + 1) % kIdentitiesPerProgress == 0) {
      progress(
          ProgressInfo{"identities", static_cast<double>(slot + 1), static_cast<double>(total), 0});
    }
  }
  population_.IndexAdversaries();
  population_.MarkAllJoined();
  hosts::FillRoutingTablesFromOracle(population_, rng, now, [&](size_t done, size_t all) {
    if (progress) {
      progress(ProgressInfo{"tables", static_cast<double>(done), static_cast<double>(all), 0});
    }
  });
  for (uint32_t slot = 0; slot < total; ++slot) population_.Reschedule(slot);
}

void PopulationSetup::StartScriptedAdversaries() {
  for (uint32_t slot = static_cast<uint32_t>(honest_slots_); slot < population_.size(); ++slot) {
    if (hosts::IsScripted(population_.slot(slot).kind)) {
      population_.Start(slot);
      population_.MarkJoined(slot);
    }
  }
  population_.IndexAdversaries();
}

transport::TimePoint PopulationSetup::ScheduleJoins(transport::TimePoint first) {
  const transport::Duration interval = SecondsOf(scenario_.network.join_interval_ms / 1000);
  transport::TimePoint at = first;
  transport::TimePoint last = first;
  const uint32_t begin = churn_ != nullptr ? static_cast<uint32_t>(honest_slots_) : 0;
  for (uint32_t slot = begin; slot < population_.size(); ++slot) {
    if (hosts::IsScripted(population_.slot(slot).kind)) continue;
    queue_.Push(at, EventKind::kJoin, slot, 0);
    last = at;
    at += interval;
  }
  return last;
}

void PopulationSetup::ScheduleAnnounces(transport::TimePoint at) {
  for (uint32_t slot = static_cast<uint32_t>(honest_slots_); slot < population_.size(); ++slot) {
    if (hosts::IsScripted(population_.slot(slot).kind)) {
      queue_.Push(at, EventKind::kAnnounce, slot, 0);
    }
  }
}

void PopulationSetup::OnJoinEvent(uint32_t slot) {
  assert(slot < population_.size());
  if (!population_.online(slot)) population_.Start(slot);
  assert(population_.online(slot));
  if (population_.slot(slot).host->node() != nullptr) {
    population_.Join(slot, nullptr);
  } else {
    population_.MarkJoined(slot);
  }
}

void PopulationSetup::Announce(uint32_t slot) {
  assert(slot >= honest_slots_ && slot < population_.size());
  hosts::Host* host = population_.slot(slot).host.get();
  if (host == nullptr) return;
  const size_t k = scenario_.kademlia.routing.bucket_size;
  std::vector<transport::Endpoint> peers;
  for (const workloads::OracleEntry& e :
       population_.live().Closest(host->id(), k, [&](const workloads::OracleEntry& e) {
         return population_.slot(e.slot).kind == hosts::HostKind::kHonest;
       })) {
    peers.push_back(network::EndpointOfSlot(e.slot));
  }
  host->Announce(peers);
}

// Static networks: every node publishes at `publish`; gets are measured for measure_s after
// kStaticPublishSettle.
void PopulationSetup::StartStaticRecords(transport::TimePoint publish) {
  if (records_ == nullptr) return;
  const transport::TimePoint begin = publish + kStaticPublishSettle;
  records_->SetWindow(begin, begin + SecondsOf(scenario_.workload.measure_s));
  queue_.Push(publish, EventKind::kPublishAll, 0, 0);
}

void PopulationSetup::StartStaticWords(transport::TimePoint publish) {
  if (words_ == nullptr) return;
  const transport::TimePoint begin = publish + SecondsOf(scenario_.words.query_start_s);
  words_->SetWindow(begin, begin + SecondsOf(scenario_.workload.measure_s));
  queue_.Push(publish, EventKind::kWordPublishAll, 0, 0);
}

// Datagrams sent and host-seconds online in [begin, end): bytes per node per second.
void PopulationSetup::SetTrafficWindow(transport::TimePoint begin, transport::TimePoint end) {
  network_.SetWindow(begin, end);
  population_.online_time().SetWindow(begin, end);
}

}  // namespace skillnode::sim::engine
