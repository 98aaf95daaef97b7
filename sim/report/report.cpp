#include "sim/report/report.h"

#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/engine/trace_hash.h"
#include "sim/report/reach_report.h"
#include "sim/report/seed_groups.h"
#include "sim/report/words_report.h"
#include "sim/scenario/yaml_reader.h"

namespace skillnode::sim::report {
namespace {

using nlohmann::json;

std::string_view StatusName(workloads::LookupStatus status) {
  switch (status) {
    case workloads::LookupStatus::kPending:
      return "pending";
    case workloads::LookupStatus::kCompleted:
      return "completed";
    case workloads::LookupStatus::kRefused:
      return "refused";
    case workloads::LookupStatus::kInterrupted:
      return "interrupted";
    case workloads::LookupStatus::kUnfinished:
      return "unfinished";
  }
  return "unknown";
}

// A swept value as JSON: a number when it reads as one.
json SweptJson(const std::string& text) {
  if (auto n = scenario::YamlReader::ParseInteger(text)) return *n;
  if (auto n = scenario::YamlReader::ParseNumber(text)) return *n;
  return text;
}

json NodeTotalsJson(const NodeTotals& t) {
  json dropped = json::object();
  for (size_t i = 0; i < t.dropped.size(); ++i) {
    dropped[std::string(kademlia::DropReasonName(static_cast<kademlia::DropReason>(i)))] =
        t.dropped[i];
  }
  json sent = json::object(), received = json::object();
  for (size_t i = 0; i < t.rpcs_sent_by_type.size(); ++i) {
    const std::string name(kademlia::TypeSlotName(static_cast<kademlia::TypeSlot>(i)));
    if (t.rpcs_sent_by_type[i] > 0) sent[name] = t.rpcs_sent_by_type[i];
    if (t.requests_received_by_type[i] > 0) received[name] = t.requests_received_by_type[i];
  }
  return json{{"nodes", t.nodes},
              {"datagrams_sent", t.datagrams_sent},
              {"datagrams_received", t.datagrams_received},
              {"send_failures", t.send_failures},
              {"dropped", dropped},
              {"rpcs_sent", t.rpcs_sent},
              {"rpcs_sent_by_type", sent},
              {"requests_received_by_type", received},
              {"rpcs_timed_out", t.rpcs_timed_out},
              {"rpcs_refused", t.rpcs_refused},
              {"rpcs_rejected", t.rpcs_rejected},
              {"signatures_verified", t.signatures_verified},
              {"verification_cache_hits", t.verification_cache_hits},
              {"verifications_skipped", t.verifications_skipped},
              {"lookups_started", t.lookups_started},
              {"lookups_refused", t.lookups_refused},
              {"leaves_sent", t.leaves_sent},
              {"contacts_left", t.contacts_left},
              {"handoff_records", t.handoff_records},
              {"repair_keys", t.repair_keys},
              {"pages_retried", t.pages_retried},
              {"term_pointers_published", t.term_pointers_published},
              {"term_handoff_pointers", t.term_handoff_pointers},
              {"term_read_repairs", t.term_read_repairs},
              {"term_pointers_handed_on", t.term_pointers_handed_on},
              {"term_hand_ons_placed", t.term_hand_ons_placed},
              {"term_pointers_outranked", t.term_pointers_outranked},
              {"read_repairs", t.read_repairs},
              {"records_resigned", t.records_resigned},
              {"records_outside_window", t.records_outside_window},
              {"records_verified", t.records_verified},
              {"records_verified_again", t.records_verified_again},
              {"held",
               {{"records", t.held.records},
                {"record_bytes", t.held.record_bytes},
                {"pointers", t.held.pointers},
                {"pointer_bytes", t.held.pointer_bytes},
                {"term_keys", t.held.term_keys},
                {"pointers_max", t.held.pointers_max},
                {"verified_cached", t.held.verified_cached},
                {"verified_cached_max", t.held.verified_cached_max}}}};
}

json RunJson(const RunSummary& s) {
  const workloads::LookupSummary& l = s.lookups;
  json out = {
      {"seed", s.seed},
      {"nodes", s.nodes},
      {"honest_nodes", s.honest},
      {"adversary_nodes", s.adversaries},
      {"slots", s.slots},
      {"lookups", l.lookups},
      {"lookups_completed", l.completed},
      {"lookups_refused", l.refused},
      {"lookups_interrupted", l.interrupted},
      {"lookups_unfinished", l.unfinished},
      {"success_rate", l.success_rate},
      {"oracle_mismatches", l.oracle_mismatches},
      {"overlap_mean", l.overlap_mean},
      {"dead_in_results", l.dead_in_results},
      {"hops_mean", l.hops_mean},
      {"hops_p99", l.hops_p99},
      {"hops_predicted", s.hops_predicted},
      {"messages_per_lookup", l.messages_per_lookup},
      {"failures_per_lookup", l.failures_per_lookup},
      {"misses",
       {{"gone", l.failures_by_cause[static_cast<size_t>(workloads::FailureCause::kGone)]},
        {"unknown", l.failures_by_cause[static_cast<size_t>(workloads::FailureCause::kUnknown)]},
        {"unreached",
         l.failures_by_cause[static_cast<size_t>(workloads::FailureCause::kUnreached)]},
        {"lost", l.failures_by_cause[static_cast<size_t>(workloads::FailureCause::kLost)]},
        {"unanswered",
         l.failures_by_cause[static_cast<size_t>(workloads::FailureCause::kUnanswered)]},
        {"slow", l.failures_by_cause[static_cast<size_t>(workloads::FailureCause::kSlow)]},
        {"answered", l.failures_by_cause[static_cast<size_t>(workloads::FailureCause::kAnswered)]},
        {"responsible_age_s_p50", l.failed_responsible_age_s_p50}}},
      {"responsible_age_s_p50", l.responsible_age_s_p50},
      {"latency_ms_mean", l.latency_ms_mean},
      {"latency_ms_p50", l.latency_ms_p50},
      {"latency_ms_p99", l.latency_ms_p99},
      {"rtt_mean_ms", s.rtt_mean_ms},
      {"latency_floor_ms", s.latency_floor_ms},
      {"heep_lookups", l.heep_lookups},
      {"heep_failures", l.heep_failures},
      {"reached_rate", l.reached_rate},
      {"heep_latency_ms_mean", l.heep_latency_ms_mean},
      {"heep_latency_ms_p50", l.heep_latency_ms_p50},
      {"heep_latency_ms_p99", l.heep_latency_ms_p99},
      {"online_host_seconds", s.online_host_seconds},
      {"bytes_per_node_per_s", s.bytes_per_node_per_s},
      {"ip_bytes_per_node_per_s", s.ip_bytes_per_node_per_s},
      {"records_status", s.records_status},
      {"trace_hash", engine::TraceHash::Hex(s.trace_hash)},
      {"sim_seconds", s.sim_seconds},
      {"wall_seconds", s.wall_seconds},
      {"threads", s.threads},
      {"peak_rss_mb", s.peak_rss_mb},
      {"allocator", s.allocator},
      {"malloc_huge_pages", s.malloc_huge_pages},
      {"huge_pages_mb", s.huge_pages_mb},
      {"events", s.events},
      {"network",
       {{"sent", s.network.sent},
        {"delivered", s.network.delivered},
        {"lost", s.network.lost},
        {"partitioned", s.network.partitioned},
        {"duplicated", s.network.duplicated},
        {"reordered", s.network.reordered},
        {"unroutable", s.network.unroutable},
        {"to_offline", s.network.to_offline},
        {"nat_dropped", s.network.nat_dropped},
        {"bytes_delivered", s.network.bytes_delivered},
        {"pool_full", s.network.pool_full},
        {"window_sent", s.network.window_sent},
        {"window_bytes", s.network.window_bytes}}},
      {"churn",
       {{"arrivals", s.churn.arrivals},
        {"joins_completed", s.churn.joins_completed},
        {"crashes", s.churn.crashes},
        {"graceful", s.churn.graceful}}},
      {"join_retries", s.join_retries},
      {"adversary",
       {{"eclipse_replies", s.adversary.eclipse_replies},
        {"impersonations", s.adversary.impersonations},
        {"storage_requests_dropped", s.adversary.storage_requests_dropped},
        {"forge_opportunities", s.adversary.forge_opportunities},
        {"records_forged", s.adversary.records_forged}}},
      {"node_stats", NodeTotalsJson(s.node_totals)},
  };
  if (s.words) out["words"] = WordsJson(*s.words);
  if (s.reach) out["reach"] = ReachJson(*s.reach, s.node_totals);
  if (s.adversary_tables) {
    const adversaries::TableCensus& t = *s.adversary_tables;
    out["adversary"]["table_contacts"] = t.contacts;
    out["adversary"]["table_contacts_adversarial"] = t.adversarial;
    out["adversary"]["nearest_contacts"] = t.nearest;
    out["adversary"]["nearest_contacts_adversarial"] = t.nearest_adversarial;
  }
  if (s.records_available_rate) out["records_available_rate"] = *s.records_available_rate;
  if (s.records_available_rate_publisher_up) {
    out["records_available_rate_publisher_up"] = *s.records_available_rate_publisher_up;
  }
  if (s.records_status == "simulated") {
    const workloads::RecordCounters& r = s.records;
    out["records"] = {{"published", r.published},
                      {"publishes_done", r.publishes_done},
                      {"gets", r.gets},
                      {"gets_refused", r.gets_refused},
                      {"gets_interrupted", r.gets_interrupted},
                      {"gets_checked", r.gets_checked},
                      {"gets_found", r.gets_found},
                      {"gets_checked_publisher_up", r.gets_checked_publisher_up},
                      {"gets_found_publisher_up", r.gets_found_publisher_up},
                      {"missed_lost", r.missed_lost},
                      {"missed_near", r.missed_near},
                      {"missed_asked", r.missed_asked},
                      {"missed_far", r.missed_far},
                      {"gets_no_target", r.gets_no_target},
                      {"records_rejected", r.records_rejected},
                      {"records_unknown", r.records_unknown}};
  }
  return out;
}

// One object per group of seeds: its swept values, its seeds and points, and per figure
// {mean, ci95, min, max}.
json GroupsJson(const std::vector<SeedGroup>& groups) {
  json list = json::array();
  for (const SeedGroup& g : groups) {
    json group = json::object();
    for (const scenario::SweptValue& v : g.swept) group[v.path] = SweptJson(v.value);
    group["seeds"] = g.points.size();
    group["points"] = g.points;
    const std::vector<std::string_view>& names = GroupFigureNames();
    for (size_t i = 0; i < names.size(); ++i) {
      const Estimate& e = g.figures[i];
      group[std::string(names[i])] = {
          {"mean", e.mean}, {"ci95", e.ci95}, {"min", e.min}, {"max", e.max}};
    }
    list.push_back(std::move(group));
  }
  return list;
}

}  // namespace

double PeakRssMb() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

RunSummary CombineRuns(const std::vector<PointResult>& points, double wall_seconds) {
  if (points.size() == 1) {
    RunSummary one = points.front().summary;
    one.wall_seconds = wall_seconds;
    // Huge pages stay as the run measured them: its heap has been given back since.
    one.peak_rss_mb = PeakRssMb();
    return one;
  }
  RunSummary total;
  std::vector<workloads::LookupRecord> pooled;
  engine::TraceHash chain;
  for (const PointResult& p : points) {
    const RunSummary& s = p.summary;
    pooled.insert(pooled.end(), p.lookups.begin(), p.lookups.end());
    chain.Add(s.trace_hash);
    total.nodes = std::max(total.nodes, s.nodes);
    total.honest = std::max(total.honest, s.honest);
    total.adversaries = std::max(total.adversaries, s.adversaries);
    total.slots = std::max(total.slots, s.slots);
    total.sim_seconds += s.sim_seconds;
    total.threads = std::max(total.threads, s.threads);
    total.events += s.events;
    total.rtt_mean_ms = s.rtt_mean_ms;
    total.records_status = s.records_status;
    total.allocator = s.allocator;
    total.malloc_huge_pages = s.malloc_huge_pages;
    total.huge_pages_mb = std::max(total.huge_pages_mb, s.huge_pages_mb);
    workloads::RecordCounters& r = total.records;
    r.published += s.records.published;
    r.publishes_done += s.records.publishes_done;
    r.gets += s.records.gets;
    r.gets_refused += s.records.gets_refused;
    r.gets_interrupted += s.records.gets_interrupted;
    r.gets_checked += s.records.gets_checked;
    r.gets_found += s.records.gets_found;
    r.gets_checked_publisher_up += s.records.gets_checked_publisher_up;
    r.gets_found_publisher_up += s.records.gets_found_publisher_up;
    r.missed_lost += s.records.missed_lost;
    r.missed_near += s.records.missed_near;
    r.missed_asked += s.records.missed_asked;
    r.missed_far += s.records.missed_far;
    r.gets_no_target += s.records.gets_no_target;
    r.records_rejected += s.records.records_rejected;
    r.records_unknown += s.records.records_unknown;
    total.adversary += s.adversary;
    if (s.adversary_tables) {
      if (!total.adversary_tables) total.adversary_tables.emplace();
      *total.adversary_tables += *s.adversary_tables;
    }
    total.network += s.network;
    total.online_host_seconds += s.online_host_seconds;
  }
  if (total.online_host_seconds > 0) {
    const auto payload = static_cast<double>(total.network.window_bytes);
    const auto datagrams = static_cast<double>(total.network.window_sent);
    total.bytes_per_node_per_s = payload / total.online_host_seconds;
    total.ip_bytes_per_node_per_s =
        (payload + datagrams * kIpUdpHeaderBytes) / total.online_host_seconds;
  }
  total.seed = points.empty() ? 0 : points.front().summary.seed;
  total.lookups = workloads::Summarize(pooled);
  total.latency_floor_ms = total.lookups.hops_mean * total.rtt_mean_ms;
  if (total.records.gets_checked > 0) {
    total.records_available_rate = static_cast<double>(total.records.gets_found) /
                                   static_cast<double>(total.records.gets_checked);
  }
  if (total.records.gets_checked_publisher_up > 0) {
    total.records_available_rate_publisher_up =
        static_cast<double>(total.records.gets_found_publisher_up) /
        static_cast<double>(total.records.gets_checked_publisher_up);
  }
  total.trace_hash = chain.value();
  total.wall_seconds = wall_seconds;
  total.peak_rss_mb = PeakRssMb();
  return total;
}

transport::Result<std::string> SummaryJson(const scenario::ScenarioPlan& plan,
                                           const std::vector<PointResult>& points,
                                           const RunSummary& total) {
  try {
    json out = RunJson(total);
    out["scenario"] = plan.base.name;
    if (!plan.swept.empty()) {
      out["swept"] = plan.swept;
      json list = json::array();
      for (size_t i = 0; i < points.size(); ++i) {
        json point = RunJson(points[i].summary);
        point["point"] = i;
        for (const scenario::SweptValue& v : points[i].swept) point[v.path] = SweptJson(v.value);
        list.push_back(std::move(point));
      }
      out["points"] = std::move(list);
    }
    const std::vector<SeedGroup> groups = GroupBySeed(plan, points);
    if (!groups.empty()) out["groups"] = GroupsJson(groups);
    return out.dump(2) + "\n";
  } catch (const json::exception& e) {
    return transport::Fail(transport::ErrorCode::kInternal,
                           std::string("summary.json: ") + e.what());
  }
}

transport::Result<bool> WriteReport(const std::string& dir, const scenario::ScenarioPlan& plan,
                                    const std::vector<PointResult>& points,
                                    const RunSummary& total) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return transport::Fail(transport::ErrorCode::kIo, dir + ": " + ec.message());
  auto text = SummaryJson(plan, points, total);
  if (!text) return tl::unexpected(text.error());
  std::ofstream summary(dir + "/summary.json", std::ios::trunc);
  summary << *text;
  std::ofstream csv(dir + "/lookups.csv", std::ios::trunc);
  csv << "point,start_s,asker,status,success,exact,overlap,truth_size,result_size,dead,hops,"
         "messages,failures,latency_ms,responsible,contact_ms,heep_ms,late_ms,responsible_rtt_ms,"
         "responsible_age_s,responsible_held,cause\n";
  for (size_t i = 0; i < points.size(); ++i) {
    for (const workloads::LookupRecord& r : points[i].lookups) {
      csv << i << ',' << r.start_s << ',' << r.asker << ',' << StatusName(r.status) << ','
          << r.success << ',' << r.exact << ',' << int{r.overlap} << ',' << int{r.truth_size} << ','
          << int{r.result_size} << ',' << int{r.dead} << ',' << r.hops << ',' << r.messages << ','
          << r.failures << ',' << r.latency_ms << ','
          << (r.responsible == workloads::kNoResponsible ? -1 : int64_t{r.responsible}) << ','
          << r.contact_ms << ',' << r.heep_ms << ',' << r.late_ms << ',' << r.responsible_rtt_ms
          << ',' << r.responsible_age_s << ',' << (r.responsible_held ? 1 : 0) << ','
          << workloads::FailureCauseName(r.cause) << '\n';
    }
  }
  summary.flush();
  csv.flush();
  if (!summary || !csv)
    return transport::Fail(transport::ErrorCode::kIo, dir + ": cannot write the report");
  auto words = WriteWordQueries(dir, points);
  if (!words) return words;
  if (total.records_status != "simulated") return true;
  std::ofstream misses(dir + "/record_misses.csv", std::ios::trunc);
  misses << "point,finished_s,asker,publisher,publisher_up,published_for_s,kind,live_holders,"
            "near_holders,answered,records,messages,replies,failures\n";
  for (size_t i = 0; i < points.size(); ++i) {
    for (const workloads::RecordMiss& m : points[i].record_misses) {
      misses << i << ',' << m.finished_s << ',' << m.asker << ',' << m.publisher << ','
             << m.publisher_up << ',' << m.published_for_s << ',' << workloads::MissKindName(m.kind)
             << ',' << m.live_holders << ',' << m.near_holders << ',' << m.answered << ','
             << m.records << ',' << m.messages << ',' << m.replies << ',' << m.failures << '\n';
    }
  }
  misses.flush();
  if (!misses)
    return transport::Fail(transport::ErrorCode::kIo, dir + ": cannot write record_misses.csv");
  return true;
}

}  // namespace skillnode::sim::report
