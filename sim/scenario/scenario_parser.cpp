#include "sim/scenario/scenario_parser.h"

#include <cmath>
#include <limits>

#include "kademlia/wire/wire.h"
#include "sim/hosts/distribution.h"
#include "sim/network/addressing.h"
#include "sim/network/embedding.h"
#include "sim/network/latency.h"

namespace skillnode::sim::scenario {
namespace {

// Upper bounds that only catch typos (a day of simulated time in ms, a year in seconds).
constexpr double kSecondsMax = 365.0 * 24 * 3600;
constexpr double kMillisMax = 24.0 * 3600 * 1000;
constexpr uint64_t kCountMax = 1'000'000'000;
// Adversaries above this share leave too few honest nodes to measure anything.
constexpr double kAdversaryFractionMax = 0.95;
// Fewer pre-computed ids than this would not outnumber the honest nodes near most keys.
constexpr uint64_t kSybilIdsMin = 1024;
// Record gets: at least one per node in 1000 minutes (the get interval is 60 / this).
constexpr double kGetsPerMinuteMin = 1e-3;
// A capability pool larger than this gives almost every record capabilities of its own.
constexpr uint64_t kCapabilityPoolMax = 1'000'000;
constexpr uint64_t kVerifiedRecordsMax = 1'000'000;
// Words: a skill's words are drawn from the vocabulary; fewer than this many words make every
// query match most skills, more than the max are not generated in reasonable time (each word is
// checked against the stemmer).
constexpr uint64_t kWordVocabularyMin = 16;
constexpr uint64_t kWordVocabularyMax = 1'000'000;
constexpr double kWordSkillsPerNodeMax = 1000;
constexpr double kZipfExponentMax = 4;
constexpr uint64_t kWordHotTermsMax = 64;
// WordSearch reads at most WordSearchConfig::kTermsPerQueryMax (8) terms.
constexpr uint64_t kWordQueryWordsMax = 8;

transport::Duration MillisOf(double ms) {
  return transport::Duration(static_cast<int64_t>(std::llround(ms * 1000)));
}

void ReadKademlia(YamlReader r, kademlia::KademliaConfig& c) {
  c.routing.bucket_size =
      r.Integer("k", c.routing.bucket_size, 1, kademlia::wire::kNodesPerReplyMax);
  c.alpha = r.Integer("alpha", c.alpha, 1, 64);
  c.disjoint_paths = r.Integer("disjoint_paths", c.disjoint_paths, 1, 64);
  c.lookup_slow_retries = r.Integer("lookup_slow_retries", c.lookup_slow_retries, 0, 8);
  c.routing.proximity_ratio = r.Number("proximity_ratio", c.routing.proximity_ratio, 0, 1);
  c.peer_soft_deadlines = r.Bool("peer_soft_deadlines", c.peer_soft_deadlines);
  c.lookup_final_round = r.Bool("lookup_final_round", c.lookup_final_round);
  c.lookup_extra_slots = r.Integer("lookup_extra_slots", c.lookup_extra_slots, 0, 64);
  c.leave_notices_max = r.Integer("leave_notices_max", c.leave_notices_max, 0, 1024);
  c.network_id = static_cast<uint32_t>(
      r.Integer("network_id", c.network_id, 0, std::numeric_limits<uint32_t>::max()));
  const double timeout_ms =
      r.Number("rpc_timeout_ms", transport::ToMillis(c.rpc_timeout), 1, 600'000);
  c.rpc_timeout = MillisOf(timeout_ms);
  c.rpc_timeout_min = MillisOf(
      r.Number("rpc_timeout_min_ms", transport::ToMillis(c.rpc_timeout_min), 1, timeout_ms));
  c.routing.replacement_cache_size =
      r.Integer("replacement_cache_size", c.routing.replacement_cache_size, 0, 1000);
  c.routing.stale_failures_max = static_cast<int>(
      r.Integer("stale_failures_max", static_cast<uint64_t>(c.routing.stale_failures_max), 1, 100));
  const double refresh_s =
      r.Number("bucket_refresh_s", transport::ToMillis(c.routing.bucket_refresh_interval) / 1000, 1,
               kSecondsMax);
  c.routing.bucket_refresh_interval = MillisOf(refresh_s * 1000);
  const double ping_s =
      r.Number("ping_oldest_after_s", transport::ToMillis(c.routing.ping_oldest_after) / 1000, 0,
               kSecondsMax);
  c.routing.ping_oldest_after = MillisOf(ping_s * 1000);
  c.lookup_requests_max = r.Integer("lookup_requests_max", c.lookup_requests_max, 1, 100'000);
  c.lookups_max = r.Integer("lookups_max", c.lookups_max, 1, 1'000'000);
  c.rpcs_in_flight_max = r.Integer("rpcs_in_flight_max", c.rpcs_in_flight_max, 1, 1'000'000);
  c.verified_peers_max = r.Integer("verified_peers_max", c.verified_peers_max, 1, kCountMax);
  c.reach_probes = r.Bool("reach_probes", c.reach_probes);
  c.client_mode = static_cast<kademlia::ClientMode>(
      r.Choice("client_mode", {"off", "on", "auto"}, static_cast<int>(c.client_mode)));
  if (c.client_mode == kademlia::ClientMode::kWhenNat && !c.reach_probes) {
    r.Fail("client_mode", "auto needs reach_probes: true (the verdict it follows)");
  }
  r.Finish();
}

DistributionSpec ReadDistribution(YamlReader r, const DistributionSpec& fallback) {
  DistributionSpec d = fallback;
  d.kind = static_cast<DistributionKind>(
      r.Choice("distribution", {"constant", "exponential", "weibull"}, static_cast<int>(d.kind)));
  if (d.kind == DistributionKind::kWeibull) {
    d.shape = r.Number("shape", 0, 0.05, 20);
    if (!r.Has("shape")) r.Fail("shape", "a Weibull distribution needs a shape");
    if (r.Has("mean_s") == r.Has("scale_s")) {
      r.Fail("mean_s", "give exactly one of mean_s and scale_s for a Weibull distribution");
    }
    if (r.Has("scale_s")) {
      d.scale_s = r.Number("scale_s", d.scale_s, 1e-3, kSecondsMax);
      d.mean_s = d.scale_s * std::tgamma(1 + 1 / std::max(d.shape, 0.05));
    } else {
      d.mean_s = r.Number("mean_s", d.mean_s, 1e-3, kSecondsMax);
      d.scale_s = hosts::WeibullScaleForMean(d.shape > 0 ? d.shape : 1, d.mean_s);
    }
  } else {
    d.mean_s = r.Number("mean_s", d.mean_s, 1e-3, kSecondsMax);
    if (!r.Has("mean_s") && !r.sink().failed()) r.Fail("mean_s", "missing");
  }
  r.Finish();
  return d;
}

void ReadLatency(YamlReader r, LatencySpec& l) {
  l.kind = static_cast<LatencyKind>(r.Choice(
      "model", {"constant", "uniform", "regions", "coordinates"}, static_cast<int>(l.kind)));
  l.rtt_ms = r.Number("rtt_ms", l.rtt_ms, 0, kMillisMax);
  l.rtt_min_ms = r.Number("rtt_min_ms", l.rtt_min_ms, 0, kMillisMax);
  l.rtt_max_ms = r.Number("rtt_max_ms", l.rtt_max_ms, 0, kMillisMax);
  if (l.rtt_max_ms < l.rtt_min_ms) r.Fail("rtt_max_ms", "must not be below rtt_min_ms");
  l.jitter = r.Number("jitter", l.jitter, 0, 0.99);
  l.dimensions = r.Integer("dimensions", l.dimensions, 1, network::kEmbeddingDimensionsMax);
  l.spread_ms = r.Number("spread_ms", l.spread_ms, 0, kMillisMax);
  l.access_ms_min = r.Number("access_ms_min", l.access_ms_min, 0, kMillisMax);
  l.access_ms_max = r.Number("access_ms_max", l.access_ms_max, 0, kMillisMax);
  if (l.access_ms_max < l.access_ms_min) r.Fail("access_ms_max", "must not be below access_ms_min");
  for (YamlReader region : r.MapList("regions")) {
    RegionSpec spec;
    spec.name = region.String("name", "");
    if (spec.name.empty()) region.Fail("name", "missing");
    spec.weight = region.Number("weight", 1.0, 0, 1e9);
    region.Finish();
    l.regions.push_back(spec);
  }
  l.rtt_matrix_ms = r.NumberMatrix("rtt_matrix_ms", 0, kMillisMax);
  r.Finish();
  if (r.sink().failed()) return;
  if (l.kind != LatencyKind::kRegions && l.kind != LatencyKind::kCoordinates) return;
  if (auto error = network::CompleteRegions(l)) r.Fail("regions", *error);
}

void ReadNetwork(YamlReader r, NetworkSpec& n) {
  n.build =
      static_cast<BuildMode>(r.Choice("build", {"oracle", "join"}, static_cast<int>(n.build)));
  n.join_interval_ms = r.Number("join_interval_ms", n.join_interval_ms, 0, kMillisMax);
  n.settle_s = r.Number("settle_s", n.settle_s, 0, kSecondsMax);
  ReadLatency(r.Map("latency"), n.latency);
  n.loss = r.Number("loss", n.loss, 0, 1);
  n.duplicate = r.Number("duplicate", n.duplicate, 0, 1);
  n.reorder = r.Number("reorder", n.reorder, 0, 1);
  n.reorder_delay_ms = r.Number("reorder_delay_ms", n.reorder_delay_ms, 0, kMillisMax);
  for (YamlReader p : r.MapList("partitions")) {
    PartitionSpec spec;
    spec.start_s = p.Number("start_s", 0, 0, kSecondsMax);
    spec.heal_s = p.Number("heal_s", 0, 0, kSecondsMax);
    if (spec.heal_s <= spec.start_s) p.Fail("heal_s", "must be after start_s");
    spec.regions = p.StringList("regions");
    spec.fraction = p.Number("fraction", spec.fraction, 0, 1);
    for (const std::string& name : spec.regions) {
      if (n.latency.kind != LatencyKind::kRegions && n.latency.kind != LatencyKind::kCoordinates) {
        p.Fail("regions", "needs network.latency.model: regions or coordinates");
      } else if (network::RegionIndex(n.latency, name) < 0) {
        p.Fail("regions", "unknown region '" + name + "'");
      }
    }
    p.Finish();
    n.partitions.push_back(spec);
  }
  YamlReader nat = r.Map("nat");
  n.nat.share = nat.Number("share", n.nat.share, 0, 1);
  n.nat.pinhole_s = nat.Number("pinhole_s", n.nat.pinhole_s, 1, kSecondsMax);
  n.nat.pinholes_max = nat.Integer("pinholes_max", n.nat.pinholes_max, 1, kCountMax);
  nat.Finish();
  r.Finish();
}

void ReadChurn(YamlReader r, ChurnSpec& c) {
  c.enabled = true;
  if (!r.Has("session")) r.Fail("session", "missing: a churn block needs a session distribution");
  c.session = ReadDistribution(r.Map("session"), c.session);
  c.downtime = r.Has("downtime") ? ReadDistribution(r.Map("downtime"), c.session) : c.session;
  c.graceful_fraction = r.Number("graceful_fraction", c.graceful_fraction, 0, 1);
  c.rejoin =
      static_cast<RejoinState>(r.Choice("rejoin", {"keep", "lose"}, static_cast<int>(c.rejoin)));
  c.start = static_cast<ChurnStart>(
      r.Choice("start", {"stationary", "lifetime"}, static_cast<int>(c.start)));
  r.Finish();
}

void ReadWorkload(YamlReader r, WorkloadSpec& w) {
  w.lookups = r.Integer("lookups", w.lookups, 0, kCountMax);
  w.lookup_rate_per_s = r.Number("lookup_rate_per_s", w.lookup_rate_per_s, 1e-3, 1e7);
  w.lookup_interval_s = r.Number("lookup_interval_s", w.lookup_interval_s, 1e-3, kSecondsMax);
  w.warmup_s = r.Number("warmup_s", w.warmup_s, 0, kSecondsMax);
  w.measure_s = r.Number("measure_s", w.measure_s, 1e-3, kSecondsMax);
  w.drain_s = r.Number("drain_s", w.drain_s, 0, kSecondsMax);
  w.targets = static_cast<TargetKind>(
      r.Choice("targets", {"random_key", "random_node"}, static_cast<int>(w.targets)));
  r.Finish();
}

void ReadRecords(YamlReader r, RecordsSpec& s) {
  s.enabled = true;
  s.replication = r.Integer("replication", s.replication, 1, kademlia::wire::kNodesPerReplyMax);
  s.records_per_node = r.Number("records_per_node", s.records_per_node, 0, 1e6);
  s.republish_s = r.Number("republish_s", s.republish_s, 1, kSecondsMax);
  s.gets_per_node_per_min =
      r.Number("gets_per_node_per_min", s.gets_per_node_per_min, kGetsPerMinuteMin, 1e6);
  s.get_by =
      static_cast<GetBy>(r.Choice("get_by", {"skill", "capability"}, static_cast<int>(s.get_by)));
  s.capabilities = r.Integer("capabilities", s.capabilities, 0, kCapabilityPoolMax);
  s.verified_records_max =
      r.Integer("verified_records_max", s.verified_records_max, 0, kVerifiedRecordsMax);
  r.Finish();
}

void ReadWords(YamlReader r, WordsSpec& w) {
  w.enabled = true;
  w.skills_per_node = r.Number("skills_per_node", w.skills_per_node, 0, kWordSkillsPerNodeMax);
  w.vocabulary = r.Integer("vocabulary", w.vocabulary, kWordVocabularyMin, kWordVocabularyMax);
  w.zipf_exponent = r.Number("zipf_exponent", w.zipf_exponent, 0, kZipfExponentMax);
  w.zipf_offset = r.Number("zipf_offset", w.zipf_offset, 0, 1e6);
  w.hot_terms = r.Integer("hot_terms", w.hot_terms, 0, kWordHotTermsMax);
  w.hot_share = r.Number("hot_share", w.hot_share, 0, 1);
  w.queries_per_node_per_min =
      r.Number("queries_per_node_per_min", w.queries_per_node_per_min, kGetsPerMinuteMin, 1e6);
  w.query_words_max = r.Integer("query_words_max", w.query_words_max, 1, kWordQueryWordsMax);
  w.hot_query_share = r.Number("hot_query_share", w.hot_query_share, 0, 1);
  if (w.hot_terms == 0 && w.hot_query_share > 0 && r.Has("hot_query_share")) {
    r.Fail("hot_query_share", "needs hot_terms above 0");
  }
  w.query_start_s = r.Number("query_start_s", w.query_start_s, 0, kSecondsMax);
  w.filtered_reads = r.Bool("filtered_reads", w.filtered_reads);
  r.Finish();
}

void Validate(YamlReader& root, Scenario& s) {
  if (root.sink().failed()) return;
  const size_t adversaries =
      static_cast<size_t>(std::llround(s.adversaries.fraction * static_cast<double>(s.nodes)));
  if (s.nodes - adversaries < 2) root.Fail("nodes", "fewer than 2 honest nodes");
  if (s.churn.enabled && s.network.build == BuildMode::kOracle) {
    root.Fail("network.build", "a churning network needs real joins: set it to join");
  }
  if (s.adversaries.model == AdversaryModel::kSybil && s.crypto != CryptoKind::kIdeal) {
    // Ed25519 key pairs take tens of microseconds each: a million is a minute per point.
    root.Fail("adversaries.model", "sybil needs crypto: ideal (its key pairs are derived)");
  }
  if (s.adversaries.model == AdversaryModel::kImpersonate && s.churn.enabled) {
    // Its answers name honest nodes by slot, whose hosts come and go in other event lanes.
    root.Fail("adversaries.model", "impersonate runs on a static network (no churn)");
  }
  // Every slot (churn gives up to twice as many as live nodes) and alias needs an address.
  const size_t aliases = s.adversaries.model == AdversaryModel::kSybil ? s.adversaries.sybil_ids
                         : s.adversaries.model == AdversaryModel::kImpersonate ? 3 * s.nodes
                                                                               : 0;
  if (3 * s.nodes + aliases > network::kSlotsMax) {
    root.Fail("adversaries.sybil_ids", "too many addresses: nodes and their aliases need at most " +
                                           std::to_string(network::kSlotsMax));
  }
  if (s.words.enabled && !s.records.enabled) {
    root.Fail("words", "needs a records block (the skill store's replication and republish_s)");
  }
  if (!s.churn.enabled && s.workload.lookups == 0) {
    root.Fail("workload.lookups", "a static network needs at least one lookup");
  }
}

}  // namespace

Scenario ReadScenario(YamlReader& root) {
  Scenario s;
  s.name = root.String("name", "scenario");
  s.description = root.String("description", "");
  s.seed = root.Integer("seed", s.seed, 0, std::numeric_limits<uint64_t>::max());
  s.nodes = root.Integer("nodes", s.nodes, 2, network::kSlotsMax / 4);
  s.crypto = static_cast<CryptoKind>(
      root.Choice("crypto", {"ideal", "ed25519"}, static_cast<int>(s.crypto)));
  ReadKademlia(root.Map("kademlia"), s.kademlia);
  ReadNetwork(root.Map("network"), s.network);
  YamlReader churn = root.Map("churn");
  if (root.Has("churn")) ReadChurn(churn, s.churn);
  YamlReader adversaries = root.Map("adversaries");
  s.adversaries.fraction = adversaries.Number("fraction", 0, 0, kAdversaryFractionMax);
  s.adversaries.model = static_cast<AdversaryModel>(adversaries.Choice(
      "model", {"eclipse", "drop_storage", "forge_records", "sybil", "impersonate"},
      static_cast<int>(s.adversaries.model)));
  s.adversaries.sybil_ids = adversaries.Integer("sybil_ids", s.adversaries.sybil_ids, kSybilIdsMin,
                                                network::kSlotsMax / 2);
  adversaries.Finish();
  ReadWorkload(root.Map("workload"), s.workload);
  YamlReader records = root.Map("records");
  if (root.Has("records")) ReadRecords(records, s.records);
  YamlReader words = root.Map("words");
  if (root.Has("words")) ReadWords(words, s.words);
  YamlReader plot = root.Map("plot");
  s.plot.x = plot.String("x", "");
  s.plot.series = plot.String("series", "");
  plot.Finish();
  Validate(root, s);
  return s;
}

}  // namespace skillnode::sim::scenario
