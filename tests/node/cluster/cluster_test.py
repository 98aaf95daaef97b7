#!/usr/bin/env python3
"""[uv] Many skillnode processes on 127.0.0.1: joining, rejoining from saved state, shutdown.

1. A bootstrap node and 20 nodes that join through it: every routing table reaches the
   others (GET /api/node until routing_table.contacts >= 19).
2. A skill registered through one node is found through every other node.
3. kill -9 of one node and of the bootstrap node; the killed node restarts with its data
   directory and rejoins from its saved contacts although no bootstrap peer answers.
4. SIGTERM: exit status 0 within SHUTDOWN_BOUND_S (skillnode_harness.py says why), with the
   event loop closed cleanly.
2b. Reachability (docs/protocol.md "Reachability"): within REACH_DEADLINE_S of joining, every
   node says in GET /api/node that strangers reach it ("reachability": "public", from dial-backs
   that third parties sent from their dial ports), that its external address is 127.0.0.1 at
   its DHT port (the peers' votes), and /metrics says skillnode_reachability{verdict="public"} 1.
5. Saved soon after joining (default stateSaveInterval, a minute): B joins through A, is killed
   with kill -9 as soon as its contacts file holds A (EARLY_SAVE_DEADLINE_S at most), A is
   killed too; B restarts with A down, and its saved contacts hold A, and its log says it
   loaded them and joined through them.
Run: SKILLNODE=build/daemon/node/skillnode python3 tests/node/cluster/cluster_test.py
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import (SHUTDOWN_BOUND_S, Node, check, finish, require_binary, wait_for)

JOINERS = 20
JOIN_TIMEOUT_S = 120
# Saved every second here (default: a minute) so that a kill -9 finds recent contacts.
CONFIG = """
node:
  stateSaveInterval: 1000
  http: {listen: "127.0.0.1:0"}
"""

# The default save interval (a minute): only the save right after joining can beat the kill.
EARLY_SAVE_CONFIG = """
node:
  http: {listen: "127.0.0.1:0"}
"""
# The daemon saves within kTableCheckInterval (1 s) of the first contact; the rest is slack for
# a loaded machine (tests side by side with a compile on 2 cores). A bound, not a speed: it only
# has to stay well below stateSaveInterval (a minute), the save that would come anyway.
EARLY_SAVE_DEADLINE_S = 10.0


def saved_soon_after_join():
    a = Node("early-a", ["--port", "0"], config=EARLY_SAVE_CONFIG).start()
    a_id, a_port = a.info()["id"], a.udp_port()
    b_args = ["--port", "0", "--bootstrap", f"127.0.0.1:{a_port}"]
    b = Node("early-b", b_args, config=EARLY_SAVE_CONFIG).start()
    check(wait_for(lambda: b.contacts() >= 1, 15, interval=0.02), "B joins through A")
    joined = time.monotonic()
    saved = wait_for(lambda: a_id in b.saved_contact_ids(), EARLY_SAVE_DEADLINE_S, interval=0.02)
    check(saved, f"B saved A to its contacts file {time.monotonic() - joined:.2f} s after joining"
                 f" (deadline {EARLY_SAVE_DEADLINE_S} s; stateSaveInterval is a minute)")
    check("contacts after joining" in b.log_text(), "B's log says it saved after joining")
    b.kill9()
    a.kill9()
    print("killed B and then A with SIGKILL", flush=True)
    check(a_id in b.saved_contact_ids(), "B's saved contacts hold A after the kill")
    restarted = Node("early-b-restarted", b_args, data_dir=b.data_dir,
                     config=EARLY_SAVE_CONFIG).start()
    log = restarted.log_text()
    check("loaded 1 saved contacts" in log, "restarted with A down, B loads its saved contact")
    check(f"joining through 1 remembered contacts: 127.0.0.1:{a_port}" in log,
          "and tries to join through A, remembered, not only through --bootstrap")
    code, _ = restarted.stop()
    check(code == 0, "the restarted B exits 0 on SIGTERM", f"status {code}")
    check(a_id in restarted.saved_contact_ids(),
          "an empty table at shutdown kept A in the saved contacts")


def join_everyone():
    bootstrap = Node("bootstrap", ["--port", "0"], config=CONFIG).start()
    seed = f"127.0.0.1:{bootstrap.udp_port()}"
    print(f"bootstrap node at udp {seed}, {bootstrap.url}", flush=True)
    nodes = [Node(f"n{i}", ["--port", "0", "--bootstrap", seed], config=CONFIG).start()
             for i in range(JOINERS)]
    everyone = [bootstrap] + nodes
    started = time.monotonic()
    done = wait_for(lambda: all(n.contacts() >= JOINERS - 1 for n in everyone), JOIN_TIMEOUT_S,
                    interval=0.2)
    counts = [n.contacts() for n in everyone]
    check(done, f"all {len(everyone)} routing tables hold >= {JOINERS - 1} contacts "
                f"(min {min(counts)}, max {max(counts)}, after {time.monotonic() - started:.1f} s)",
          f"contacts per node: {counts}")
    phases = {n.info()["dht"]["bootstrapPhase"] for n in nodes}
    check(phases == {"joined"}, "every joiner reports bootstrap phase 'joined'", str(phases))
    return bootstrap, nodes


# The bound: a verdict and an address within 30 s.
REACH_DEADLINE_S = 30


def reachable_everywhere(everyone):
    """Every node finds, by dial-backs from third parties, that strangers reach it."""
    started = time.monotonic()
    public = wait_for(lambda: all(n.info()["reachability"] == "public" for n in everyone),
                      REACH_DEADLINE_S, interval=0.5)
    verdicts = [n.info()["reachability"] for n in everyone]
    check(public, f"every node reports reachability 'public' "
                  f"({time.monotonic() - started:.1f} s after the tables filled)", str(verdicts))
    wrong = []
    for n in everyone:
        info = n.info()
        if info["externalAddress"] != f"127.0.0.1:{n.udp_port()}":
            wrong.append(f"{n.name}: {info['externalAddress']} ({info['reach']})")
    check(not wrong, "every node's externalAddress is 127.0.0.1 at its own DHT port", str(wrong))
    reach = everyone[1].info()["reach"]
    check(reach["probesReached"] >= 2 and reach["probesNotReached"] == 0 and reach["dialPort"],
          "its dial-backs arrived from third parties' dial ports, none missing", str(reach))
    status, text, _ = everyone[1].get("/metrics")
    check(status == 200 and 'skillnode_reachability{verdict="public"} 1' in text,
          "/metrics says skillnode_reachability{verdict=\"public\"} 1")


def record_found_everywhere(bootstrap, nodes):
    """A skill registered through one node is found through every other."""
    skill = {"agentId": "agent-cluster", "skillId": "skill-cluster", "version": "1.0.0",
             "skillType": "tool-skill", "endpoint": "127.0.0.1:9000",
             "capabilities": ["cluster-check"], "scenes": ["ops"]}
    status, answer = nodes[0].call("POST", "/api/skills", skill)
    check(status == 201, "a skill registers with n0", f"{status} {answer}")

    def finds(node):
        status, answer = node.call("POST", "/api/skills/search",
                                   {"capabilities": ["cluster-check"], "fresh": True})
        return status == 200 and any(s["skillId"] == "skill-cluster" for s in answer["skills"])

    others = [bootstrap] + nodes[1:]
    found = wait_for(lambda: all(finds(n) for n in others), 10, 0.1)
    missing = [n.name for n in others if not finds(n)]
    check(found, f"the record stored through n0 is found through all {len(others)} other nodes",
          f"not found on {missing}")


def restart_from_saved_state(bootstrap, nodes):
    victim = nodes[5]
    port = victim.udp_port()
    node_id = victim.info()["id"]
    check(wait_for(lambda: len(victim.saved_contact_ids()) >= JOINERS - 1, 10),
          f"{victim.name} has saved its contacts ({len(victim.saved_contact_ids())}) "
          f"before the kill")
    victim.kill9()
    bootstrap.kill9()
    print(f"killed {victim.name} and the bootstrap node with SIGKILL", flush=True)
    restarted = Node(victim.name + "-restarted", victim.args[:1] + [str(port)] + victim.args[2:],
                     data_dir=victim.data_dir, config=CONFIG).start()
    check(restarted.info()["id"] == node_id, "the restarted node kept its identity")
    rejoined = wait_for(lambda: restarted.contacts() > 0, 30, interval=0.1)
    info = restarted.info()
    check(rejoined, f"the restarted node rejoined with no bootstrap peer up "
                    f"({info['routingTable']['contacts']} contacts)")
    check(wait_for(lambda: restarted.info()["dht"]["bootstrapPhase"] == "joined", 10),
          "it joined through its remembered contacts", str(restarted.info()["dht"]))
    check("joining through" in restarted.log_text() and "remembered contacts" in
          restarted.log_text(), "its log says it joined through remembered contacts")
    status, lookup = restarted.get_json("/api/dht/lookup?key=" + nodes[0].info()["id"])
    check(status == 200 and lookup["closest"] and lookup["closest"][0]["id"] == nodes[0].info()["id"],
          "a lookup from the restarted node finds another node by its id")
    return restarted


def sigterm_is_clean(node):
    code, seconds = node.stop(timeout=10)
    check(code == 0, f"SIGTERM: {node.name} exits with status 0", f"status {code}")
    check(seconds < SHUTDOWN_BOUND_S,
          f"SIGTERM: {node.name} exits within {SHUTDOWN_BOUND_S} s ({seconds:.2f} s)")
    log = node.log_text()
    check("uv_loop_close returned 0" in log, "SIGTERM: the log confirms uv_loop_close returned 0")
    check("saved" in log and "at shutdown" in log, "SIGTERM: contacts were saved at shutdown")


def second_signal_exits_at_once(node):
    # 128 + SIGTERM, or 0 should the first signal's shutdown end before the second arrives
    node.expect_exit(128 + signal.SIGTERM, 0)
    node.signal(signal.SIGTERM)
    node.signal(signal.SIGTERM)
    code = node.wait(5)
    check(code is not None, f"two SIGTERMs in a row: {node.name} exits promptly (status {code})")


def main():
    require_binary()
    saved_soon_after_join()
    bootstrap, nodes = join_everyone()
    reachable_everywhere([bootstrap] + nodes)
    record_found_everywhere(bootstrap, nodes)
    restarted = restart_from_saved_state(bootstrap, nodes)
    sigterm_is_clean(restarted)
    sigterm_is_clean(nodes[0])
    second_signal_exits_at_once(nodes[1])
    for node in nodes[2:]:
        if node is not nodes[5]:
            node.stop(timeout=10)
    finish()


if __name__ == "__main__":
    main()
