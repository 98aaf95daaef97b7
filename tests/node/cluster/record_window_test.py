#!/usr/bin/env python3
"""Record validity windows through real processes (docs/security.md "Replay").

Four nodes on 127.0.0.1. A and C keep the host's clock; S runs two hours slow and N three
minutes slow, both through libfaketime (wall clock only: the event loop's monotonic clock is
left alone). Every node holds a copy of every key (replicationFactor 4), so S keeps its own
records and serves them. Each of A, S and N registers a skill. Then:
- A's and N's skills are found from C: three minutes is inside the default 5 min skew;
- S's records, signed two hours in the past by the others' clocks, are refused by every
  holder that keeps the right time (ERROR 22, `result="outside_window"`) and dropped from
  C's gets (`skillnode_store_outside_window_total`), so C never finds S's skill;
- S, for whom A's records are signed two hours in the future, refuses them the same way;
- S counts its own STOREs refused as outside their window
  (`skillnode_store_publish_outside_window_total`), three holders to each of its records,
  where A's are refused by S alone.

Run: SKILLNODE=build/release/node/skillnode python3 tests/node/cluster/record_window_test.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import Node, check, finish, require_binary, skip, temp_dir, wait_for

FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"


def metric(node, name, label=""):
    _, text, _ = node.get("/metrics")
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and label in line:
            total += float(line.rsplit(" ", 1)[1])
    return total


def clock_env(offset):
    """The environment of a node whose wall clock is `offset` (libfaketime syntax) off."""
    asan = os.environ.get("ASAN_OPTIONS", "")
    return dict(os.environ, LD_PRELOAD=FAKETIME, FAKETIME=offset,
                FAKETIME_DONT_FAKE_MONOTONIC="1", FAKETIME_DONT_RESET="1",
                # libfaketime is preloaded before the sanitizer runtime of the test build.
                ASAN_OPTIONS=(asan + ":" if asan else "") + "verify_asan_link_order=0")


def register(node, skill):
    status, body = node.call("POST", "/api/skills", {
        "agentId": "agent-1", "skillId": skill, "version": "1.0.0", "skillType": "tool-skill",
        "endpoint": "127.0.0.1:9000", "capabilities": [skill + "-cap"]})
    check(status == 201, f"{skill} registers on its own node", f"{status} {body}")


def found(node, capability):
    status, body = node.call("POST", "/api/skills/search",
                             {"capabilities": [capability], "fresh": True, "lan": False})
    return [s["skillId"] for s in body.get("skills", [])] if status == 200 else []


def main():
    require_binary()
    if not os.path.exists(FAKETIME):
        skip("libfaketime is not installed (apt-get install faketime)")
    directory = temp_dir("skillnode-window-")
    args = ["--port", "0", "--http", "127.0.0.1:0"]
    config = "discovery:\n  dht:\n    replicationFactor: 4\n"
    a = Node("a", args=args, data_dir=os.path.join(directory, "a"), config=config).start()
    seed = ["--bootstrap", f"127.0.0.1:{a.udp_port()}"]
    slow = Node("slow", args=args + seed, data_dir=os.path.join(directory, "slow"),
                config=config, env=clock_env("-2h")).start()
    near = Node("near", args=args + seed, data_dir=os.path.join(directory, "near"),
                config=config, env=clock_env("-3m")).start()
    c = Node("c", args=args + seed, data_dir=os.path.join(directory, "c"),
             config=config).start()
    nodes = [a, slow, near, c]
    check(wait_for(lambda: all(n.contacts() >= 3 for n in nodes), 20), "the four nodes meet")

    register(a, "skill-right-clock")
    register(near, "skill-near-clock")
    register(slow, "skill-slow-clock")

    check(wait_for(lambda: "skill-right-clock" in found(c, "skill-right-clock-cap"), 10,
                   interval=0.2), "a skill from a node with the right clock is found")
    check(wait_for(lambda: "skill-near-clock" in found(c, "skill-near-clock-cap"), 10,
                   interval=0.2),
          "a skill from a node three minutes slow is found: inside the 5 min skew")
    refused = lambda: sum(metric(n, "skillnode_store_requests_total", 'result="outside_window"')
                          for n in (a, near, c))
    check(wait_for(lambda: refused() > 0, 10, interval=0.2),
          "holders with the right time refuse the STOREs of the node two hours slow (ERROR 22)",
          f"{refused()} refused")
    check(found(c, "skill-slow-clock-cap") == [],
          "the slow node's skill is never found from a node with the right time")
    check(metric(c, "skillnode_store_outside_window_total") > 0,
          "the searcher dropped the copies the slow node itself serves",
          f"{metric(c, 'skillnode_store_outside_window_total')}")
    check("skill-slow-clock" in found(slow, "skill-slow-clock-cap"),
          "the slow node still finds its own registration (its local registry)")
    own_refused = {n.name: metric(n, "skillnode_store_publish_outside_window_total")
                   for n in (a, slow)}
    check(own_refused["slow"] > own_refused["a"] > 0,
          "the slow node counts its own STOREs refused as outside their window, by three "
          "holders each, more than A, whose STOREs only the slow node refuses", f"{own_refused}")
    check(found(slow, "skill-right-clock-cap") == [] and
          metric(slow, "skillnode_store_outside_window_total") +
          metric(slow, "skillnode_store_requests_total", 'result="outside_window"') > 0,
          "the slow node refuses the others' records: signed two hours in its future")
    for node in nodes:
        code, _ = node.stop()
        check(code == 0, f"{node.name} exits cleanly on SIGTERM",
              node.log_text()[-2000:])
    finish()


if __name__ == "__main__":
    main()
