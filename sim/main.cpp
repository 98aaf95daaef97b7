// skillsim: runs a simulation scenario and writes its summary, lookups and plots.
//
//   skillsim --scenario FILE [--seed N] [--nodes N] [--out DIR] [--threads N] [--quiet]
//
// Flags override the scenario file. Without --out nothing is written: the summary goes to
// standard output. The last line is always the run's trace hash. Exit status: 0 after a run
// (whatever its success rate), 1 for a bad command line or scenario, 2 when the report could
// not be written.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "node/cli/cli_describe.h"
#include "sim/engine/heap.h"
#ifdef SKILLNODE_SIM_MIMALLOC
#include "sim/engine/mimalloc_heap.h"
#endif
#include "sim/engine/runner.h"
#include "sim/engine/trace_hash.h"
#include "sim/report/plots.h"
#include "sim/report/report.h"
#include "sim/scenario/scenario_parser.h"

namespace {

using skillnode::sim::report::RunSummary;

void PrintSummary(const std::string& name, size_t points, const RunSummary& s) {
  const auto& l = s.lookups;
  std::printf(
      "skillsim: %s: %zu point%s, %llu lookups, success %.4f, oracle mismatches %llu, "
      "hops %.2f (p99 %.0f), %.1f messages/lookup, latency p50 %.0f ms p99 %.0f ms, "
      "sim %.0f s, wall %.1f s, peak RSS %.0f MB\n",
      name.c_str(), points, points == 1 ? "" : "s", static_cast<unsigned long long>(l.lookups),
      l.success_rate, static_cast<unsigned long long>(l.oracle_mismatches), l.hops_mean, l.hops_p99,
      l.messages_per_lookup, l.latency_ms_p50, l.latency_ms_p99, s.sim_seconds, s.wall_seconds,
      s.peak_rss_mb);
}

}  // namespace

int main(int argc, char** argv) {
#ifdef SKILLNODE_SIM_MIMALLOC
  skillnode::sim::engine::UseMimalloc();
#endif
  CLI::App app{"skillsim: deterministic Kademlia network simulator (docs/simulation.md)",
               "skillsim"};
  app.footer(
      "Exit status: 0 success; 1 the scenario cannot be loaded; 2 the report cannot be "
      "written; a command-line error exits with CLI11's code for it.");
  std::string scenario_path, out_dir;
  skillnode::sim::scenario::ScenarioOverrides overrides;
  uint64_t seed = 0, nodes = 0;
  unsigned threads = std::max(1u, std::min(2u, std::thread::hardware_concurrency()));
  bool quiet = false, no_plots = false;
  app.add_option("--scenario", scenario_path, "scenario file (YAML)")
      ->required()
      ->type_name("FILE");
  auto* seed_option = app.add_option("--seed", seed, "seed (overrides the file's)")->type_name("N");
  auto* nodes_option =
      app.add_option("--nodes", nodes, "live nodes (overrides the file's, and a sweep over it)")
          ->check(CLI::Range(uint64_t{2}, uint64_t{4'000'000}))
          ->type_name("N");
  app.add_option("--out", out_dir, "directory for summary.json, lookups.csv and plots")
      ->type_name("DIR");
  app.add_option("--threads", threads,
                 "threads: sweep points run side by side, and a lone point's two event lanes")
      ->check(CLI::Range(1u, 64u))
      ->type_name("N");
  app.add_flag("--quiet", quiet, "no progress lines");
  app.add_flag("--no-plots", no_plots, "do not run gnuplot");
  if (skillnode::node::cli::PrintedHelpJson(app, argc, argv)) return 0;
  CLI11_PARSE(app, argc, argv);
  if (*seed_option) overrides.seed = seed;
  if (*nodes_option) overrides.nodes = nodes;

  auto plan = skillnode::sim::scenario::LoadScenarioFile(scenario_path, overrides);
  if (!plan) {
    std::cerr << "skillsim: " << plan.error().message << "\n";
    return 1;
  }
  const auto start = std::chrono::steady_clock::now();
  skillnode::sim::engine::RunOptions options;
  options.threads = threads;
  options.log = quiet ? nullptr : &std::cerr;
  const auto points = skillnode::sim::engine::RunPlan(*plan, options);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  const RunSummary total = skillnode::sim::report::CombineRuns(points, wall.count());

  if (out_dir.empty()) {
    auto json = skillnode::sim::report::SummaryJson(*plan, points, total);
    if (json) std::cout << *json;
  } else {
    auto written = skillnode::sim::report::WriteReport(out_dir, *plan, points, total);
    if (!written) {
      std::cerr << "skillsim: " << written.error().message << "\n";
      return 2;
    }
    if (!no_plots) {
      auto plots = skillnode::sim::report::WritePlots(out_dir, *plan, points);
      if (!plots) std::cerr << "skillsim: plots skipped: " << plots.error().message << "\n";
    }
  }
  PrintSummary(plan->base.name, points.size(), total);
  std::printf("trace_hash %s\n", skillnode::sim::engine::TraceHash::Hex(total.trace_hash).c_str());
  return 0;
}
