#!/usr/bin/env python3
"""cluster_bench: skillnode and OpenDHT side by side, N processes of each on 127.0.0.1, the
same put/get workload on both, in one run.

Usage: python3 bench/cluster_bench.py [BUILD_DIR] [--nodes 32,128] [--ops 200] [--seed 1]
       [--perf DIR]
(BUILD_DIR defaults to build/release; `make bench` builds it and runs this. OpenDHT's side
needs Debian's dhtnode package, OpenDHT 2.4.12: apt-get install dhtnode.)

For each N, both sides at once, one operation of each in turn (skillnode's first on even
operations, OpenDHT's on odd ones), so that both see the same machine: on a shared machine the
load moves by whole cores within a minute, which one side after the other would charge to
whichever ran at the worse moment. The driver waits for each answer, then 20 ms, before it
sends the next request, of either side: what a node does after answering (skillnode's DHT
publish after a registration, its subscription after a search, OpenDHT's search upkeep) is
then done before the next operation starts, instead of landing in the next one's latency,
which would charge it to whichever operation came next. So a latency is that of one
operation in a quiet cluster, and the work after answering shows in the CPU figures. The idle
side's timers cost little (the idle CPU below). The steps:
  1. N node processes on 127.0.0.1, each its own process on both sides (a skillnode node is one
     process; OpenDHT's in-process runner of many nodes would not be the same test). The first
     starts alone; the others bootstrap through it, 16 at a time. Each side gets a random
     network id of its own, so nothing else running on this machine can join.
       skillnode: `skillnode run --port 0 --http 127.0.0.1:0 --no-lan --network-id X
                   --data-dir D -b 127.0.0.1:FIRST`, default configuration otherwise
                   (k = 20, r = 3 replicas, alpha = 3) but for the registrations' health
                   check, moved out of the way (heartbeats every 10 minutes): no skill
                   behind the benchmark's registrations sends heartbeats, and by default
                   they would be published again as UNHEALTHY after 15 s and removed after
                   30 s, in the middle of the gets.
       OpenDHT:   `dhtnode -n X -p 0 -b 127.0.0.1:FIRST`, default configuration otherwise
                   (8 nodes per bucket, values stored on the 8 closest nodes).
  2. Wait until the routing tables have settled: every node knows at least min(N - 1, k)
     others (k = 20 for skillnode: routing_table.contacts of GET /api/node; k = 8 for OpenDHT:
     the known IPv4 nodes, good and dubious, of dhtnode's `ll` command: a "good" node is one
     that has answered this node, and one only heard from stays "dubious" in a quiet
     network), and the sum over all nodes has grown by less than 1 % between two polls 2 s
     apart. At most 120 s; a side that did not settle says so.
  3. The idle CPU of each side's whole cluster over 3 s (timers, table upkeep), printed per
     node and taken off the CPU figures of step 6.
  4. OPS puts, one at a time, each through a random node (the same sequence of node indexes on
     both sides, from --seed), each under a key of its own:
       skillnode: POST /api/skills on that node, a registration whose one capability is
                  bench-<seed>-<i> (the node signs it and stores it under 3 DHT keys:
                  skillId:capability, capability:, skill:). The node answers once the
                  registration is accepted; the DHT publish continues after the answer.
       OpenDHT:   `p <key> <value>` on that dhtnode's stdin, key = SHA-1 of bench-<seed>-<i>
                  (40 hex digits, used as the InfoHash itself); done at dhtnode's
                  "Put: success, took ..." line, i.e. once the value is stored on the nodes
                  closest to the key.
     Then 2 s for what is still in flight (skillnode's publishes) before the gets.
  5. OPS gets, one at a time, of each key in turn, through a node that is neither the putter
     nor among the 8 nodes closest to the key by XOR distance (so on both sides the getter is
     drawn from the same distance band and holds no copy: OpenDHT stores on the 8 closest,
     skillnode on the 3 closest; when N is too small for that, any node but the putter):
       skillnode: POST /api/skills/search {"capabilities": [cap], "fresh": true}: "fresh"
                  skips the answer cache, and the getter's local stage holds only its own
                  registrations, so the answer comes from a FIND_VALUE lookup. Success: 200
                  with the registered skill in it, from source "dht". After that lookup the
                  node still caches the answer and subscribes to the key (discovery/search/searcher.cpp
                  FinishDht: a second FIND_VALUE lookup to find the holders, LISTEN to 3 of
                  them, which push the record back), as every skillnode search does; the
                  answer does not wait for it, but its CPU and datagrams are counted.
       OpenDHT:   `g <key>` on that dhtnode's stdin. OpenDHT keeps what a get found in that
                  get's search, not in the node's storage, and every key is asked for once,
                  so no cache answers it. Success: the put's value among the values found, and
                  "Get: completed".
     (Optionally --perf DIR records `perf record -a -g` over the get phase into
     DIR/gets-N.data; `perf report --comm skillnode` or `--comm dhtnode` takes one side.)
  6. RSS per node (VmRSS of every node process / N) and CPU seconds per operation: the CPU
     time of all the side's node processes over the puts (with the 2 s after them) and over
     the gets, less the side's idle CPU (step 3) for as long as each window lasted (the
     windows hold both sides' operations and the gaps between them), divided by OPS each; per
     operation is their mean. CPU time is the threads' run time (/proc/PID/task/*/schedstat,
     ns), or utime + stime (/proc/PID/stat, 10 ms ticks, which count ended threads too) for a
     window in which a thread ended.
  7. skillnode only: its counters summed over the nodes (GET /metrics before and after each
     phase, outside the CPU windows): datagrams, DHT gets, lookups, FIND_VALUEs answered, STOREs
     and listen pushes per put and per get; and after the CPU window, GET /api/dht/lookup of
     each get's capability key from the same getter (the iterative node lookup alone, no
     records, no HTTP search).

Why the driver talks to node processes (stdin, HTTP) rather than being a node itself: the
issue asks for puts and gets on random nodes of the cluster. A python3-opendht DhtRunner
driver would be one more node through which every get went, holding its own searches; driving
each dhtnode's command line puts the operation in a random cluster node, as an HTTP request
does on the skillnode side. Both sides are measured two ways:
  - the driver's round trip: from writing the request (HTTP request on a kept-alive
    connection; a command line on the dhtnode's stdin) to reading its answer (the HTTP
    answer; dhtnode's completion line on its stdout);
  - the node's own figure: dhtnode prints how long each put and get took inside the node
    ("took ..."; for gets also "found ... after", the first value); skillnode's search answer
    carries its DHT stage's milliseconds ("stages": [{"stage": "dht", "ms": ...}]). A skillnode
    registration has no figure of its own (it answers before it stores).
The two puts are not the same operation: OpenDHT's is done when the value is stored on its
replicas, skillnode's answer comes before the DHT stores (and signs the record, which OpenDHT's
unsigned `p` does not). The put rows compare what a client of each waits for, nothing more.
Latency percentiles are nearest-rank over the successful operations. Ratios are
skillnode / OpenDHT; for latency and CPU, below 1 means skillnode is faster or cheaper. All
processes share this machine's cores with the driver (and with whatever else runs on it: the
load average is printed), so compare figures within one run. On the 2-core development
machine N = 32 with 200 operations takes about 45 s, 16 s of it the gaps after the 800
operations; N = 128 adds the same gaps and a longer start.
"""
import argparse
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import time

from benchlib import cleanup, processes, rss_kib, scratch
from clusters import COUNTERS, OpenDhtCluster, SkillnodeCluster

SETTLE_TIMEOUT_S = 120
SETTLE_POLL_S = 2.0
# After the puts, before the gets: skillnode's publishes continue after its answers.
AFTER_PUTS_S = 2.0
# After each operation, before the next of either side: a loopback DHT operation takes a few
# ms, so what a node does after answering is done before the next operation is timed.
OP_GAP_S = 0.02
IDLE_WINDOW_S = 3.0
# OpenDHT stores a value on its 8 closest nodes; getters are drawn from outside the 8 closest
# on both sides (skillnode stores on 3).
CLOSEST_EXCLUDED = 8
CLK_TCK = os.sysconf("SC_CLK_TCK")


class CpuSample:
    """The CPU time of a set of processes at one moment, two ways: the sum of their live
    threads' run time (/proc/PID/task/TID/schedstat, in ns) and utime + stime (/proc/PID/stat,
    in clock ticks, but counting threads that have ended too)."""

    def __init__(self, pids):
        self.at = time.monotonic()
        self.run_ns, self.ticks, self.threads = 0, 0, set()
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                self.ticks += int(fields[11]) + int(fields[12])
                tids = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tids:
                try:
                    with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                        self.run_ns += int(f.read().split()[0])
                    self.threads.add(tid)
                except OSError:
                    pass

    def seconds_since(self, earlier):
        """CPU seconds from `earlier` to this sample: the threads' run time when no thread
        ended in between, otherwise utime + stime."""
        if earlier.threads <= self.threads:
            return (self.run_ns - earlier.run_ns) / 1e9
        return (self.ticks - earlier.ticks) / CLK_TCK


def percentile(values, p):
    """Nearest-rank percentile; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def closest(ids, key_hex, count):
    """Indexes of the `count` node ids closest to the key by XOR distance."""
    key = int(key_hex, 16)
    return set(sorted(range(len(ids)), key=lambda i: int(ids[i], 16) ^ key)[:count])


def settle(cluster):
    """Waits for the routing tables; returns (seconds, settled, sizes)."""
    started = time.monotonic()
    need = min(cluster.n - 1, cluster.k)
    previous = None
    while True:
        sizes = cluster.table_sizes()
        total = sum(sizes)
        if min(sizes) >= need and previous is not None and total <= previous * 1.01:
            return time.monotonic() - started, True, sizes
        if time.monotonic() - started > SETTLE_TIMEOUT_S:
            return time.monotonic() - started, False, sizes
        previous = total if min(sizes) >= need else None
        time.sleep(SETTLE_POLL_S)


def start_perf(perf_dir, name):
    if not perf_dir:
        return None
    path = os.path.join(perf_dir, name + ".data")
    proc = subprocess.Popen(["perf", "record", "-a", "-g", "-o", path], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    processes.append(proc)
    time.sleep(1.0)  # perf needs a moment before it records
    return proc


def stop_perf(proc):
    if proc is not None:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)


def interleaved(clusters, op):
    """Both sides, the first one first on even operations: neither always goes first."""
    return clusters if op % 2 == 0 else clusters[::-1]


def pick_getters(cluster, putters, seed):
    """Per key, a node that is neither its putter nor among the 8 closest to it (when N allows
    that); returns (getters, how many keys had such a node)."""
    rng = random.Random(f"{seed}-{cluster.name}")
    getters, far = [], 0
    for op, putter in enumerate(putters):
        near = closest(cluster.ids, cluster.dht_key(cluster.key_of(op, seed)), CLOSEST_EXCLUDED)
        candidates = [i for i in range(cluster.n) if i != putter and i not in near]
        far += bool(candidates)
        candidates = candidates or [i for i in range(cluster.n) if i != putter]
        getters.append(rng.choice(candidates))
    return getters, far


def run_both(skillnode, opendht, ops, seed, perf_dir):
    """Starts both clusters, runs the workload on both, one operation of each in turn, stops
    them; returns the figures of each side."""
    clusters = [skillnode, opendht]
    results = {}
    for cluster in clusters:
        r = results[cluster] = {"load": os.getloadavg()[0]}
        started = time.monotonic()
        cluster.start()
        r["start_s"] = time.monotonic() - started
    for cluster in clusters:
        r = results[cluster]
        r["settle_s"], r["settled"], sizes = settle(cluster)
        r["table_min"], r["table_max"] = min(sizes), max(sizes)
    pids = {cluster: cluster.pids() for cluster in clusters}

    before = {c: CpuSample(pids[c]) for c in clusters}
    time.sleep(IDLE_WINDOW_S)
    idle_rate = {}  # CPU seconds per second of the whole side, idle
    for c in clusters:
        now = CpuSample(pids[c])
        idle_rate[c] = now.seconds_since(before[c]) / (now.at - before[c].at)
        results[c]["idle_cpu_per_node_s"] = idle_rate[c] / c.n

    def above_idle(c, start, end):
        return end.seconds_since(start) - idle_rate[c] * (end.at - start.at)

    rng = random.Random(seed)
    putters = [rng.randrange(skillnode.n) for _ in range(ops)]
    puts = {c: [] for c in clusters}
    counted = [skillnode.counters()]
    cpu_start = {c: CpuSample(pids[c]) for c in clusters}
    for op, node in enumerate(putters):
        for c in interleaved(clusters, op):
            puts[c].append(c.put(node, op, seed))
            time.sleep(OP_GAP_S)
    time.sleep(AFTER_PUTS_S)
    cpu_puts = {c: CpuSample(pids[c]) for c in clusters}
    counted.append(skillnode.counters())

    getters = {}
    for c in clusters:
        getters[c], results[c]["far_getters"] = pick_getters(c, putters, seed)
    perf = start_perf(perf_dir, f"gets-{skillnode.n}")
    cpu_gets_start = {c: CpuSample(pids[c]) for c in clusters}
    gets = {c: [] for c in clusters}
    for op in range(ops):
        for c in interleaved(clusters, op):
            gets[c].append(c.get(getters[c][op], op, seed))
            time.sleep(OP_GAP_S)
    cpu_end = {c: CpuSample(pids[c]) for c in clusters}
    stop_perf(perf)
    for c in clusters:
        r = results[c]
        r["load_end"] = os.getloadavg()[0]
        r["rss_per_node_mib"] = sum(rss_kib(pid) for pid in pids[c]) / c.n / 1024
        r["cpu_per_put_s"] = above_idle(c, cpu_start[c], cpu_puts[c]) / ops
        r["cpu_per_get_s"] = above_idle(c, cpu_gets_start[c], cpu_end[c]) / ops
        r["cpu_per_op_s"] = (r["cpu_per_put_s"] + r["cpu_per_get_s"]) / 2
        r["puts_ok"] = sum(1 for p in puts[c] if p[0])
        r["gets_ok"] = sum(1 for g in gets[c] if g[0])
        r["put_node"] = [p[1] for p in puts[c] if p[0] and p[1] is not None]
        r["put_rtt"] = [p[2] for p in puts[c] if p[0]]
        r["get_node"] = [g[1] for g in gets[c] if g[0] and g[1] is not None]
        r["get_rtt"] = [g[2] for g in gets[c] if g[0]]
        r["get_first"] = [g[3] for g in gets[c] if g[0] and g[3] is not None]
        r["failed_gets"] = [(op, getters[c][op], g[4]) for op, g in enumerate(gets[c]) if not g[0]]
    counted.append(skillnode.counters())
    sn = results[skillnode]
    sn["counters"] = counted
    lookups = [skillnode.lookup(node, skillnode.dht_key(skillnode.key_of(op, seed)))
               for op, node in enumerate(getters[skillnode])]
    sn["lookups_ok"] = sum(1 for x in lookups if x[0])
    sn["lookup_node"] = [x[1] for x in lookups if x[0] and x[1] is not None]
    sn["lookup_rtt"] = [x[2] for x in lookups if x[0]]
    for c in clusters:
        c.stop()
    return sn, results[opendht]


def fmt_ms(values):
    if not values:
        return "-"
    return " / ".join(f"{percentile(values, p):.2f}" for p in (50, 95, 99))


def ratios(a, b):
    if not a or not b:
        return "-"
    return " / ".join(f"{percentile(a, p) / percentile(b, p):.2f}" for p in (50, 95, 99))


def ratio(a, b, digits=2):
    return f"{a / b:.{digits}f}" if a is not None and b else "-"


def report(n, ops, seed, sn, od):
    print(f"\n== N = {n} nodes per side, {ops} puts and {ops} gets, seed {seed} ==")
    for name, r, table in (("skillnode", sn, "contacts"), ("OpenDHT", od, "known IPv4 nodes")):
        print(f"{name}: started in {r['start_s']:.1f} s, routing tables "
              f"{'settled' if r['settled'] else 'NOT settled'} after {r['settle_s']:.1f} s "
              f"({table} per node {r['table_min']}..{r['table_max']}); load average "
              f"{r['load']:.2f} at its start, {r['load_end']:.2f} after the gets; getters "
              f"outside the 8 closest for {r['far_getters']}/{ops} keys")
    rows = [
        ("puts succeeded", f"{sn['puts_ok']}/{ops}", f"{od['puts_ok']}/{ops}", "-"),
        ("gets succeeded (value found)", f"{sn['gets_ok']}/{ops}", f"{od['gets_ok']}/{ops}", "-"),
        ("put p50 / p95 / p99 ms, round trip", fmt_ms(sn["put_rtt"]), fmt_ms(od["put_rtt"]),
         ratios(sn["put_rtt"], od["put_rtt"])),
        ("put p50 / p95 / p99 ms, node's own", "- (answers before storing)",
         fmt_ms(od["put_node"]), "-"),
        ("get p50 / p95 / p99 ms, round trip", fmt_ms(sn["get_rtt"]), fmt_ms(od["get_rtt"]),
         ratios(sn["get_rtt"], od["get_rtt"])),
        ("get p50 / p95 / p99 ms, node's own", fmt_ms(sn["get_node"]), fmt_ms(od["get_node"]),
         ratios(sn["get_node"], od["get_node"])),
        ("get, first value (OpenDHT 'found after')", "-", fmt_ms(od["get_first"]), "-"),
        ("RSS per node, MiB", f"{sn['rss_per_node_mib']:.1f}", f"{od['rss_per_node_mib']:.1f}",
         ratio(sn["rss_per_node_mib"], od["rss_per_node_mib"])),
        ("CPU ms per op, all nodes, above idle", f"{sn['cpu_per_op_s'] * 1000:.2f}",
         f"{od['cpu_per_op_s'] * 1000:.2f}", ratio(sn["cpu_per_op_s"], od["cpu_per_op_s"])),
        ("CPU ms per put (with the 2 s after)", f"{sn['cpu_per_put_s'] * 1000:.2f}",
         f"{od['cpu_per_put_s'] * 1000:.2f}", ratio(sn["cpu_per_put_s"], od["cpu_per_put_s"])),
        ("CPU ms per get", f"{sn['cpu_per_get_s'] * 1000:.2f}",
         f"{od['cpu_per_get_s'] * 1000:.2f}", ratio(sn["cpu_per_get_s"], od["cpu_per_get_s"])),
        ("idle CPU per node, ms/s", f"{sn['idle_cpu_per_node_s'] * 1000:.2f}",
         f"{od['idle_cpu_per_node_s'] * 1000:.2f}",
         ratio(sn["idle_cpu_per_node_s"], od["idle_cpu_per_node_s"])),
    ]
    widths = [max(len(r[c]) for r in rows + [("", "skillnode", "OpenDHT", "skillnode/OpenDHT")])
              for c in range(4)]
    for row in [("", "skillnode", "OpenDHT 2.4.12", "skillnode/OpenDHT")] + rows:
        print("  ".join(cell.ljust(widths[c]) for c, cell in enumerate(row)).rstrip())
    print(f"skillnode GET /api/dht/lookup of each key from its getter: {sn['lookups_ok']}/{ops} "
          f"answered; p50 / p95 / p99 ms round trip {fmt_ms(sn['lookup_rtt'])}, "
          f"node's own {fmt_ms(sn['lookup_node'])}")
    before, after_puts, after_gets = sn["counters"]
    print("skillnode's counters, all nodes: " + "; ".join(
        f"{label} {(after_puts[name] - before[name]) / ops:.1f} per put, "
        f"{(after_gets[name] - after_puts[name]) / ops:.1f} per get"
        for name, label in COUNTERS.items()))
    for name, r in (("skillnode", sn), ("OpenDHT", od)):
        for op, getter, why in r["failed_gets"][:5]:
            print(f"{name}: get of key {op} through node {getter} failed: {why}")

    def p(values, q):
        return percentile(values, q) if values else None

    print(f"N={n}: success skillnode {sn['puts_ok']}+{sn['gets_ok']}/{2 * ops}, OpenDHT "
          f"{od['puts_ok']}+{od['gets_ok']}/{2 * ops}; get skillnode/OpenDHT round trip p50 "
          f"{ratio(p(sn['get_rtt'], 50), p(od['get_rtt'], 50))} p99 "
          f"{ratio(p(sn['get_rtt'], 99), p(od['get_rtt'], 99))}, node's own p50 "
          f"{ratio(p(sn['get_node'], 50), p(od['get_node'], 50))} p99 "
          f"{ratio(p(sn['get_node'], 99), p(od['get_node'], 99))} (goal <= 1); put round trip "
          f"p50 {ratio(p(sn['put_rtt'], 50), p(od['put_rtt'], 50))} p99 "
          f"{ratio(p(sn['put_rtt'], 99), p(od['put_rtt'], 99))}; RSS "
          f"{ratio(sn['rss_per_node_mib'], od['rss_per_node_mib'])}; CPU per op "
          f"{ratio(sn['cpu_per_op_s'], od['cpu_per_op_s'])}", flush=True)


def on_sigterm(signum, _frame):
    raise SystemExit(128 + signum)  # runs the finally below: every process and the scratch go


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build", nargs="?", default="build/release")
    parser.add_argument("--nodes", default="32,128", help="cluster sizes, comma-separated")
    parser.add_argument("--ops", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--perf", metavar="DIR",
                        help="record `perf record -a -g` over the gets into DIR/gets-N.data")
    args = parser.parse_args()
    if not shutil.which("dhtnode"):
        sys.exit("dhtnode is not installed (apt-get install dhtnode: OpenDHT 2.4.12 on Debian 12)")
    if args.perf:
        if not shutil.which("perf"):
            sys.exit("perf is not installed (apt-get install linux-perf)")
        os.makedirs(args.perf, exist_ok=True)
    # A copy: the build directory may be rebuilt while this runs.
    binary = os.path.join(scratch, "skillnode")
    shutil.copy2(os.path.join(args.build, "node", "skillnode"), binary)
    version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "dhtnode"],
                             capture_output=True, text=True).stdout or "unknown"
    print(f"cluster_bench: skillnode {args.build}/node/skillnode vs dhtnode {version}; "
          f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}", flush=True)
    rng = random.Random(args.seed)
    for n in [int(x) for x in args.nodes.split(",")]:
        sn, od = run_both(SkillnodeCluster(binary, n, rng.randrange(1, 2**31)),
                          OpenDhtCluster(n, rng.randrange(1, 2**31)), args.ops, args.seed,
                          args.perf)
        report(n, args.ops, args.seed, sn, od)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        main()
    finally:
        cleanup()
