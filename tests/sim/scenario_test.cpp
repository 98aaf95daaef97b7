// Scenario files: the shipped experiments parse, and every kind of mistake is refused with
// the key path that holds it.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <utility>

#include "sim/scenario/scenario_parser.h"
#include "support/source_root.h"

namespace skillnode::sim {
namespace {

std::string ErrorOf(const std::string& yaml, const scenario::ScenarioOverrides& overrides = {}) {
  auto plan = scenario::ParseScenario(yaml, "test.yaml", overrides);
  if (plan) return "no error";
  return plan.error().message;
}

TEST_CASE("the shipped experiment scenarios parse into their sweeps", "[unit]") {
  const std::string dir = (testing::SourceRoot() / "sim/scenarios").string();
  const std::pair<const char*, scenario::AdversaryModel> e1_files[] = {
      {"/e1-skademlia.yaml", scenario::AdversaryModel::kEclipse},
      {"/e1-sybil.yaml", scenario::AdversaryModel::kSybil},
      {"/e1-impersonate.yaml", scenario::AdversaryModel::kImpersonate}};
  for (const auto& [file, model] : e1_files) {
    auto e1 = scenario::LoadScenarioFile(dir + file);
    INFO(file << ": " << (e1 ? "" : e1.error().message));
    REQUIRE(e1);
    // S/Kademlia's series: k = 2d, adversaries up to 90 %, three seeds each.
    REQUIRE(e1->points.size() == 120);
    CHECK(e1->points[0].scenario.nodes == 10000);
    CHECK(e1->points[0].scenario.adversaries.model == model);
    CHECK(e1->points[0].scenario.kademlia.routing.bucket_size == 2);
    CHECK(e1->points[0].scenario.seed == 1);
    CHECK(e1->points[2].scenario.seed == 3);
    const scenario::Scenario& last = e1->points[119].scenario;
    CHECK(last.kademlia.disjoint_paths == 8);
    CHECK(last.kademlia.routing.bucket_size == 16);
    CHECK(last.adversaries.fraction == 0.9);
  }

  auto e2 = scenario::LoadScenarioFile(dir + "/e2-hops.yaml");
  REQUIRE(e2);
  REQUIRE(e2->points.size() == 6);
  CHECK(e2->points[5].scenario.nodes == 100000);
  CHECK(e2->points[5].scenario.kademlia.routing.bucket_size == 20);

  auto e3 = scenario::LoadScenarioFile(dir + "/e3-churn.yaml");
  REQUIRE(e3);
  REQUIRE(e3->points.size() == 1);
  const scenario::Scenario& churn = e3->points[0].scenario;
  CHECK(churn.churn.enabled);
  CHECK(churn.network.build == scenario::BuildMode::kJoin);
  CHECK(churn.churn.session.kind == scenario::DistributionKind::kWeibull);
  CHECK(churn.churn.session.scale_s == Approx(5000));  // mean 10,000 s / Gamma(3)
  CHECK(churn.churn.downtime.mean_s == churn.churn.session.mean_s);
  CHECK(churn.network.latency.regions.size() == 6);

  auto e3r = scenario::LoadScenarioFile(dir + "/e3-records.yaml");
  INFO((e3r ? "" : e3r.error().message));
  REQUIRE(e3r);
  REQUIRE(e3r->points.size() == 6);
  CHECK(e3r->points[0].scenario.records.enabled);
  CHECK(e3r->points[4].scenario.records.replication == 8);
  CHECK(e3r->points[4].scenario.records.republish_s == 600);
  CHECK(e3r->points[5].scenario.records.republish_s == 3600);
}

TEST_CASE("an unknown key is refused with its full path", "[unit]") {
  CHECK(ErrorOf("network:\n  lattency: {model: constant}\n") ==
        "test.yaml: network.lattency: unknown key");
  CHECK(ErrorOf("nodse: 10\n") == "test.yaml: nodse: unknown key");
  CHECK(ErrorOf("network:\n  partitions:\n    - {start_s: 1, heal_s: 2, side: 3}\n") ==
        "test.yaml: network.partitions[0].side: unknown key");
}

TEST_CASE("a value of the wrong type or out of range is refused with its key path", "[unit]") {
  CHECK(ErrorOf("nodes: many\n") == "test.yaml: nodes: expected a whole number, got 'many'");
  CHECK(ErrorOf("network: {loss: 2}\n") ==
        "test.yaml: network.loss: must be between 0 and 1, got '2'");
  CHECK(ErrorOf("network: {latency: {model: fast}}\n") ==
        "test.yaml: network.latency.model: expected one of constant, uniform, regions, "
        "coordinates, got 'fast'");
  CHECK(ErrorOf("kademlia: {k: 0}\n") ==
        "test.yaml: kademlia.k: must be between 1 and 32, got '0'");
  CHECK(ErrorOf("kademlia: [1, 2]\n") == "test.yaml: kademlia: expected a map");
  CHECK(ErrorOf("network: {loss: [1]}\n") == "test.yaml: network.loss: expected a single value");
}

TEST_CASE("inconsistent settings are refused", "[unit]") {
  CHECK(ErrorOf("churn: {session: {distribution: exponential, mean_s: 100}}\n") ==
        "test.yaml: network.build: a churning network needs real joins: set it to join");
  CHECK(ErrorOf("network: {build: join}\nchurn: {graceful_fraction: 0.5}\n") ==
        "test.yaml: churn.session: missing: a churn block needs a session distribution");
  CHECK(ErrorOf("network: {build: join}\nchurn:\n  session: {distribution: weibull, shape: 0.5, "
                "mean_s: 10, scale_s: 5}\n") ==
        "test.yaml: churn.session.mean_s: give exactly one of mean_s and scale_s for a Weibull "
        "distribution");
  CHECK(ErrorOf("network:\n  partitions: [{start_s: 5, heal_s: 5}]\n") ==
        "test.yaml: network.partitions[0].heal_s: must be after start_s");
  CHECK(ErrorOf("network:\n  latency: {model: regions}\n  partitions: [{start_s: 1, heal_s: 2, "
                "regions: [mars]}]\n") ==
        "test.yaml: network.partitions[0].regions: unknown region 'mars'");
  CHECK(ErrorOf("network:\n  latency:\n    model: regions\n    regions: [{name: a}, {name: b}]\n"
                "    rtt_matrix_ms: [[1, 2], [3, 1]]\n") ==
        "test.yaml: network.latency.regions: rtt_matrix_ms must be symmetric (row 1, column 0)");
  CHECK(ErrorOf("nodes: 10\nadversaries: {fraction: 0.9}\n") ==
        "test.yaml: nodes: fewer than 2 honest nodes");
}

TEST_CASE("malformed YAML is refused with its line", "[unit]") {
  const std::string error = ErrorOf("nodes: 10\nnetwork: {loss: [\n");
  CHECK(error.rfind("test.yaml: line ", 0) == 0);
  CHECK(ErrorOf("- 1\n- 2\n") == "test.yaml: expected a map at the top");
}

TEST_CASE("a sweep is the Cartesian product, last key fastest, point i with seed + i", "[unit]") {
  auto plan = scenario::ParseScenario(
      "seed: 10\nsweep:\n  kademlia.k: [8, 20]\n  adversaries.fraction: [0, 0.1, 0.2]\n",
      "test.yaml");
  REQUIRE(plan);
  REQUIRE(plan->points.size() == 6);
  REQUIRE(plan->swept == std::vector<std::string>{"kademlia.k", "adversaries.fraction"});
  CHECK(plan->points[1].scenario.kademlia.routing.bucket_size == 8);
  CHECK(plan->points[1].scenario.adversaries.fraction == 0.1);
  CHECK(plan->points[3].scenario.kademlia.routing.bucket_size == 20);
  CHECK(plan->points[3].scenario.adversaries.fraction == 0);
  CHECK(plan->points[4].swept[1].value == "0.1");
  for (size_t i = 0; i < plan->points.size(); ++i) CHECK(plan->points[i].scenario.seed == 10 + i);
}

TEST_CASE("flags override the file: --nodes replaces a sweep over nodes, --seed the seed",
          "[unit]") {
  scenario::ScenarioOverrides overrides;
  overrides.nodes = 77;
  overrides.seed = 5;
  auto plan = scenario::ParseScenario(
      "seed: 1\nnodes: 10\nsweep:\n  nodes: [100, 1000]\n  kademlia.k: [8, "
      "20]\nplot: {x: nodes}\n",
      "test.yaml", overrides);
  INFO((plan ? "" : plan.error().message));
  REQUIRE(plan);
  REQUIRE(plan->points.size() == 2);
  CHECK(plan->points[0].scenario.nodes == 77);
  CHECK(plan->points[0].scenario.seed == 5);
  CHECK(plan->points[1].scenario.seed == 6);
  CHECK(plan->base.plot.x.empty());
}

TEST_CASE("a swept seed gives each point its own value, and --seed replaces it for all", "[unit]") {
  const std::string text = "seed: 10\nsweep:\n  records.replication: [3, 5]\n  seed: [1, 2]\n";
  auto plan = scenario::ParseScenario(text, "test.yaml");
  REQUIRE(plan);
  REQUIRE(plan->points.size() == 4);
  // Points that share a seed share their churn and workload draws: only r differs.
  CHECK(plan->points[0].scenario.seed == 1);
  CHECK(plan->points[1].scenario.seed == 2);
  CHECK(plan->points[2].scenario.seed == 1);
  CHECK(plan->points[2].scenario.records.replication == 5);
  CHECK(plan->points[3].scenario.seed == 2);
  CHECK(plan->points[3].swept[1].path == "seed");
  scenario::ScenarioOverrides overrides;
  overrides.seed = 7;
  plan = scenario::ParseScenario(text, "test.yaml", overrides);
  REQUIRE(plan);
  REQUIRE(plan->points.size() == 2);
  CHECK(plan->swept == std::vector<std::string>{"records.replication"});
  for (const auto& point : plan->points) CHECK(point.scenario.seed == 7);
}

TEST_CASE("a bad sweep is refused naming the point or the key", "[unit]") {
  CHECK(ErrorOf("sweep:\n  network.loss: [0.1, 3]\n") ==
        "test.yaml: sweep point 1 (network.loss=3): network.loss: must be between 0 and 1, got "
        "'3'");
  CHECK(ErrorOf("sweep:\n  network.lost: [0.1]\n") ==
        "test.yaml: sweep point 0 (network.lost=0.1): network.lost: unknown key");
  CHECK(ErrorOf("sweep:\n  name: [a, b]\n") == "test.yaml: sweep.name: cannot be swept");
  CHECK(ErrorOf("sweep:\n  nodes: []\n") ==
        "test.yaml: sweep.nodes: expected a non-empty list of values");
  CHECK(ErrorOf("sweep:\n  nodes: [10]\nplot: {x: kademlia.k}\n") ==
        "test.yaml: plot: 'kademlia.k' is not a swept key path");
}

TEST_CASE("key paths swept together take one value each per step", "[unit]") {
  auto plan = scenario::ParseScenario(
      "sweep:\n  kademlia.disjoint_paths, kademlia.k: [[1, 2], [4, 8]]\n"
      "  adversaries.fraction: [0, 0.5]\nplot: {series: kademlia.disjoint_paths}\n",
      "test.yaml");
  INFO((plan ? "" : plan.error().message));
  REQUIRE(plan);
  REQUIRE(plan->points.size() == 4);
  CHECK(plan->swept ==
        std::vector<std::string>{"kademlia.disjoint_paths", "kademlia.k", "adversaries.fraction"});
  const scenario::Scenario& last = plan->points[3].scenario;
  CHECK(last.kademlia.disjoint_paths == 4);
  CHECK(last.kademlia.routing.bucket_size == 8);
  CHECK(last.adversaries.fraction == 0.5);
  CHECK(plan->points[1].scenario.kademlia.routing.bucket_size == 2);
  CHECK(plan->points[1].swept[1].value == "2");
  CHECK(ErrorOf("sweep:\n  kademlia.disjoint_paths, kademlia.k: [[1, 2], [4]]\n") ==
        "test.yaml: sweep.kademlia.disjoint_paths, kademlia.k[1]: expected a list of 2 values, "
        "one per key path");
  CHECK(ErrorOf("sweep:\n  kademlia.k, seed: [[8, 1]]\n") ==
        "test.yaml: sweep.kademlia.k, seed: cannot be swept together ('seed')");
}

TEST_CASE("the sybil model needs ideal signatures and addresses for its ids", "[unit]") {
  CHECK(ErrorOf("crypto: ed25519\nadversaries: {model: sybil, fraction: 0.1}\n") ==
        "test.yaml: adversaries.model: sybil needs crypto: ideal (its key pairs are derived)");
  CHECK(ErrorOf("adversaries: {model: sybil, sybil_ids: 100}\n").find("adversaries.sybil_ids") !=
        std::string::npos);
  auto plan =
      scenario::ParseScenario("adversaries: {model: impersonate, fraction: 0.2}\n", "test.yaml");
  REQUIRE(plan);
  CHECK(plan->points[0].scenario.adversaries.model == scenario::AdversaryModel::kImpersonate);
}

TEST_CASE("the records block is parsed with its bounds", "[unit]") {
  auto plan = scenario::ParseScenario("records: {replication: 5, republish_s: 600}\n", "test.yaml");
  REQUIRE(plan);
  CHECK(plan->points[0].scenario.records.enabled);
  CHECK(plan->points[0].scenario.records.replication == 5);
  CHECK(ErrorOf("records: {replication: 0}\n") ==
        "test.yaml: records.replication: must be between 1 and 32, got '0'");
  CHECK(ErrorOf("records: {gets_per_node_per_min: 0}\n").find("records.gets_per_node_per_min") !=
        std::string::npos);
  // Gets by skill id from records that all have the capability "sim", unless the file says.
  CHECK(plan->points[0].scenario.records.get_by == scenario::GetBy::kSkill);
  CHECK(plan->points[0].scenario.records.capabilities == 0);
  auto by_capability =
      scenario::ParseScenario("records: {get_by: capability, capabilities: 40}\n", "test.yaml");
  REQUIRE(by_capability);
  CHECK(by_capability->points[0].scenario.records.get_by == scenario::GetBy::kCapability);
  CHECK(by_capability->points[0].scenario.records.capabilities == 40);
  CHECK(ErrorOf("records: {get_by: tag}\n") ==
        "test.yaml: records.get_by: expected one of skill, capability, got 'tag'");
  CHECK(ErrorOf("records: {capabilities: -1}\n").find("records.capabilities") != std::string::npos);
  // Each node's verified-record table: 64 unless the file says; 0 turns it off.
  CHECK(plan->points[0].scenario.records.verified_records_max == 64);
  auto table = scenario::ParseScenario("records: {verified_records_max: 1024}\n", "test.yaml");
  REQUIRE(table);
  CHECK(table->points[0].scenario.records.verified_records_max == 1024);
  CHECK(ErrorOf("records: {verified_records_max: -1}\n").find("records.verified_records_max") !=
        std::string::npos);
}

TEST_CASE("the registry scenario has 2,000 nodes, 5,000 skills and gets by capability", "[unit]") {
  auto plan = scenario::LoadScenarioFile(
      (testing::SourceRoot() / "sim/scenarios/registry-churn.yaml").string());
  INFO((plan ? "" : plan.error().message));
  REQUIRE(plan);
  REQUIRE(plan->points.size() == 1);
  const scenario::Scenario& s = plan->points[0].scenario;
  CHECK(s.nodes == 2000);
  CHECK(s.churn.enabled);
  CHECK(static_cast<double>(s.nodes) * s.records.records_per_node == 5000);
  CHECK(s.records.get_by == scenario::GetBy::kCapability);
  CHECK(s.records.capabilities > 1);
}

TEST_CASE("Heep's conditions parse: lifetime start, coordinates, live-node targets, seeds",
          "[unit]") {
  const std::string dir = (testing::SourceRoot() / "sim/scenarios").string();
  auto heep = scenario::LoadScenarioFile(dir + "/e3-heep.yaml");
  INFO((heep ? "" : heep.error().message));
  REQUIRE(heep);
  REQUIRE(heep->points.size() == 40);
  const scenario::Scenario& first = heep->points[0].scenario;
  CHECK(first.churn.start == scenario::ChurnStart::kLifetime);
  CHECK(first.network.latency.kind == scenario::LatencyKind::kCoordinates);
  CHECK(first.network.latency.regions.size() == 6);
  CHECK(first.workload.targets == scenario::TargetKind::kRandomNode);
  CHECK(first.network.loss == 0);
  CHECK(first.seed == 1);
  CHECK(heep->points[39].scenario.network.loss == 0.01);
  CHECK(heep->points[39].scenario.seed == 20);
  auto lifetimes = scenario::LoadScenarioFile(dir + "/e3-heep-lifetimes.yaml");
  REQUIRE(lifetimes);
  REQUIRE(lifetimes->points.size() == 80);
  // The downtime follows the swept session distribution.
  CHECK(lifetimes->points[0].scenario.churn.downtime.mean_s == 1000);
  CHECK(lifetimes->points[79].scenario.churn.session.mean_s == 30000);
  CHECK(lifetimes->points[79].scenario.churn.downtime.mean_s == 30000);

  CHECK(ErrorOf("network: {build: join}\nchurn:\n  session: {distribution: constant, mean_s: 9}\n"
                "  start: soon\n") ==
        "test.yaml: churn.start: expected one of stationary, lifetime, got 'soon'");
  CHECK(
      ErrorOf("network:\n  latency: {model: coordinates, access_ms_min: 9, access_ms_max: 3}\n") ==
      "test.yaml: network.latency.access_ms_max: must not be below access_ms_min");
  CHECK(ErrorOf("network:\n  latency: {model: coordinates, dimensions: 9}\n") ==
        "test.yaml: network.latency.dimensions: must be between 1 and 8, got '9'");
}

TEST_CASE(
    "the scale scenario runs E3's conditions with joins 1 ms apart, 64 verified peers, 4 "
    "replacements a bucket",
    "[unit]") {
  const std::string dir = (testing::SourceRoot() / "sim/scenarios").string();
  auto e3 = scenario::LoadScenarioFile(dir + "/e3-churn.yaml");
  auto scale = scenario::LoadScenarioFile(dir + "/e3-scale.yaml");
  INFO((scale ? "" : scale.error().message));
  REQUIRE(e3);
  REQUIRE(scale);
  REQUIRE(scale->points.size() == 1);
  const scenario::Scenario& a = e3->points[0].scenario;
  const scenario::Scenario& b = scale->points[0].scenario;
  CHECK(b.network.join_interval_ms == 1);
  CHECK(a.network.join_interval_ms == 100);
  CHECK(b.network.build == a.network.build);
  CHECK(b.kademlia.routing.bucket_size == a.kademlia.routing.bucket_size);
  CHECK(b.kademlia.alpha == a.kademlia.alpha);
  CHECK(b.network.latency.kind == a.network.latency.kind);
  CHECK(b.network.loss == a.network.loss);
  CHECK(b.churn.enabled);
  CHECK(b.churn.session.kind == a.churn.session.kind);
  CHECK(b.churn.session.shape == a.churn.session.shape);
  CHECK(b.churn.session.mean_s == a.churn.session.mean_s);
  CHECK(b.churn.rejoin == a.churn.rejoin);
  CHECK(b.workload.lookup_interval_s == a.workload.lookup_interval_s);
  CHECK(b.workload.warmup_s == a.workload.warmup_s);
  CHECK(b.workload.measure_s == a.workload.measure_s);
  CHECK(b.workload.targets == a.workload.targets);
  // The verified-peer cache sized for a million nodes; E3 keeps the daemon's.
  CHECK(b.kademlia.verified_peers_max == 64);
  CHECK(a.kademlia.verified_peers_max == kademlia::KademliaConfig{}.verified_peers_max);
  // ... and the replacement caches: 4 a bucket, E3 the daemon's 10.
  CHECK(b.kademlia.routing.replacement_cache_size == 4);
  CHECK(a.kademlia.routing.replacement_cache_size ==
        kademlia::KademliaConfig{}.routing.replacement_cache_size);
  // 1,000,000 nodes come up 1 ms apart: within the warm-up.
  CHECK(1e6 * b.network.join_interval_ms / 1000 < b.workload.warmup_s);
}

}  // namespace
}  // namespace skillnode::sim
