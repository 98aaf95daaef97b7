#!/usr/bin/env python3
"""[netns] Chaos across network namespaces: crashes, restarts, loss and a partition, with
skills registered and kept alive the whole time.

HOSTS hosts (default 30) in namespaces on one bridge (tests/node/netns_lab.py), each running
skillnode from its own data directory, with hosts 0 to 2 as everyone's bootstrap peers and no
LAN adapter (the DHT alone carries the registry). Then:
- SKILLS skills register on as many hosts, and a client per skill sends a heartbeat every 2 s,
  re-registering when its node answers 404 NOT_REGISTERED (the node restarted), as a service
  registry's clients do. TOMBSTONED more are registered and then unregistered (tombstones).
- From the start of the chaos phase, nftables on the bridge drops LOSS % of frames at random
  (`numgen random`).
- 30 % of the nodes are killed with SIGKILL, the bootstrap hosts 0 and 1 among them, at
  spread-out moments; each restarts from its data directory a few seconds later, and two are
  killed again seconds after they rejoined.
- The bridge is then cut into two halves (even and odd hosts) for PARTITION seconds and healed.
Checks, printed as one summary line at the end:
- every live skill is found (POST /api/skills/search, fresh) by every node within 10 s of the
  healing: no acknowledged and kept-alive registration is lost;
- no search, at any time, returns an unregistered (tombstoned) skill;
- every node exits 0 on SIGTERM.
`--hosts 100 --chaos-seconds 600` is `make chaos`, the long variant. `--seed N` fixes the draw
(make test uses one seed, make chaos a fresh one); the seed is printed first either way.
Skipped (exit 77) with the reason when not root or when namespaces cannot be made.
Run: SKILLNODE=build/release/node/skillnode python3 tests/chaos/chaos_test.py
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "node"))
from netns_lab import Lab, require_namespaces, sh  # noqa: E402
from skillnode_harness import (BINARY, check, finish, require_binary, temp_dir,  # noqa: E402
                               track, wait_for)

PORT = 6881
API = "http://127.0.0.1:7070"
CAPABILITY = "chaos-cap"
FIND_BUDGET_S = 10.0
CONFIG = """
node:
  stateSaveInterval: 2000
  kademlia: {bucketRefreshInterval: 10000}
discovery:
  healthCheck: {heartbeatInterval: 2000, timeout: 20000}
"""


class Cluster:
    """The nodes, one per host, each restartable from its data directory."""

    def __init__(self, lab, directory):
        self.lab = lab
        self.dir = directory
        self.config = os.path.join(directory, "config.yaml")
        with open(self.config, "w") as f:
            f.write(CONFIG)
        self.procs = {}
        self.logs = {}
        self.lock = threading.Lock()
        self.starts = {}

    def data_dir(self, i):
        return os.path.join(self.dir, f"node{i}")

    def start(self, i):
        peers = []
        for b in range(3):
            peers += ["-b", f"{self.lab.address(b)}:{PORT}"]
        log = open(os.path.join(self.dir, f"node{i}.log"), "a")
        proc = track(subprocess.Popen(
            self.lab.prefix_of(i) + [BINARY, "run", "--data-dir", self.data_dir(i), "--config",
                                     self.config, "--port", str(PORT), "--no-lan",
                                     "--no-port-mapping", *peers],
            stdout=subprocess.DEVNULL, stderr=log))
        with self.lock:
            self.procs[i] = proc
            self.starts[i] = time.monotonic()

    def alive(self, i):
        with self.lock:
            proc = self.procs.get(i)
        return proc is not None and proc.poll() is None

    def log_tail(self, i, lines=8):
        with open(os.path.join(self.dir, f"node{i}.log")) as f:
            return " | ".join(f.read().splitlines()[-lines:])

    def kill9(self, i):
        with self.lock:
            proc = self.procs[i]
        proc.kill()
        proc.wait(timeout=10)

    def ready(self, i):
        return self.alive(i) and self.lab.curl_json(i, f"{API}/health")[0] == 200

    def contacts(self, i):
        status, info = self.lab.curl_json(i, f"{API}/api/node")
        return info["routingTable"]["contacts"] if status == 200 and info else -1

    def stop_all(self):
        codes = {}
        with self.lock:
            procs = dict(self.procs)
        for proc in procs.values():
            proc.send_signal(signal.SIGTERM)
        for i, proc in procs.items():
            try:
                codes[i] = proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                codes[i] = None
        return codes


def registration(skill_id):
    return {"agentId": "chaos-agent", "skillId": skill_id, "version": "1.0.0",
            "skillType": "tool", "endpoint": f"http://127.0.0.1:9/{skill_id}",
            "capabilities": [CAPABILITY], "scenes": ["chaos"]}


class SkillClient(threading.Thread):
    """One skill on its host: registers, then heartbeats every 2 s until stopped."""

    def __init__(self, cluster, host, skill_id, stop):
        super().__init__(daemon=True)
        self.cluster, self.host, self.skill_id, self.stop = cluster, host, skill_id, stop
        self.acknowledged = False
        self.reregistrations = 0
        self.failed_calls = 0

    def register(self):
        status, _ = self.cluster.lab.curl_json(self.host, f"{API}/api/skills", "POST",
                                               registration(self.skill_id))
        return status in (200, 201)

    def run(self):
        while not self.stop.is_set():
            if not self.acknowledged:
                self.acknowledged = self.register()
            else:
                status, _ = self.cluster.lab.curl_json(
                    self.host, f"{API}/api/skills/{self.skill_id}/heartbeat", "POST",
                    {"agentId": "chaos-agent", "status": "HEALTHY"})
                if status == 404:
                    self.reregistrations += 1
                    self.register()
                elif status != 200:
                    self.failed_calls += 1
            self.stop.wait(2.0)


def found_ids(cluster, i):
    status, answer = cluster.lab.curl_json(i, f"{API}/api/skills/search", "POST",
                                           {"capabilities": [CAPABILITY], "fresh": True,
                                            "limit": 1000})
    if status != 200 or not answer:
        return None
    return {s.get("skillId") for s in answer.get("skills", [])}


def reachable(lab, i, j):
    """Whether host i reaches host j: a TCP connection to j's DHT port (UDP only) is refused
    at once when it gets there, and times out when the bridge drops it. Three tries, so that
    the random loss does not decide."""
    for _ in range(3):
        done = lab.run(i, "curl", "-s", "-m", "1", f"http://{lab.address(j)}:{PORT}/")
        if done.returncode == 7:  # connection refused: the host answered
            return True
    return False


def nft(lab, script):
    return lab.run_bridge("nft", "-f", "-", input_text=script)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hosts", type=int, default=30)
    parser.add_argument("--skills", type=int, default=10)
    parser.add_argument("--tombstoned", type=int, default=3)
    parser.add_argument("--loss", type=int, default=3, help="percent of frames dropped")
    parser.add_argument("--chaos-seconds", type=int, default=40,
                        help="the kills and restarts, before the partition")
    parser.add_argument("--partition-seconds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=None,
                        help="the kills, restarts and skills to draw (default: a fresh seed, "
                             "printed, so that a failing run can be replayed)")
    args = parser.parse_args()
    require_binary()
    require_namespaces("chaos")
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 2**31)
    rng = random.Random(args.seed)
    print(f"seed {args.seed} (replay: {' '.join(sys.argv)} --seed {args.seed})"
          if "--seed" not in sys.argv else f"seed {args.seed}", flush=True)

    lab = Lab("snc", args.hosts, 201).build()
    cluster = Cluster(lab, temp_dir("skillnode-chaos-"))
    for i in range(args.hosts):
        cluster.start(i)
    all_up = wait_for(lambda: all(cluster.ready(i) for i in range(args.hosts)), 60, 0.5)
    check(all_up, f"{args.hosts} nodes start in their namespaces")
    joined = wait_for(lambda: all(cluster.contacts(i) >= min(8, args.hosts - 1)
                                  for i in range(args.hosts)), 60, 0.5)
    short = {i: n for i in range(args.hosts) if (n := cluster.contacts(i)) < min(8, args.hosts - 1)}
    check(joined, "every node joins the DHT (8 contacts or more)",
          f"hosts with fewer (host: contacts): {short}")

    stop = threading.Event()
    skill_hosts = rng.sample(range(3, args.hosts), args.skills + args.tombstoned)
    clients = [SkillClient(cluster, h, f"chaos-skill-{n}", stop)
               for n, h in enumerate(skill_hosts[:args.skills])]
    for client in clients:
        client.start()
    tombstoned = {f"chaos-gone-{n}" for n in range(args.tombstoned)}
    for n, host in enumerate(skill_hosts[args.skills:]):
        skill_id = f"chaos-gone-{n}"
        status, _ = lab.curl_json(host, f"{API}/api/skills", "POST", registration(skill_id))
        check(status in (200, 201), f"{skill_id} registers on host {host}", str(status))
    live = {c.skill_id for c in clients}
    check(wait_for(lambda: all(c.acknowledged for c in clients), 30),
          f"{args.skills} skills registered and kept alive")
    everywhere = wait_for(lambda: all((found_ids(cluster, i) or set()) >= live | tombstoned
                                      for i in range(0, args.hosts, 5)), 30, 1)
    check(everywhere, "before the chaos, the skills are found across the network")
    for n, host in enumerate(skill_hosts[args.skills:]):
        status, _ = lab.curl_json(host, f"{API}/api/skills/chaos-gone-{n}"
                                  f"?agentId=chaos-agent&reason=SHUTDOWN", "DELETE")
        check(status == 200, f"chaos-gone-{n} is unregistered (tombstone)", str(status))

    resurrected = []
    searches = [0]

    def watch_tombstones():
        while not stop.is_set():
            for i in range(args.hosts):
                if stop.is_set() or not cluster.alive(i):
                    continue
                ids = found_ids(cluster, i)
                if ids is None:
                    continue
                searches[0] += 1
                back = ids & tombstoned
                if back:
                    resurrected.append((i, sorted(back)))
            stop.wait(1.0)

    watcher = threading.Thread(target=watch_tombstones, daemon=True)
    # The tombstones have settled before anyone watches for their return.
    time.sleep(2)
    watcher.start()

    loss = nft(lab, f"""table bridge chaos {{
  chain forward {{ type filter hook forward priority 0; policy accept;
    numgen random mod 100 < {args.loss} drop
  }}
}}""")
    check(loss.returncode == 0, f"nftables drops {args.loss} % of the bridge's frames",
          loss.stderr)
    victims = [0, 1] + rng.sample(range(2, args.hosts), max(0, round(args.hosts * 0.3) - 2))
    rekilled = set(rng.sample(victims, min(2, len(victims))))
    counts = {"kills": 0, "restarts": 0, "quick": 0}
    pending = []  # (restart time, host)

    def restart_due():
        """Restarts the victims whose downtime is over; a host picked for it is killed again
        a second or three after it rejoined, and comes back once more."""
        now = time.monotonic()
        for due, host in [p for p in pending if p[0] <= now]:
            pending.remove((due, host))
            cluster.start(host)
            counts["restarts"] += 1
            if host in rekilled and wait_for(lambda h=host: cluster.ready(h), 10, 0.2):
                rekilled.discard(host)
                time.sleep(rng.uniform(1, 3))
                cluster.kill9(host)
                counts["kills"] += 1
                counts["quick"] += 1
                pending.append((time.monotonic() + rng.uniform(2, 4), host))

    chaos_end = time.monotonic() + args.chaos_seconds
    plan = sorted((rng.uniform(0, args.chaos_seconds * 0.6), v) for v in victims)
    started = time.monotonic()
    for at, victim in plan:
        while time.monotonic() - started < at:
            restart_due()
            time.sleep(0.1)
        if not cluster.alive(victim):
            continue  # already down (killed again after a quick restart)
        cluster.kill9(victim)
        counts["kills"] += 1
        pending.append((time.monotonic() + rng.uniform(2, 6), victim))
    while pending or time.monotonic() < chaos_end:
        restart_due()
        time.sleep(0.1)
    kills, restarts, quick = counts["kills"], counts["restarts"], counts["quick"]
    back = wait_for(lambda: all(cluster.ready(i) for i in range(args.hosts)), 30, 0.5)
    check(back, f"after {kills} kills every node is running again",
          "; ".join(f"host {i}: {cluster.log_tail(i)}" for i in range(args.hosts)
                    if not cluster.ready(i)))

    half_a = [f"p{i}" for i in range(0, args.hosts, 2)]
    half_b = [f"p{i}" for i in range(1, args.hosts, 2)]
    ports_a, ports_b = ", ".join(f'"{p}"' for p in half_a), ", ".join(f'"{p}"' for p in half_b)
    cut = nft(lab, f"""table bridge partition {{
  chain forward {{ type filter hook forward priority -1; policy accept;
    iifname {{ {ports_a} }} oifname {{ {ports_b} }} drop
    iifname {{ {ports_b} }} oifname {{ {ports_a} }} drop
  }}
}}""")
    cut_at = time.monotonic()
    check(cut.returncode == 0 and not reachable(lab, 0, 1) and reachable(lab, 0, 2),
          "the partition separates the even hosts from the odd ones", cut.stderr)
    time.sleep(max(0.0, args.partition_seconds - (time.monotonic() - cut_at)))
    lab.run_bridge("nft", "delete", "table", "bridge", "partition")
    healed = time.monotonic()
    check(reachable(lab, 0, 1), "healed: host 0 reaches host 1 again")

    took = {}
    last_seen = {}

    def search_until_found(i):
        """Searches from host i until it sees every live skill; 30 s past the budget, what
        it still misses counts as lost."""
        while time.monotonic() - healed < FIND_BUDGET_S + 30:
            ids = found_ids(cluster, i)
            if ids is not None:
                last_seen[i] = ids
                if ids >= live:
                    took[i] = time.monotonic() - healed
                    return
            time.sleep(0.2)

    threads = [threading.Thread(target=search_until_found, args=(i,)) for i in range(args.hosts)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    slowest = max(took.values()) if took else None
    lost = set()
    for i in range(args.hosts):
        if i not in took:
            lost |= live - last_seen.get(i, set())
    check(not lost, "no acknowledged, kept-alive registration is lost", str(sorted(lost)))
    in_time = [i for i, t in took.items() if t <= FIND_BUDGET_S]
    check(len(in_time) == args.hosts,
          f"every node finds all {len(live)} live skills within {FIND_BUDGET_S:.0f} s of healing",
          f"{len(in_time)} of {args.hosts} in time; slowest "
          f"{slowest if slowest is None else round(slowest, 1)} s; "
          f"never: {sorted(set(range(args.hosts)) - set(took))}")
    stop.set()
    watcher.join(timeout=30)
    for client in clients:
        client.join(timeout=10)
    check(not resurrected, "no tombstoned skill came back in any search", str(resurrected[:5]))
    codes = cluster.stop_all()
    clean = [i for i, c in codes.items() if c == 0]
    check(len(clean) == args.hosts, "every node exits 0 on SIGTERM",
          str({i: c for i, c in codes.items() if c != 0}))
    reregistered = sum(c.reregistrations for c in clients)
    print(f"chaos: {args.hosts} nodes, {kills} kill -9 ({quick} seconds after rejoining), "
          f"{restarts} restarts, {args.loss} % loss, a {args.partition_seconds} s partition; "
          f"{len(in_time)}/{args.hosts} nodes found all {len(live)} live skills within "
          f"{FIND_BUDGET_S:.0f} s of healing (slowest "
          f"{'-' if slowest is None else f'{slowest:.1f}'} s); "
          f"{len(lost)} lost; {len(resurrected)} tombstone resurrections in "
          f"{searches[0]} searches; {reregistered} re-registrations; "
          f"{len(clean)}/{args.hosts} clean exits", flush=True)
    finish()


if __name__ == "__main__":
    main()
