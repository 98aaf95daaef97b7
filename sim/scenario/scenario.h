// Scenario: everything one simulation run needs, as plain data with defaults.
//
// A scenario file (YAML, sim/scenarios/) is parsed into a ScenarioPlan by scenario_parser.h:
// one Scenario per point of its parameter sweep. docs/simulation.md documents every key; the
// defaults below are those of an unspecified key. Times in the file are in seconds (`_s`) or
// milliseconds (`_ms`) as the key says; RTTs are round trips, a datagram takes half.
#ifndef SKILLNODE_SIM_SCENARIO_SCENARIO_H_
#define SKILLNODE_SIM_SCENARIO_SCENARIO_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kademlia/config.h"

namespace skillnode::sim::scenario {

// How the network comes to exist: routing tables filled from the oracle as a converged
// network would have them (fast, static networks only), or every node running a real join.
enum class BuildMode { kOracle, kJoin };
enum class LatencyKind { kConstant, kUniform, kRegions, kCoordinates };
enum class DistributionKind { kConstant, kExponential, kWeibull };
// (a) eclipse: answers FIND_NODE only with other adversaries closer to the target (the
// S/Kademlia model); (b) drop_storage: routes honestly, drops every STORE and FIND_VALUE;
// (c) forge_records: routes honestly, answers FIND_VALUE with forged records.
enum class AdversaryModel { kEclipse, kDropStorage, kForgeRecords, kSybil, kImpersonate };
enum class TargetKind { kRandomKey, kRandomNode };
// What a node that comes back after leaving still has: its identity and its saved routing
// table (a restarted daemon), or nothing (a new node with a new identity in that slot).
enum class RejoinState { kKeep, kLose };
// How a churning population starts. stationary: every slot rolled forward to the stationary
// state of its on/off alternation (the right share online, residual session times). lifetime:
// OverSim's LifetimeChurn start — `nodes` slots created one by one, each living a fresh whole
// session from the end of that creation phase, and as many slots offline that come up a fresh
// downtime after it; twice as many slots as live nodes.
enum class ChurnStart { kStationary, kLifetime };
// Which key a record get asks for: the record's skill key SHA256("skill:" + skillId), or the
// capability key SHA256("capability:" + c) of one of its capabilities, which other records
// share.
enum class GetBy { kSkill, kCapability };
// How hosts sign and verify: the ideal-signature oracle (sim/hosts/ideal_signatures.h) or Ed25519.
enum class CryptoKind { kIdeal, kEd25519 };

struct DistributionSpec {
  DistributionKind kind = DistributionKind::kExponential;
  double mean_s = 3600;
  double shape = 1.0;     // Weibull shape k
  double scale_s = 3600;  // Weibull scale lambda: mean_s / Gamma(1 + 1/k)
};

struct RegionSpec {
  std::string name;
  double weight = 1.0;  // share of nodes placed in this region (normalised)
};

struct LatencySpec {
  LatencyKind kind = LatencyKind::kConstant;
  double rtt_ms = 100;  // constant
  double rtt_min_ms = 20;
  double rtt_max_ms = 200;  // uniform: each datagram draws its RTT in [min, max]
  // regions: the nodes are spread over these regions; rtt_matrix_ms[i][j] is the RTT
  // between regions i and j (symmetric). Empty: the built-in six-region matrix (latency.h).
  std::vector<RegionSpec> regions;
  std::vector<std::vector<double>> rtt_matrix_ms;
  // coordinates (in the manner of OverSim's SimpleUnderlay): the regions' RTT matrix embedded
  // in `dimensions` Euclidean dimensions (embedding.h); each host placed at its region's point
  // plus a normal offset of spread_ms per dimension, with its own access delay drawn uniformly
  // in [access_ms_min, access_ms_max]. A datagram takes half the distance (in ms of RTT) plus
  // both hosts' access delays.
  size_t dimensions = 2;
  double spread_ms = 10;
  double access_ms_min = 5;
  double access_ms_max = 10;
  // Each datagram's delay is multiplied by a factor uniform in [1 - jitter, 1 + jitter].
  double jitter = 0;
};

struct PartitionSpec {
  double start_s = 0;
  double heal_s = 0;
  // One side: the nodes in these regions, or else a random `fraction` of the nodes.
  std::vector<std::string> regions;
  double fraction = 0.5;
};

// Hosts behind NATs (network/nat.h): a share of the honest hosts, chosen from the seed, each
// behind a router that lets a datagram in only from an address the host sent to within the
// last pinhole_s (address-restricted filtering, mapping its port unchanged), at most
// pinholes_max addresses at once (the router's table; the oldest goes first).
struct NatSpec {
  double share = 0;
  double pinhole_s = 120;  // RFC 4787's lower bound for a UDP mapping's idle timeout
  size_t pinholes_max = 1024;
};

struct NetworkSpec {
  BuildMode build = BuildMode::kOracle;
  double join_interval_ms = 100;  // join build and the first nodes of a churn run
  double settle_s = 60;           // join build: quiet time after the last join
  LatencySpec latency;
  double loss = 0;       // probability a datagram is lost
  double duplicate = 0;  // probability a datagram arrives twice
  double reorder = 0;    // probability a datagram is held back by up to reorder_delay_ms
  double reorder_delay_ms = 100;
  std::vector<PartitionSpec> partitions;
  NatSpec nat;
};

struct ChurnSpec {
  bool enabled = false;
  DistributionSpec session;      // online time
  DistributionSpec downtime;     // offline time (default: the session distribution)
  double graceful_fraction = 0;  // departures that call Node::Shutdown instead of crashing
  RejoinState rejoin = RejoinState::kLose;
  ChurnStart start = ChurnStart::kStationary;
};

struct AdversarySpec {
  double fraction = 0;  // of all nodes; adversaries never churn
  AdversaryModel model = AdversaryModel::kEclipse;
  // sybil: key pairs the adversaries computed in advance (sim/adversaries/sybil.h).
  size_t sybil_ids = size_t{1} << 20;
};

struct WorkloadSpec {
  // Static networks: `lookups` lookups from random honest nodes at lookup_rate_per_s.
  uint64_t lookups = 1000;
  double lookup_rate_per_s = 100;
  // Churn: every live node looks up a target every lookup_interval_s; lookups started in
  // [warmup_s, warmup_s + measure_s) are measured.
  double lookup_interval_s = 60;
  double warmup_s = 0;
  double measure_s = 600;
  TargetKind targets = TargetKind::kRandomKey;
  // After the last lookup started: time allowed for lookups to finish before the run ends.
  double drain_s = 60;
};

// Records: carried by the format now, run once the skill store (STORE/FIND_VALUE) exists.
struct RecordsSpec {
  bool enabled = false;
  size_t replication = 3;       // r: nodes each record is stored on
  double records_per_node = 1;  // published by each honest node
  double republish_s = 3600;    // origin republishes this often
  double gets_per_node_per_min = 1;
  GetBy get_by = GetBy::kSkill;
  // Size of the pool each record draws its one or two capabilities from; 0: every record has
  // the one capability "sim".
  size_t capabilities = 0;
  // Each node's table of records whose signatures it has checked (DhtConfig::
  // verified_records_max). The daemon keeps 1,024, about 1.5 MB at most; in one process of
  // 10,000 nodes that is 15 GB. What the table changes is only how often a copy is verified
  // again, not what the network does (the trace hash is the same).
  size_t verified_records_max = 64;
};

// Words: the network word search (sim/workloads/word_workload.h). Needs a `records` block, whose
// replication and republish_s the skill store uses.
struct WordsSpec {
  bool enabled = false;
  // The corpus: skills_per_node skills per honest slot, each with a name of 2-3 words and a
  // description of 8-20 words drawn from `vocabulary` generated words by a Zipf(-Mandelbrot)
  // law, p(rank r) proportional to 1 / (r + zipf_offset)^zipf_exponent, plus `hot_terms` hot
  // words, each in the description of a hot_share of all skills (word_corpus.h).
  double skills_per_node = 10;
  size_t vocabulary = 5000;
  double zipf_exponent = 1.0;
  double zipf_offset = 0;
  size_t hot_terms = 3;
  double hot_share = 0.1;
  // Queries: every joined honest node runs one every 60 / queries_per_node_per_min seconds, of
  // 1 to query_words_max words drawn by the same law, one of them a hot word in a
  // hot_query_share of the queries.
  double queries_per_node_per_min = 0.5;
  size_t query_words_max = 3;
  double hot_query_share = 0.2;
  // Static networks: queries are measured from this long after every node published, for
  // workload.measure_s (churn: the workload's window).
  double query_start_s = 120;
  // The rarest word's further read is filtered by the query's other words (WordSearchConfig::
  // filtered_reads, the daemon's default); false reads as an earlier reader did.
  bool filtered_reads = true;
};

struct PlotSpec {
  std::string x;       // swept parameter on the x axis of success_vs_<x>.png
  std::string series;  // swept parameter giving one line per value
};

struct Scenario {
  std::string name;
  std::string description;
  uint64_t seed = 1;
  size_t nodes = 1000;
  CryptoKind crypto = CryptoKind::kIdeal;
  kademlia::KademliaConfig kademlia;
  NetworkSpec network;
  ChurnSpec churn;
  AdversarySpec adversaries;
  WorkloadSpec workload;
  RecordsSpec records;
  WordsSpec words;
  PlotSpec plot;
};

// One swept parameter's value at one point: its key path and its text in the file.
struct SweptValue {
  std::string path;
  std::string value;
};

struct ScenarioPoint {
  Scenario scenario;
  std::vector<SweptValue> swept;  // empty without a sweep
};

struct ScenarioPlan {
  Scenario base;                      // before the sweep is applied
  std::vector<std::string> swept;     // swept key paths, in file order
  std::vector<ScenarioPoint> points;  // the Cartesian product, last key varying fastest
};

}  // namespace skillnode::sim::scenario

#endif  // SKILLNODE_SIM_SCENARIO_SCENARIO_H_
