#!/usr/bin/env python3
"""[uv] Two local nodes given SIGTERM at the same instant each save their full routing table.

Two networks each round: a pair alone (a bootstrap node and one that joins through it), and
six nodes (a bootstrap node and five joiners). Each node has a registered skill, so that
shutting down unpublishes it through the DHT. Once every table holds all the others, the last
two nodes get SIGTERM back to back (one os.kill after the other, no wait between), while each
is still in the other's table. Each one's saved contacts file must then hold every other node,
its partner included, and its log must say so ("saved N contacts at shutdown").

The pair is the case that failed: the unpublish's requests to the partner, already stopped,
timed out while the shutdown steps ran, the partner was evicted, and the node saved 0 contacts
(every round, before the daemon kept the table of the moment the shutdown began).

Before the signals the contacts files are removed, so what is checked was written by the shutdown
save itself and not kept from an earlier save.

The two say they are leaving (LEAVE, docs/protocol.md "Leaving"): in the network of six, the
four others drop both from their tables within seconds, and count them in /metrics
(skillnode_contacts_left_total).

Run: SKILLNODE=build/hard/node/skillnode python3 tests/node/cluster/sigterm_save_test.py [ROUNDS]
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import (Node, check, finish, require_binary, wait_for)

NETWORK_SIZES = (2, 6)
JOIN_TIMEOUT_S = 60
# Far below the time the leavers' silence would take to evict them (stale_failures_max timeouts).
LEAVE_TIMEOUT_S = 3
# A save an hour: only the saves after joining and at shutdown write the file.
CONFIG = """
node:
  stateSaveInterval: 3600000
  http: {listen: "127.0.0.1:0"}
"""


def metric_value(node, name):
    """The value of an unlabelled metric in the node's /metrics, or None."""
    status, body, _ = node.get("/metrics")
    if status != 200:
        return None
    for line in body.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == name:
            return float(parts[1])
    return None


def register_skill(node, index):
    skill = {"agentId": f"agent-sigterm-{index}", "skillId": f"skill-sigterm-{index}",
             "version": "1.0.0", "skillType": "tool-skill", "endpoint": "127.0.0.1:9000",
             "capabilities": ["sigterm-check"], "scenes": ["ops"]}
    status, answer = node.call("POST", "/api/skills", skill)
    check(status == 201, f"a skill registers with {node.name}", f"{status} {answer}")


def one_round(round_index, size):
    bootstrap = Node(f"r{round_index}-{size}-boot", ["--port", "0"], config=CONFIG).start()
    seed = f"127.0.0.1:{bootstrap.udp_port()}"
    nodes = [bootstrap] + [
        Node(f"r{round_index}-{size}-n{i}", ["--port", "0", "--bootstrap", seed],
             config=CONFIG).start()
        for i in range(size - 1)]
    joined = wait_for(lambda: all(n.contacts() >= size - 1 for n in nodes), JOIN_TIMEOUT_S, 0.1)
    counts = [n.contacts() for n in nodes]
    check(joined, f"round {round_index}, {size} nodes: every table holds the {size - 1} others",
          str(counts))
    ids = {n.name: n.info()["id"] for n in nodes}
    for i, node in enumerate(nodes):
        register_skill(node, i)
    # The last two: in a network of six neither is the bootstrap node; alone, the pair is all.
    pair = nodes[-2:]
    for node in pair:
        try:
            os.remove(os.path.join(node.data_dir, "contacts"))
        except OSError:
            pass
    for node in pair:
        os.kill(node.proc.pid, signal.SIGTERM)
    for node in pair:
        code = node.wait(15)
        check(code == 0, f"round {round_index}: {node.name} exits 0 on SIGTERM", f"status {code}")
    for node in pair:
        for line in node.log_text().splitlines():
            if "at shutdown" in line and "contacts" in line:
                print(f"{node.name}: {line.strip()}", flush=True)
        expected = {ids[n.name] for n in nodes if n is not node}
        saved = node.saved_contact_ids()
        partner = next(n for n in pair if n is not node)
        check(saved == expected,
              f"round {round_index}: {node.name} saved all {len(expected)} contacts at shutdown, "
              f"{partner.name} (stopped at the same instant) among them",
              f"saved {len(saved)}, missing {sorted(x[:8] for x in expected - saved)}")
        check(f"saved {len(expected)} contacts at shutdown" in node.log_text(),
              f"round {round_index}: {node.name}'s log says it saved {len(expected)} contacts "
              f"at shutdown",
              "\n".join(line for line in node.log_text().splitlines() if "contacts" in line))
    # The others heard each leaver's LEAVE: both are out of their tables at once, not after
    # their requests to them have timed out, and /metrics counts them.
    others = [n for n in nodes if n not in pair]
    if others:
        left = wait_for(lambda: all(n.contacts() == size - 3 for n in others), LEAVE_TIMEOUT_S,
                        0.1)
        check(left, f"round {round_index}: within {LEAVE_TIMEOUT_S} s the other {len(others)} "
              f"nodes hold {size - 3} contacts, the two that left gone",
              str([n.contacts() for n in others]))
    for node in others:
        counted = metric_value(node, "skillnode_contacts_left_total")
        check(counted == 2, f"round {round_index}: {node.name} counts the 2 contacts that left",
              f"skillnode_contacts_left_total {counted}")
    for node in others:
        node.stop(timeout=10)


def main():
    require_binary()
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    started = time.monotonic()
    for r in range(rounds):
        for size in NETWORK_SIZES:
            one_round(r, size)
    print(f"{rounds} round(s) in {time.monotonic() - started:.1f} s", flush=True)
    finish()


if __name__ == "__main__":
    main()
