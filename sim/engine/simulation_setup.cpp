#include "sim/engine/simulation_state.h"

namespace skillnode::sim::engine {

void Simulation::State::StartAdversaries() {
  for (uint32_t slot = static_cast<uint32_t>(honest_slots); slot < population->size(); ++slot) {
    hosts::Host& host = population->Start(slot);
    if (hosts::IsScripted(host.kind())) population->MarkJoined(slot);
  }
  population->IndexAdversaries();
}

void Simulation::State::BuildFromOracle() {
  const size_t total = population->size();
  for (uint32_t slot = 0; slot < total; ++slot) {
    population->Start(slot);
    if (progress && (slot + 1) % 1024 == 0) {
      progress(
          ProgressInfo{"identities", static_cast<double>(slot + 1), static_cast<double>(total), 0});
    }
  }
  population->IndexAdversaries();
  population->MarkAllJoined();
  hosts::FillRoutingTablesFromOracle(*population, rng, now, [&](size_t done, size_t all) {
    if (progress) {
      progress(ProgressInfo{"tables", static_cast<double>(done), static_cast<double>(all), 0});
    }
  });
  for (uint32_t slot = 0; slot < total; ++slot) population->Reschedule(slot);
}

// Schedules a join for every slot that runs a node and is not churning; returns the time of
// the last one.
transport::TimePoint Simulation::State::ScheduleJoins(transport::TimePoint first) {
  const transport::Duration interval = SecondsOf(scenario.network.join_interval_ms / 1000);
  transport::TimePoint at = first;
  transport::TimePoint last = first;
  const uint32_t begin = scenario.churn.enabled ? static_cast<uint32_t>(honest_slots) : 0;
  for (uint32_t slot = begin; slot < population->size(); ++slot) {
    if (hosts::IsScripted(population->slot(slot).kind)) continue;
    queue.Push(at, EventKind::kJoin, slot, 0);
    last = at;
    at += interval;
  }
  return last;
}

void Simulation::State::OnJoinEvent(uint32_t slot) {
  if (!population->online(slot)) population->Start(slot);
  if (population->slot(slot).host->node() != nullptr) {
    population->Join(slot, nullptr);
  } else {
    population->MarkJoined(slot);
  }
}

void Simulation::State::Announce(uint32_t slot) {
  hosts::Host* host = population->slot(slot).host.get();
  if (host == nullptr) return;
  const size_t k = scenario.kademlia.routing.bucket_size;
  std::vector<transport::Endpoint> peers;
  for (const workloads::OracleEntry& e :
       population->live().Closest(host->id(), k, [&](const workloads::OracleEntry& e) {
         return population->slot(e.slot).kind == hosts::HostKind::kHonest;
       })) {
    peers.push_back(network::EndpointOfSlot(e.slot));
  }
  host->Announce(peers);
}

transport::TimePoint Simulation::State::Setup() {
  const scenario::WorkloadSpec& w = scenario.workload;
  transport::TimePoint joins_done = kEpoch;
  if (scenario.network.build == scenario::BuildMode::kOracle) {
    BuildFromOracle();
    workload->ScheduleStatic(kEpoch + kStaticStartDelay);
    StartStaticRecords(kEpoch + kStaticStartDelay);
  } else {
    // Scripted adversaries start now; the others join like honest nodes.
    for (uint32_t slot = static_cast<uint32_t>(honest_slots); slot < population->size(); ++slot) {
      if (hosts::IsScripted(population->slot(slot).kind)) {
        population->Start(slot);
        population->MarkJoined(slot);
      }
    }
    population->IndexAdversaries();
    if (churn) {
      joins_done = churn->Begin();
      joins_done = std::max(joins_done, ScheduleJoins(joins_done));
      workload->SetWindow(kEpoch + SecondsOf(w.warmup_s),
                          kEpoch + SecondsOf(w.warmup_s + w.measure_s));
      SetTrafficWindow(kEpoch + SecondsOf(w.warmup_s),
                       kEpoch + SecondsOf(w.warmup_s + w.measure_s));
      if (records) {
        records->SetWindow(kEpoch + SecondsOf(w.warmup_s),
                           kEpoch + SecondsOf(w.warmup_s + w.measure_s));
      }
    } else {
      joins_done = ScheduleJoins(kEpoch);
      workload->ScheduleStatic(joins_done + SecondsOf(scenario.network.settle_s));
      StartStaticRecords(joins_done + SecondsOf(scenario.network.settle_s));
    }
    for (uint32_t slot = static_cast<uint32_t>(honest_slots); slot < population->size(); ++slot) {
      if (hosts::IsScripted(population->slot(slot).kind)) {
        queue.Push(joins_done + kAnnounceDelay, EventKind::kAnnounce, slot, 0);
      }
    }
  }
  transport::TimePoint last = workload->last_start();
  if (records) last = std::max(last, records->window_end());
  const transport::TimePoint end = last + SecondsOf(w.drain_s);
  // Static networks: traffic is measured from the first lookup to the end.
  if (!churn) SetTrafficWindow(workload->first_start(), end);
  queue.Push(end, EventKind::kStop, 0, 0);
  return end;
}

// Static networks: every node publishes at `publish`; gets are measured for measure_s after
// kStaticPublishSettle.
void Simulation::State::StartStaticRecords(transport::TimePoint publish) {
  if (!records) return;
  const transport::TimePoint begin = publish + kStaticPublishSettle;
  records->SetWindow(begin, begin + SecondsOf(scenario.workload.measure_s));
  queue.Push(publish, EventKind::kPublishAll, 0, 0);
}

// Datagrams sent and host-seconds online in [begin, end): bytes per node per second.
void Simulation::State::SetTrafficWindow(transport::TimePoint begin, transport::TimePoint end) {
  network->SetWindow(begin, end);
  population->online_time().SetWindow(begin, end);
}

}  // namespace skillnode::sim::engine
