// Simulation and Simulation::State: the event loop, the dispatch of each event to its owner,
// the batches of host events over the lanes, and the summary (simulation.h). The setup
// before the first event is PopulationSetup's (population_setup.h).
#include "sim/engine/simulation.h"

#include <chrono>

#include "sim/engine/heap.h"
#include "sim/engine/simulation_state.h"

namespace skillnode::sim::engine {

bool Simulation::State::Settled() const {
  const transport::TimePoint lookups_end = workload->last_start();
  if (!workload->Settled() || now < lookups_end) return false;
  return (!records || records->Settled()) && (!words || words->Settled());
}

void Simulation::State::Dispatch(const Event& e) {
  switch (e.kind) {
    case EventKind::kDeliver: {
      if (!network->Admit(e.slot, e.arg, e.at)) return;  // the receiver's NAT let it not in
      const network::Network::Packet& packet = network->packet(e.arg);
      workload->OnDelivery(e.slot, packet.from, packet.bytes);
      if (words) words->OnDelivered(e.slot, packet.bytes);
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
      return setup->OnJoinEvent(e.slot);
    case EventKind::kJoinRetry:
      return population->OnJoinRetry(e.slot, e.arg);
    case EventKind::kOnline:
      return churn->OnOnline(e.slot);
    case EventKind::kOffline:
      return churn->OnOffline(e.slot, e.arg);
    case EventKind::kAnnounce:
      return setup->Announce(e.slot);
    case EventKind::kPublishAll:
      return records->OnPublishAll();
    case EventKind::kRecordGet:
      return records->OnGet(e.slot, e.arg);
    case EventKind::kWordPublishAll:
      return words->OnPublishAll();
    case EventKind::kWordQuery:
      return words->OnQuery(e.slot, e.arg);
    case EventKind::kStop:
      stopped = true;
      return;
  }
}

// One lane's events due before `horizon`, on this thread.
void Simulation::State::RunLane(size_t lane, transport::TimePoint horizon) {
  const EventQueue::LaneScope scope(queue, lane);
  EventHeap& heap = queue.lane(lane);
  transport::TimePoint& clock = clocks[lane];
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
void Simulation::State::RunBatch(transport::TimePoint horizon) {
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
  // What the workloads' callbacks left for the batch's end, as of its last event.
  if (records) records->EndBatch();
  if (words) words->EndBatch();
}

// The control side's digest, then each lane's.
uint64_t Simulation::State::TraceValue() const {
  TraceHash combined = trace;
  for (const TraceHash& lane : lane_traces) combined.Add(lane.value());
  return combined.value();
}

report::RunSummary Simulation::State::Summarize(double wall_seconds) {
  report::RunSummary s;
  s.seed = scenario.seed;
  s.nodes = scenario.nodes;
  s.honest = honest_live;
  s.adversaries = adversary_slots;
  s.slots = population->size();
  s.lookups = sim::workloads::Summarize(workload->records());
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
  if (words) s.words = words->Summary(population->Totals());
  s.trace_hash = TraceValue();
  s.sim_seconds = SecondsSince(now);
  s.wall_seconds = wall_seconds;
  s.threads = lane_threads;
  RecordMemory(s);
  s.events = events;
  s.network = network->counters();
  s.online_host_seconds = population->online_time().Seconds(now);
  if (s.online_host_seconds > 0) {
    const auto datagrams = static_cast<double>(s.network.window_sent);
    const auto payload = static_cast<double>(s.network.window_bytes);
    s.bytes_per_node_per_s = payload / s.online_host_seconds;
    s.ip_bytes_per_node_per_s =
        (payload + datagrams * report::kIpUdpHeaderBytes) / s.online_host_seconds;
  }
  s.node_totals = population->Totals();
  if (scenario.network.nat.share > 0) s.reach = population->Reach();
  s.adversary = population->adversary_counters();
  if (adversary_slots > 0) s.adversary_tables = population->AdversaryTables();
  if (churn) s.churn = churn->counters();
  s.join_retries = population->join_retries();
  return s;
}

Simulation::Simulation(const scenario::Scenario& scenario, ProgressFn progress, unsigned threads)
    : state_(std::make_unique<State>(scenario, std::move(progress), threads)) {}

Simulation::~Simulation() = default;

report::PointResult Simulation::Run() {
  State& s = *state_;
  const auto wall_start = std::chrono::steady_clock::now();
  const transport::TimePoint end = s.setup->Run(s.rng, s.now, s.progress);
  for (unsigned t = 1; t < s.lane_threads; ++t) {
    s.workers.push_back(std::make_unique<LaneWorker>([&s] { s.TakeLanes(); }));
  }
  uint64_t progress_block = 0;
  while (!s.stopped) {
    // Control events one at a time; host events in batches up to the next control event.
    const transport::TimePoint host_next = s.queue.next_host_event();
    const transport::TimePoint control_next = s.queue.control().next();
    if (host_next == transport::kTimeNever && control_next == transport::kTimeNever) break;
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
  report::PointResult result;
  result.summary = s.Summarize(wall.count());
  result.lookups = s.workload->TakeRecords();  // not copied: at 10^6 nodes they are gigabytes
  if (s.records) result.record_misses = s.records->misses();
  if (s.words) result.word_queries = s.words->rows();
  return result;
}

}  // namespace skillnode::sim::engine
