#!/usr/bin/env python3
"""[sim] The skillsim binary as a user runs it: --scenario with --out writes summary.json,
lookups.csv and the plots; the last line is the trace hash, the same on a second run and in
summary.json; --seed and --nodes override the file; a bad scenario is refused with a message
that names the key; and, where mimalloc is linked (builds without sanitizers), the heap is
mimalloc's on transparent huge pages, without changing the trace, unless
MIMALLOC_LARGE_OS_PAGES=0 says otherwise.
Run: SKILLSIM=build/release/sim/skillsim python3 tests/sim/skillsim_cli_test.py
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "node"))
from skillnode_harness import check, finish, temp_dir  # noqa: E402

SKILLSIM = os.environ.get("SKILLSIM", "build/release/sim/skillsim")

SCENARIO = """
name: cli-churn
seed: 1
nodes: 120
kademlia: {k: 8, alpha: 3}
network:
  build: join
  join_interval_ms: 100
  latency: {model: regions}
  loss: 0.01
churn:
  session: {distribution: weibull, shape: 0.5, mean_s: 2000}
  rejoin: lose
workload:
  lookup_interval_s: 30
  warmup_s: 60
  measure_s: 60
  drain_s: 30
  targets: random_key
"""

SUMMARY_KEYS = ["nodes", "lookups", "success_rate", "oracle_mismatches", "hops_mean", "hops_p99",
                "messages_per_lookup", "latency_ms_p50", "latency_ms_p99", "trace_hash",
                "sim_seconds", "wall_seconds", "threads", "peak_rss_mb", "allocator",
                "malloc_huge_pages", "huge_pages_mb"]


def skillsim(args, env=None):
    full_env = dict(os.environ)
    full_env.pop("MIMALLOC_LARGE_OS_PAGES", None)
    full_env.update(env or {})
    return subprocess.run([SKILLSIM] + args, capture_output=True, text=True, env=full_env,
                          timeout=600)


def trace_line(result):
    lines = result.stdout.strip().splitlines()
    return lines[-1] if lines else ""


def stdout_summary(result):
    """Without --out, the summary JSON is printed first."""
    try:
        return json.JSONDecoder().raw_decode(result.stdout)[0]
    except ValueError:
        return {}


def thp_mode():
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            text = f.read()
        return text[text.index("[") + 1:text.index("]")]
    except (OSError, ValueError):
        return "never"


def links_mimalloc():
    """Builds without sanitizers link libmimalloc when it is installed (sim/meson.build)."""
    ldd = subprocess.run(["ldd", SKILLSIM], capture_output=True, text=True)
    return "libmimalloc" in ldd.stdout


def main():
    work = temp_dir("skillsim-cli-")
    scenario = os.path.join(work, "cli.yaml")
    with open(scenario, "w") as f:
        f.write(SCENARIO)

    out = os.path.join(work, "out")
    first = skillsim(["--scenario", scenario, "--out", out, "--quiet"])
    check(first.returncode == 0, "skillsim --scenario FILE --out DIR exits 0", first.stderr)
    check(trace_line(first).startswith("trace_hash "), "the last line is the trace hash",
          first.stdout[-300:])
    summary = {}
    try:
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        check(False, "summary.json is written and parses", str(e))
    missing = [k for k in SUMMARY_KEYS if k not in summary]
    check(not missing, "summary.json has every required key", f"missing {missing}")
    check(summary.get("lookups", 0) > 0, "lookups were measured", str(summary.get("lookups")))
    check(trace_line(first) == f"trace_hash {summary.get('trace_hash')}",
          "the printed trace hash is summary.json's")
    with open(os.path.join(out, "lookups.csv")) as f:
        rows = f.read().strip().splitlines()
    check(len(rows) == summary.get("lookups", -1) + 1, "lookups.csv has one row per lookup",
          f"{len(rows)} lines for {summary.get('lookups')} lookups")
    if subprocess.run(["sh", "-c", "command -v gnuplot"], capture_output=True).returncode == 0:
        for plot in ("latency_cdf.png", "hops_histogram.png", "success_over_time.png"):
            path = os.path.join(out, plot)
            check(os.path.isfile(path) and os.path.getsize(path) > 0, f"{plot} is drawn")

    second = skillsim(["--scenario", scenario, "--quiet"])
    check(trace_line(second) == trace_line(first), "a second run has the same trace hash",
          f"{trace_line(second)} vs {trace_line(first)}")
    seeded = skillsim(["--scenario", scenario, "--quiet", "--seed", "2"])
    check(seeded.returncode == 0 and trace_line(seeded) != trace_line(first),
          "--seed 2 overrides the file's seed (another trace)")
    sized = skillsim(["--scenario", scenario, "--quiet", "--nodes", "60"])
    sized_nodes = stdout_summary(sized).get("nodes")
    check(sized.returncode == 0 and sized_nodes == 60, "--nodes 60 overrides the file's nodes",
          str(sized_nodes))

    # The heap. With mimalloc linked skillsim runs on it with huge pages, refuses them when the
    # user sets MIMALLOC_LARGE_OS_PAGES=0, and the simulation is the same either way. Without it
    # (a sanitizer brings its own allocator) the summary says so.
    if not links_mimalloc():
        check(summary.get("allocator") == "system" and summary.get("malloc_huge_pages") is False,
              "without mimalloc the summary reports the system allocator without huge pages",
              f'{summary.get("allocator")} {summary.get("malloc_huge_pages")}')
    else:
        check(summary.get("allocator") == "mimalloc", "skillsim's allocator is mimalloc",
              str(summary.get("allocator")))
        check(summary.get("malloc_huge_pages") is True,
              "by default the allocator asks for transparent huge pages")
        plain = skillsim(["--scenario", scenario, "--quiet"],
                         env={"MIMALLOC_LARGE_OS_PAGES": "0"})
        plain_summary = stdout_summary(plain)
        check(plain_summary.get("malloc_huge_pages") is False,
              "MIMALLOC_LARGE_OS_PAGES=0 is respected")
        check(trace_line(plain) == trace_line(first), "huge pages do not change the trace hash",
              f"{trace_line(plain)} vs {trace_line(first)}")
        if thp_mode() == "madvise":
            # 1,000 nodes make about 50 MB of heap; 400 make 25 MB, which since the verified-peer
            # cache stopped holding routing-table contacts ends the run with no huge page.
            big = stdout_summary(skillsim(["--scenario", scenario, "--quiet", "--nodes", "1000"]))
            check(big.get("huge_pages_mb", 0) > 0,
                  "with THP in madvise mode the heap is backed by huge pages",
                  str(big.get("huge_pages_mb")))
            big_plain = stdout_summary(skillsim(["--scenario", scenario, "--quiet", "--nodes",
                                                 "1000"], env={"MIMALLOC_LARGE_OS_PAGES": "0"}))
            check(big_plain.get("huge_pages_mb") == 0,
                  "without large pages no huge pages are used", str(big_plain.get("huge_pages_mb")))

    bad = os.path.join(work, "bad.yaml")
    with open(bad, "w") as f:
        f.write(SCENARIO.replace("alpha: 3", "alpha: 0"))
    refused = skillsim(["--scenario", bad, "--quiet"])
    check(refused.returncode == 1 and "alpha" in refused.stderr,
          "a bad scenario exits 1 naming the key", refused.stderr.strip())
    finish()


if __name__ == "__main__":
    main()
