#!/usr/bin/env python3
"""[uv] A record's copies are restored when a holder dies, without the publisher's republish.

Eight skillnode processes on 127.0.0.1. A skill registered with one of them is stored on the r
(3) nodes closest to each of its keys. GET /api/skills/{id}/replicas shows where the DHT holds
the record under the skill's own key: the copies must reach r. Then one holder that is not the
publisher's node gets kill -9. The surviving holders learn of it through their own traffic
(here lookups of the key, as any search would make): each request to the dead node times out,
it is evicted after node.kademlia.staleFailuresMax failures, and each holder that lost a
co-holder gives its copy to the node that now takes its place among the r closest. Within
RESTORE_DEADLINE_S the replicas found (asked from a node that held none) must again be r, none
of them the dead node, with skillnode_store_repair_keys_total counting the repair; the
publisher's republish (every 20 minutes) cannot have done it.

Run: SKILLNODE=build/release/node/skillnode python3 tests/node/cluster/replica_restore_test.py
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import Node, check, finish, require_binary, wait_for

NODES = 8
REPLICATION = 3
JOIN_TIMEOUT_S = 60
RESTORE_DEADLINE_S = 30
CONFIG = """
node:
  http: {listen: "127.0.0.1:0"}
"""
SKILL = {"agentId": "agent-replica", "skillId": "replica-check", "version": "1.0.0",
         "skillType": "tool-skill", "endpoint": "127.0.0.1:9000",
         "capabilities": ["replica-check"], "scenes": ["ops"]}


def replicas(node):
    """The replica entry of the skill as `node` finds it now, or None."""
    status, answer = node.call("GET", f"/api/skills/{SKILL['skillId']}/replicas", timeout=10)
    if status != 200 or not answer.get("replicas"):
        return None
    entry = answer["replicas"][0]
    entry["key"] = answer["key"]
    return entry


def metric(node, name):
    status, text, _ = node.get("/metrics")
    for line in text.splitlines() if status == 200 else []:
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def accepted_stores(node):
    status, text, _ = node.get("/metrics")
    for line in text.splitlines() if status == 200 else []:
        if line.startswith('skillnode_store_requests_total{result="accepted"} '):
            return float(line.split()[1])
    return 0.0


def closest(ids, key, count):
    """The `count` node ids closest to `key` (hex) by XOR distance, as Kademlia ranks them."""
    return set(sorted(ids, key=lambda i: int(i, 16) ^ int(key, 16))[:count])


def holder_ids(entry, asker_id):
    return set(entry["holders"]) | ({asker_id} if entry["heldHere"] else set())


def main():
    require_binary()
    seed_node = Node("replica-0", ["--port", "0"], config=CONFIG).start()
    seed = f"127.0.0.1:{seed_node.udp_port()}"
    nodes = [seed_node] + [Node(f"replica-{i}", ["--port", "0", "--bootstrap", seed],
                                config=CONFIG).start() for i in range(1, NODES)]
    joined = wait_for(lambda: all(n.contacts() >= NODES - 1 for n in nodes), JOIN_TIMEOUT_S, 0.1)
    check(joined, f"every routing table holds the {NODES - 1} others",
          str([n.contacts() for n in nodes]))
    ids = {n.info()["id"]: n for n in nodes}
    publisher = nodes[0]
    status, answer = publisher.call("POST", "/api/skills", SKILL)
    check(status == 201, "a skill registers with the first node", f"{status} {answer}")

    # Asked from the publisher's node: the copies on the r closest (its own among them or not).
    found = {}
    check(wait_for(lambda: (found.update(e=replicas(publisher)) or
                            (found["e"] and found["e"]["copies"] >= REPLICATION)), 10, 0.2),
          f"the DHT holds {REPLICATION} copies of the record", str(found.get("e")))
    key = found["e"]["key"]
    before = holder_ids(found["e"], publisher.info()["id"])
    victim_id = next(i for i in sorted(before) if ids[i] is not publisher)
    victim = ids[victim_id]
    survivors = [ids[i] for i in before if i != victim_id]
    asker = next(n for n in nodes if n.info()["id"] not in before)
    print(f"holders {sorted(i[:8] for i in before)}; kill -9 {victim.name} ({victim_id[:8]})",
          flush=True)
    # The node that moves up into the r closest in the dead one's place, and what it had
    # accepted before: the repair ends with its copy arriving there.
    moved_up = [ids[i] for i in closest(set(ids) - {victim_id}, key, REPLICATION) - before]
    accepted_before = {n.name: accepted_stores(n) for n in moved_up}
    victim.kill9()
    killed_at = time.monotonic()

    def repaired():
        for node in survivors:  # their own traffic: a lookup of the key reaches the dead node
            node.call("GET", f"/api/dht/lookup?key={key}", timeout=10)
        return sum(metric(n, "skillnode_store_repair_keys_total") for n in survivors) >= 1
    ok = wait_for(repaired, RESTORE_DEADLINE_S, 0.5)
    took = time.monotonic() - killed_at
    evictions = sum(metric(n, "skillnode_routing_table_evicted_total") for n in survivors)
    check(ok and evictions >= 1,
          f"a surviving holder evicted the dead one and gave its copy on, {took:.1f} s after the "
          f"kill (skillnode_routing_table_evicted_total, skillnode_store_repair_keys_total)",
          f"evictions {evictions}")
    # One get only: a get's read repair would store copies too, after its answer. The repair is
    # counted when it starts (a FIND_NODE for a write token, then the STORE): the get waits, not
    # for a time, but until the node that moved up has accepted a store since the kill.
    landed = wait_for(lambda: all(accepted_stores(n) > accepted_before[n.name]
                                  for n in moved_up), 10, 0.1)
    print(f"{[n.name for n in moved_up]} moved up; accepted a store since the kill: {landed}, "
          f"{time.monotonic() - killed_at:.1f} s after it", flush=True)
    entry = replicas(asker)
    now = holder_ids(entry, asker.info()["id"]) if entry else set()
    check(victim_id not in now and len(now) >= REPLICATION,
          f"{REPLICATION} copies again, on live nodes",
          f"holders now {sorted(i[:8] for i in now)}")
    new_holders = now - before
    check(len(new_holders) >= 1, "a node that held no copy holds one now",
          str(sorted(i[:8] for i in new_holders)))
    for node in nodes:
        if node is not victim:
            node.stop(timeout=10)
    finish()


if __name__ == "__main__":
    main()
