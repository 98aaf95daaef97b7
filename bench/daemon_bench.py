#!/usr/bin/env python3
"""daemon_bench: FIND_NODE requests one skillnode answers per second on loopback, as a ratio
to a bare libuv UDP echo server measured in the same run, and a node's idle memory.

Usage: python3 bench/daemon_bench.py [BUILD_DIR] [--seconds N] [--peers N]
(BUILD_DIR defaults to build/release; `make bench` builds it and runs this.)

The node under test gets N peers (default 20, separate processes) first, so each NODES reply
carries a full k = 20 contact list, as in a real network. Its rate limits are raised for the
run: the benchmark measures how fast the node can answer, not its abuse policy (the default
500 requests/s per source IP would otherwise be the figure). The load generator
(bench/udp_load) keeps 64 requests in flight from one socket; both servers and the generator
share this machine's cores, so the ratio, not the absolute rate, is the result.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

from benchlib import cleanup, processes, rss_kib, start_node

CONFIG = """
node:
  port: 0
  http: {listen: "127.0.0.1:0"}
  log: {level: warn}
  kademlia:
    rateLimit: {perIp: 10000000, perIpBurst: 10000000, global: 100000000, globalBurst: 100000000}
"""
QUIET = """
node:
  port: 0
  http: {listen: "127.0.0.1:0"}
  log: {level: info}
"""

def node_json(url):
    import json
    with urllib.request.urlopen(url + "/api/node", timeout=5) as answer:
        return json.loads(answer.read())


def udp_port(url):
    return int(node_json(url)["listen"][0].rsplit(":", 1)[1])


def load(udp_load, target, seconds, proof=False):
    args = [udp_load, "load", target, str(seconds), "64"] + (["--proof"] if proof else [])
    out = subprocess.run(args, capture_output=True, text=True, timeout=seconds + 30).stdout
    return float(re.search(r"replies_per_second (\d+)", out).group(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build", nargs="?", default="build/release")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--peers", type=int, default=20)
    args = parser.parse_args()
    binary = os.path.join(args.build, "node", "skillnode")
    udp_load = os.path.join(args.build, "bench", "udp_load")

    idle_proc, idle_url = start_node(binary, "idle", QUIET)
    time.sleep(2)  # idle means idle: let start-up allocations settle
    idle_rss = rss_kib(idle_proc.pid)
    idle_proc.send_signal(signal.SIGTERM)
    idle_proc.wait(timeout=5)

    node, url = start_node(binary, "node", CONFIG)
    seed = f"127.0.0.1:{udp_port(url)}"
    for i in range(args.peers):
        start_node(binary, f"peer{i}", QUIET, ["--bootstrap", seed])
    deadline = time.monotonic() + 60
    while node_json(url)["routing_table"]["contacts"] < args.peers and time.monotonic() < deadline:
        time.sleep(0.2)
    contacts = node_json(url)["routing_table"]["contacts"]
    for p in processes[2:]:  # the peers have done their part; their idle loops only add noise
        p.send_signal(signal.SIGSTOP)

    node_rate = load(udp_load, seed, args.seconds)
    node_rate_proof = load(udp_load, seed, args.seconds, proof=True)
    loaded_rss = rss_kib(node.pid)
    echo = subprocess.Popen([udp_load, "echo"], stdout=subprocess.PIPE, text=True)
    processes.append(echo)
    echo_port = int(echo.stdout.readline().split()[1])
    echo_rate = load(udp_load, f"127.0.0.1:{echo_port}", args.seconds)
    for p in processes[2:]:
        p.send_signal(signal.SIGCONT)

    print(f"skillnode FIND_NODE (k = {contacts} contacts per reply): {node_rate:,.0f} replies/s")
    print(f"skillnode FIND_NODE, every reply signed (unverified requester): "
          f"{node_rate_proof:,.0f} replies/s")
    print(f"bare libuv UDP echo:                 {echo_rate:,.0f} replies/s")
    print(f"ratio skillnode / echo:              {node_rate / echo_rate:.2f} (goal >= 0.5)")
    print(f"ratio signed / echo:                 {node_rate_proof / echo_rate:.2f}")
    print(f"idle RSS of a standalone node:       {idle_rss / 1024:.1f} MiB")
    print(f"RSS after the load runs:             {loaded_rss / 1024:.1f} MiB")


if __name__ == "__main__":
    try:
        main()
    finally:
        cleanup()
