#!/usr/bin/env python3
"""[netns] Five hosts in network namespaces on one bridge, each running skillnode.

The test makes its own namespaces (snh<i>-<id> for the hosts, snb-<id> for the bridge), a
10.200.<n>.0/24 subnet only they use, and removes all of it at exit, also on failure. With
--netem every host's link gets `tc netem delay 50ms loss 2%`; on a kernel without the netem
qdisc the hosts' links meet in tests/node/cluster/impair_bridge.py instead of the kernel bridge, a
user-space bridge in the bridge namespace that gives every frame the same 50 ms delay and 2 %
loss. Checks: every node joins through host 0 and learns the other four; from every host a
lookup (GET /api/dht/lookup) finds every other node's id; SIGTERM ends each node with status 0.

Skipped (exit 77) with the reason when not root or when namespaces cannot be made.
Run: SKILLNODE=build/daemon/node/skillnode python3 tests/node/cluster/netns_test.py [--netem]
"""
import atexit
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import BINARY, check, finish, require_binary, skip, temp_dir, wait_for

HOSTS = 5
TAG = str(os.getpid() % 100000)
SUBNET = f"10.200.{os.getpid() % 250}"
BRIDGE_NS = f"snb-{TAG}"
PORT = 6881
HTTP = "127.0.0.1:7070"
# Buckets refreshed every 10 s so that a verification ping lost to netem is soon repeated.
CONFIG = """
node:
  stateSaveInterval: 5000
  kademlia: {bucketRefreshInterval: 10000}
"""
_namespaces = []
_processes = []  # everything to kill at exit: the nodes and the user-space bridge
_nodes = []
_durations = []  # of every lookup, for the log


def host_ns(i):
    return f"snh{i}-{TAG}"


def sh(*args, check_rc=True):
    result = subprocess.run(list(args), capture_output=True, text=True)
    if check_rc and result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {result.stderr.strip()}")
    return result


def teardown():
    for proc in _processes:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    for ns in reversed(_namespaces):
        sh("ip", "netns", "del", ns, check_rc=False)
    _namespaces.clear()


atexit.register(teardown)


def make_namespace(name):
    sh("ip", "netns", "add", name)
    _namespaces.append(name)
    sh("ip", "-n", name, "link", "set", "lo", "up")


def kernel_has_netem():
    """Tries a netem qdisc on the bridge namespace's loopback (and takes it away again)."""
    probe = sh("ip", "netns", "exec", BRIDGE_NS, "tc", "qdisc", "add", "dev", "lo", "root",
               "netem", "delay", "1ms", check_rc=False)
    if probe.returncode == 0:
        sh("ip", "netns", "exec", BRIDGE_NS, "tc", "qdisc", "del", "dev", "lo", "root")
        return True
    if "unknown" not in probe.stderr:
        raise RuntimeError(f"tc netem: {probe.stderr.strip()}")
    return False


def start_impair_bridge():
    """The user-space bridge with 50 ms delay and 2 % loss, on the hosts' veth peers."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "impair_bridge.py")
    proc = subprocess.Popen(["ip", "netns", "exec", BRIDGE_NS, sys.executable, script,
                             "--delay-ms", "50", "--loss", "0.02", "--seed", TAG,
                             *[f"p{i}" for i in range(HOSTS)]],
                            stdout=subprocess.PIPE, text=True)
    _processes.append(proc)
    if proc.stdout.readline().strip() != "ready":
        raise RuntimeError("impair_bridge.py did not start")


def build_topology(netem):
    make_namespace(BRIDGE_NS)
    user_space = netem and not kernel_has_netem()
    if not user_space:
        sh("ip", "-n", BRIDGE_NS, "link", "add", "br0", "type", "bridge")
        sh("ip", "-n", BRIDGE_NS, "link", "set", "br0", "up")
    for i in range(HOSTS):
        ns = host_ns(i)
        make_namespace(ns)
        sh("ip", "link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name", f"p{i}",
           "netns", BRIDGE_NS)
        if not user_space:
            sh("ip", "-n", BRIDGE_NS, "link", "set", f"p{i}", "master", "br0")
        sh("ip", "-n", BRIDGE_NS, "link", "set", f"p{i}", "up")
        sh("ip", "-n", ns, "addr", "add", f"{SUBNET}.{i + 1}/24", "dev", "eth0")
        sh("ip", "-n", ns, "link", "set", "eth0", "up")
        if netem and not user_space:
            sh("ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", "eth0", "root", "netem",
               "delay", "50ms", "loss", "2%")
    if user_space:
        start_impair_bridge()
    how = ""
    if netem:
        how = (" with delay 50ms loss 2% from a user-space bridge (this kernel has no netem "
               "qdisc)" if user_space else " with netem delay 50ms loss 2%")
    print(f"made {HOSTS} hosts {SUBNET}.1-{HOSTS} in namespaces {host_ns(0)}.. on a bridge"
          + how, flush=True)
    return user_space


def curl_json(i, path):
    result = sh("ip", "netns", "exec", host_ns(i), "curl", "-s", "-m", "10",
                f"http://{HTTP}{path}", check_rc=False)
    try:
        return json.loads(result.stdout) if result.returncode == 0 else None
    except json.JSONDecodeError:
        return None


def start_nodes(directory):
    config = os.path.join(directory, "config.yaml")
    with open(config, "w") as f:
        f.write(CONFIG)
    logs = []
    for i in range(HOSTS):
        args = ["ip", "netns", "exec", host_ns(i), BINARY, "run", "--config", config,
                "--data-dir", os.path.join(directory, f"data{i}"), "--port", str(PORT),
                "--http", HTTP]
        if i > 0:
            args += ["--bootstrap", f"{SUBNET}.1:{PORT}"]
        log = open(os.path.join(directory, f"node{i}.log"), "w")
        logs.append(log.name)
        _nodes.append(subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=log))
        _processes.append(_nodes[-1])
    up = wait_for(lambda: all(curl_json(i, "/health") for i in range(HOSTS)), 30, interval=0.2)
    check(up, f"all {HOSTS} nodes answer /health inside their namespaces")
    return logs


def lookup_finds(i, target_id, attempts=3):
    """A client retries a lookup that lost its target to packet loss, up to `attempts`."""
    for _ in range(attempts):
        answer = curl_json(i, f"/api/dht/lookup?key={target_id}")
        if answer:
            _durations.append(answer["duration_ms"])
        if answer and answer["closest"] and answer["closest"][0]["id"] == target_id:
            return answer
    return None


def main():
    netem = "--netem" in sys.argv[1:]
    require_binary()
    if os.geteuid() != 0:
        skip("network namespaces need root (run the [netns] tests as root)")
    probe = subprocess.run(["ip", "netns", "add", f"snprobe-{TAG}"], capture_output=True,
                           text=True)
    if probe.returncode != 0:
        skip(f"cannot create network namespaces here: {probe.stderr.strip()}")
    subprocess.run(["ip", "netns", "del", f"snprobe-{TAG}"], capture_output=True)
    build_topology(netem)
    directory = temp_dir("skillnode-netns-")
    logs = start_nodes(directory)
    started = time.monotonic()
    joined = wait_for(lambda: all((curl_json(i, "/api/node") or {}).get("routingTable", {})
                                  .get("contacts", 0) >= HOSTS - 1 for i in range(HOSTS)),
                      90, interval=0.5)
    infos = [curl_json(i, "/api/node") for i in range(HOSTS)]
    counts = [info["routingTable"]["contacts"] if info else None for info in infos]
    check(joined, f"every node knows the other {HOSTS - 1} ({time.monotonic() - started:.1f} s)",
          f"contacts: {counts}")
    ids = [info["id"] for info in infos]
    addresses_ok = all(f"{SUBNET}.{i + 1}:{PORT}" in infos[i]["addresses"] for i in range(HOSTS))
    check(addresses_ok, "each node reports its namespace address in /api/node addresses")
    found = 0
    for i in range(HOSTS):
        for j in range(HOSTS):
            if i != j and lookup_finds(i, ids[j]):
                found += 1
    total = HOSTS * (HOSTS - 1)
    check(found == total, f"lookups from every host find every other node ({found}/{total})")
    if _durations:
        ordered = sorted(_durations)
        print(f"lookup durations: min {ordered[0]:.0f} ms, median {ordered[len(ordered) // 2]:.0f}"
              f" ms (each round trip crosses the link twice)", flush=True)
    for i, proc in enumerate(_nodes):
        proc.terminate()
        try:
            code = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        if not check(code == 0, f"node {i}: SIGTERM exits with status 0", f"status {code}"):
            with open(logs[i]) as f:
                print(f.read(), flush=True)
    teardown()
    finish()


if __name__ == "__main__":
    main()
