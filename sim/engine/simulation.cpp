#include "sim/engine/simulation.h"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>

#include "sim/engine/event_queue.h"
#include "sim/engine/heap.h"
#include "sim/engine/lane_worker.h"
#include "sim/engine/trace_hash.h"
#include "sim/hosts/builder.h"
#include "sim/hosts/churn.h"
#include "sim/hosts/population.h"
#include "sim/network/addressing.h"
#include "sim/network/latency.h"
#include "sim/network/network.h"
#include "sim/workloads/record_workload.h"
#include "sim/workloads/workload.h"

namespace skillnode::sim {
namespace {

// Simulated time starts here rather than at zero, where a TimePoint means "never seen".
constexpr TimePoint kEpoch = kTimeZero + Seconds(1);
// A static network's first lookup, after the oracle build.
constexpr Duration kStaticStartDelay = Seconds(1);
// An eclipse adversary announces itself this long after the joins it needs have started.
constexpr Duration kAnnounceDelay = Seconds(1);
// Static networks with records: every node publishes at the first lookup; gets are measured
// from this long after, once the first publishes have finished.
constexpr Duration kStaticPublishSettle = Seconds(30);
// Events between progress callbacks (a cheap counter test in the hot loop).
constexpr uint64_t kProgressEveryEvents = 4096;

Duration SecondsOf(double s) { return Duration(static_cast<int64_t>(std::llround(s * 1e6))); }
double SecondsSince(TimePoint t) { return ToMillis(t - kEpoch) / 1000; }

}  // namespace

double PeakRssMb() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

void RecordMemory(RunSummary& summary) {
  summary.peak_rss_mb = PeakRssMb();
  summary.allocator = CurrentHeapSetup().allocator;
  summary.malloc_huge_pages = CurrentHeapSetup().huge_pages;
  summary.huge_pages_mb = AnonHugePagesMb();
}

struct Simulation::State {
  State(const Scenario& s, ProgressFn p, unsigned threads)
      : scenario(s),
        progress(std::move(p)),
        // The record workload's callbacks share its state (record_workload.h).
        lane_threads(s.records.enabled ? 1 : std::clamp<unsigned>(threads, 1, EventQueue::kLanes)),
        rng(s.seed),
        latency(s.network.latency),
        adversary_slots(static_cast<size_t>(
            std::llround(s.adversaries.fraction * static_cast<double>(s.nodes)))),
        honest_live(s.nodes - adversary_slots),
        honest_slots(s.churn.enabled ? ChurnSlots(s.churn, honest_live) : honest_live) {
    latency.Place(honest_slots + adversary_slots, rng);
    clocks.fill(now);
    network.emplace(s.network, latency, queue, kEpoch, rng.Next64());
    lookahead = network->min_delay();
    population.emplace(s, honest_slots, adversary_slots, queue, *network, now, clocks,
                       rng.Next64());
    workload.emplace(s, *population, queue, now, kEpoch, rng.Next64(), lane_traces);
    network->SetArrivalObserver(
        [this](TimePoint arrival, uint32_t from, uint32_t to, std::span<const uint8_t> bytes) {
          workload->OnArrival(arrival, from, to, bytes);
        });
    const uint64_t churn_seed = rng.Next64();
    if (s.churn.enabled) {
      churn.emplace(s, *population, *workload, queue, now, kEpoch, churn_seed);
    }
    if (s.records.enabled) {
      // Drawn after the others, so that scenarios without records keep their trace hashes.
      records.emplace(s, *population, queue, now, kEpoch, rng.Next64(), trace);
      population->SetStopHook([this](uint32_t slot) { records->OnStopped(slot); });
      if (churn) churn->SetOnJoined([this](uint32_t slot) { records->OnJoined(slot); });
    }
  }

  void BuildFromOracle();
  TimePoint ScheduleJoins(TimePoint first);
  void StartAdversaries();
  void Announce(uint32_t slot);
  void OnJoinEvent(uint32_t slot);
  TimePoint Setup();
  void StartStaticRecords(TimePoint publish);
  void SetTrafficWindow(TimePoint begin, TimePoint end);
  bool Settled() const;
  void Dispatch(const Event& event);
  void RunBatch(TimePoint horizon);
  void RunLane(size_t lane, TimePoint horizon);
  void TakeLanes();
  uint64_t TraceValue() const;
  RunSummary Summarize(double wall_seconds) const;

  const Scenario& scenario;
  ProgressFn progress;
  unsigned lane_threads;
  Rng rng;
  LatencyModel latency;
  size_t adversary_slots;
  size_t honest_live;
  size_t honest_slots;
  TimePoint now = kEpoch;
  Population::LaneClocks clocks;
  // How far past the earliest host event a batch runs: the network's shortest delay.
  Duration lookahead{1};
  EventQueue queue;
  TraceHash trace;  // the control side's; each lane keeps its own
  Workload::LaneTraces lane_traces;
  std::array<uint64_t, EventQueue::kLanes> lane_events{};
  // The running batch: its horizon, and the next lane no thread has taken yet.
  TimePoint batch_horizon = kTimeNever;
  std::atomic<size_t> next_lane = 0;
  // The threads beyond the simulation's own, which take lanes too (lane_threads - 1).
  std::vector<std::unique_ptr<LaneWorker>> workers;
  std::optional<Network> network;
  std::optional<Population> population;
  std::optional<Workload> workload;
  std::optional<Churn> churn;
  std::optional<RecordWorkload> records;
  uint64_t events = 0;
  bool stopped = false;
};

void Simulation::State::StartAdversaries() {
  for (uint32_t slot = static_cast<uint32_t>(honest_slots); slot < population->size(); ++slot) {
    Host& host = population->Start(slot);
    if (host.kind() == HostKind::kEclipse) population->MarkJoined(slot);
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
  FillRoutingTablesFromOracle(*population, rng, now, [&](size_t done, size_t all) {
    if (progress) {
      progress(ProgressInfo{"tables", static_cast<double>(done), static_cast<double>(all), 0});
    }
  });
  for (uint32_t slot = 0; slot < total; ++slot) population->Reschedule(slot);
}

// Schedules a join for every slot that runs a node and is not churning; returns the time of
// the last one.
TimePoint Simulation::State::ScheduleJoins(TimePoint first) {
  const Duration interval = SecondsOf(scenario.network.join_interval_ms / 1000);
  TimePoint at = first;
  TimePoint last = first;
  const uint32_t begin = scenario.churn.enabled ? static_cast<uint32_t>(honest_slots) : 0;
  for (uint32_t slot = begin; slot < population->size(); ++slot) {
    if (population->slot(slot).kind == HostKind::kEclipse) continue;
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
  Host* host = population->slot(slot).host.get();
  if (host == nullptr) return;
  const size_t k = scenario.kademlia.routing.bucket_size;
  std::vector<Endpoint> peers;
  for (const OracleEntry& e : population->live().Closest(host->id(), k, [&](const OracleEntry& e) {
         return population->slot(e.slot).kind == HostKind::kHonest;
       })) {
    peers.push_back(EndpointOfSlot(e.slot));
  }
  host->Announce(peers);
}

TimePoint Simulation::State::Setup() {
  const WorkloadSpec& w = scenario.workload;
  TimePoint joins_done = kEpoch;
  if (scenario.network.build == BuildMode::kOracle) {
    BuildFromOracle();
    workload->ScheduleStatic(kEpoch + kStaticStartDelay);
    StartStaticRecords(kEpoch + kStaticStartDelay);
  } else {
    // Eclipse adversaries start now; the others join like honest nodes.
    for (uint32_t slot = static_cast<uint32_t>(honest_slots); slot < population->size(); ++slot) {
      if (population->slot(slot).kind == HostKind::kEclipse) {
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
      if (population->slot(slot).kind == HostKind::kEclipse) {
        queue.Push(joins_done + kAnnounceDelay, EventKind::kAnnounce, slot, 0);
      }
    }
  }
  TimePoint last = workload->last_start();
  if (records) last = std::max(last, records->window_end());
  const TimePoint end = last + SecondsOf(w.drain_s);
  // Static networks: traffic is measured from the first lookup to the end.
  if (!churn) SetTrafficWindow(workload->first_start(), end);
  queue.Push(end, EventKind::kStop, 0, 0);
  return end;
}

// Static networks: every node publishes at `publish`; gets are measured for measure_s after
// kStaticPublishSettle.
void Simulation::State::StartStaticRecords(TimePoint publish) {
  if (!records) return;
  const TimePoint begin = publish + kStaticPublishSettle;
  records->SetWindow(begin, begin + SecondsOf(scenario.workload.measure_s));
  queue.Push(publish, EventKind::kPublishAll, 0, 0);
}

// Datagrams sent and host-seconds online in [begin, end): bytes per node per second.
void Simulation::State::SetTrafficWindow(TimePoint begin, TimePoint end) {
  network->SetWindow(begin, end);
  population->online_time().SetWindow(begin, end);
}

bool Simulation::State::Settled() const {
  const TimePoint lookups_end = workload->last_start();
  if (!workload->Settled() || now < lookups_end) return false;
  return !records || records->Settled();
}

void Simulation::State::Dispatch(const Event& e) {
  switch (e.kind) {
    case EventKind::kDeliver: {
      const Network::Packet& packet = network->packet(e.arg);
      workload->OnDelivery(e.slot, packet.from, packet.bytes);
      return population->Deliver(e.slot, e.arg, lane_traces[EventQueue::LaneOf(e.slot)]);
    }
    case EventKind::kTimer:
      return population->OnTimer(e.slot, e.arg);
    case EventKind::kJoined:
      return population->OnJoined(e.slot, e.arg);
    case EventKind::kStaticLookup:
      return workload->OnStaticLookup();
    case EventKind::kNodeLookup:
      return workload->OnNodeLookup(e.slot, e.arg);
    case EventKind::kJoin:
      return OnJoinEvent(e.slot);
    case EventKind::kJoinRetry:
      return population->OnJoinRetry(e.slot, e.arg);
    case EventKind::kOnline:
      return churn->OnOnline(e.slot);
    case EventKind::kOffline:
      return churn->OnOffline(e.slot, e.arg);
    case EventKind::kAnnounce:
      return Announce(e.slot);
    case EventKind::kPublishAll:
      return records->OnPublishAll();
    case EventKind::kRecordGet:
      return records->OnGet(e.slot, e.arg);
    case EventKind::kStop:
      stopped = true;
      return;
  }
}

// One lane's events due before `horizon`, on this thread.
void Simulation::State::RunLane(size_t lane, TimePoint horizon) {
  const EventQueue::LaneScope scope(queue, lane);
  EventHeap& heap = queue.lane(lane);
  TimePoint& clock = clocks[lane];
  uint64_t ran = 0;
  while (!heap.empty() && heap.top().at < horizon) {
    const Event event = heap.Pop();
    clock = std::max(clock, event.at);
    Dispatch(event);
    ++ran;
  }
  lane_events[lane] = ran;
}

// Runs lanes of the current batch until none is left to take.
void Simulation::State::TakeLanes() {
  for (size_t lane = next_lane.fetch_add(1, std::memory_order_relaxed); lane < EventQueue::kLanes;
       lane = next_lane.fetch_add(1, std::memory_order_relaxed)) {
    RunLane(lane, batch_horizon);
  }
}

// Every lane's host events due before `horizon`. The threads take lanes as they get free, so
// a lane heavy in this batch does not hold the others back. No event a lane runs can schedule
// another lane's event before the horizon (event_queue.h), so which thread ran which lane, and
// in what order, changes nothing.
void Simulation::State::RunBatch(TimePoint horizon) {
  batch_horizon = horizon;
  next_lane.store(0, std::memory_order_relaxed);
  for (const auto& worker : workers) worker->Start();
  TakeLanes();
  for (const auto& worker : workers) worker->Wait();
  queue.MergeOutboxes();
  network->FlushReleases();
  workload->AnalyseFailures();
  for (size_t lane = 0; lane < EventQueue::kLanes; ++lane) {
    now = std::max(now, clocks[lane]);
    events += lane_events[lane];
  }
  clocks.fill(now);
}

// The control side's digest, then each lane's.
uint64_t Simulation::State::TraceValue() const {
  TraceHash combined = trace;
  for (const TraceHash& lane : lane_traces) combined.Add(lane.value());
  return combined.value();
}

RunSummary Simulation::State::Summarize(double wall_seconds) const {
  RunSummary s;
  s.seed = scenario.seed;
  s.nodes = scenario.nodes;
  s.honest = honest_live;
  s.adversaries = adversary_slots;
  s.slots = population->size();
  s.lookups = sim::Summarize(workload->records());
  const double k = static_cast<double>(scenario.kademlia.routing.bucket_size);
  s.hops_predicted = std::log2(static_cast<double>(scenario.nodes)) / (1.333 + std::log2(k));
  s.rtt_mean_ms = latency.MeanRttMs();
  s.latency_floor_ms = s.lookups.hops_mean * s.rtt_mean_ms;
  s.records_status = records ? "simulated" : "no records in this scenario";
  if (records) {
    s.records = records->counters();
    s.records_available_rate = records->available_rate();
    s.records_available_rate_publisher_up = records->available_rate_publisher_up();
  }
  s.trace_hash = TraceValue();
  s.sim_seconds = SecondsSince(now);
  s.wall_seconds = wall_seconds;
  RecordMemory(s);
  s.events = events;
  s.network = network->counters();
  s.online_host_seconds = population->online_time().Seconds(now);
  if (s.online_host_seconds > 0) {
    const auto datagrams = static_cast<double>(s.network.window_sent);
    const auto payload = static_cast<double>(s.network.window_bytes);
    s.bytes_per_node_per_s = payload / s.online_host_seconds;
    s.ip_bytes_per_node_per_s = (payload + datagrams * kIpUdpHeaderBytes) / s.online_host_seconds;
  }
  s.node_totals = population->Totals();
  s.adversary = population->adversary_counters();
  if (churn) s.churn = churn->counters();
  s.join_retries = population->join_retries();
  return s;
}

Simulation::Simulation(const Scenario& scenario, ProgressFn progress, unsigned threads)
    : state_(std::make_unique<State>(scenario, std::move(progress), threads)) {}

Simulation::~Simulation() = default;

PointResult Simulation::Run() {
  State& s = *state_;
  const auto wall_start = std::chrono::steady_clock::now();
  const TimePoint end = s.Setup();
  for (unsigned t = 1; t < s.lane_threads; ++t) {
    s.workers.push_back(std::make_unique<LaneWorker>([&s] { s.TakeLanes(); }));
  }
  uint64_t progress_block = 0;
  while (!s.stopped) {
    // Control events one at a time; host events in batches up to the next control event.
    const TimePoint host_next = s.queue.next_host_event();
    const TimePoint control_next = s.queue.control().next();
    if (host_next == kTimeNever && control_next == kTimeNever) break;
    if (control_next <= host_next) {
      const Event event = s.queue.control().Pop();
      s.now = std::max(s.now, event.at);
      s.clocks.fill(s.now);
      s.Dispatch(event);
      ++s.events;
    } else {
      s.RunBatch(std::min(host_next + s.lookahead, control_next));
    }
    if (s.Settled()) break;
    if (s.progress && s.events / kProgressEveryEvents != progress_block) {
      progress_block = s.events / kProgressEveryEvents;
      s.progress(
          ProgressInfo{"run", SecondsSince(s.now), SecondsSince(end), s.workload->measured()});
    }
  }
  s.workers.clear();
  s.workload->Close();
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
  PointResult result;
  result.summary = s.Summarize(wall.count());
  result.lookups = s.workload->records();
  if (s.records) result.record_misses = s.records->misses();
  return result;
}

}  // namespace skillnode::sim
