#!/usr/bin/env python3
"""[netns] Reachability behind real NATs (docs/protocol.md "Reachability", issue 48): nodes
behind three masquerading routers learn from third parties' dial-backs that strangers do not
reach them, and at which address their peers see them; the nodes in front learn that strangers
do reach them.

The lab (nat_lab.py): a "public" bridge with host "pub" and three routers, "eim" and "eim2"
that keep a flow's source port and "rnd" that draws a new one for every flow, each dropping
every packet from the wan side that no flow of its own asked for. Four nodes run in "pub" (DHT
ports 6881 to 6884), one behind each router; each API listens on 127.0.0.1 inside its host
and is asked with curl there.

Within VERDICT_WITHIN_S of the start:
1. the node behind "eim": GET /api/node "reachability" is "nat", "externalAddress" the router's
   address at the node's own DHT port, "reach.natMapping" "stable", probes not reached and none
   reached; /metrics skillnode_reachability{verdict="nat"} 1;
2. the node behind "rnd": "nat", "externalAddress" the router's address alone, "natMapping"
   "varying" (its peers saw it at different ports);
3. every node in "pub": "public" at its own endpoint, from dial-backs sent from third parties'
   dial ports;
4. client mode (node.kademlia.clientMode auto): the two nodes behind the routers say
   "clientMode" true, the four in "pub" false; within CLIENT_GONE_WITHIN_S of the verdicts no
   node in "pub" holds either of them in its routing table (GET /api/dht/contacts), while each of
   them still holds public nodes (it looks up through them), and /metrics of "pub" count the
   removals (skillnode_clients_removed_total);
5. hosted blobs (docs/protocol.md "Hosted blobs"): each node behind a router registers a SKILL.md
   folder (`skillnode register --skill-dir` inside its host); within HOSTED_WITHIN_S two public
   nodes host it (its /api/node skillFolders.hostsAsked), and every other host, the one behind
   the other router included, gets its SKILL.md and archive byte for byte from a holder that is
   not the publisher (X-Skillnode-Source network, X-Skillnode-Holder another node; a host
   answers from its cache), while the publisher's router keeps dropping every packet no flow of
   its own asked for;
6. relays (docs/protocol.md "Relays"): each node behind a router keeps reservations at two
   public nodes (/api/node relay.held); the routers are set to forget a UDP flow
   ROUTER_UDP_TIMEOUT_S after its last packet (Linux's defaults: 30 s, 120 s once answered),
   each node watches a capability (GET /api/v1/watch, fed by DHT listen), and QUIET_S later a
   public node registers a skill with that capability: the watch sees it within PUSH_WITHIN_S,
   pushed through a relay (skillnode_listen_pushes_relayed_total and
   skillnode_relay_carried_total on the public nodes grow); the routers' defaults come back;
7. hole punching (docs/protocol.md "Hole punching"): a third router "eim2" keeps ports as "eim"
   does, and the node behind it is a client from its start (in no routing table);
   `skillnode ping <id>` from behind "eim" to it says "punched" at eim2's address and the node's
   own port (the PING that decided it went directly, past both NATs; the routers forget flows
   ROUTER_UDP_TIMEOUT_S after their last packet, and the check waits that long first), and back
   it goes directly too; between "rnd" and "eim", either way, "relayed"; to a public
   node "direct"; to an id nobody has "unreachable" (exit status 1); /metrics count them
   (skillnode_connects_total{path}, skillnode_punches_total{result});
8. with --traffic-seconds N (make nat-lab: 600, the issue's 10 minutes): each node behind a
   router registers a skill, and every node searches for both by capability every
   TRAFFIC_ROUND_S for N seconds; at the end every node finds both skills (their records were
   stored through public nodes), and still no node in "pub" holds a NATed node in its routing
   table;
9. SIGTERM: every node exits with status 0, with no sanitizer report.

Skipped (exit 77) when not root or when namespaces cannot be made; fails when curl or nft is
missing.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/reach/nat_lab_test.py
     [--traffic-seconds N]
"""
import argparse
import hashlib
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from netns_lab import require_namespaces, sh  # noqa: E402
from nat_lab import NATTED, NatLab  # noqa: E402
from skillnode_harness import (Node, check, finish, require_binary, run, temp_dir,  # noqa: E402
                               wait_for)

# The bound: a verdict and an address within 30 s.
VERDICT_WITHIN_S = 30
# A node that turns client pings its contacts at once, saying so: they drop it within a round
# trip; the bound leaves room for a busy machine.
CLIENT_GONE_WITHIN_S = 10
# A NATed node's folder is hosted by public nodes within this long of its registration (a
# lookup, two BLOB_HOSTs, two fetches of a few dozen chunks).
HOSTED_WITHIN_S = 20
# The hosted SKILL.md: several dozen 1,000-byte chunks.
HOSTED_SKILL_MD_BYTES = 60 * 1000
# For the relay check the routers forget a UDP flow this long after its last packet (a timer
# set when a flow's packet passes: the watches' LISTENs go after the change). The nodes behind
# them keep their relay reservations every RELAY_KEEP_MS, so that the relays' way in stays
# open; a watch is QUIET_S old when the skill it watches is registered, and the push arrives
# within PUSH_WITHIN_S.
RELAY_KEEP_MS = 1000
ROUTER_UDP_TIMEOUT_S = 3
QUIET_S = 8
PUSH_WITHIN_S = 5
NATTED_CONFIG = f"""
node:
  kademlia:
    relay:
      keepInterval: {RELAY_KEEP_MS}
"""
# The traffic phase (--traffic-seconds): a search round from every node this often.
TRAFFIC_ROUND_S = 10
PUBLIC_PORTS = (6881, 6882, 6883, 6884)
PORT = 6881
LOG_TAIL_CHARS = 3000

lab = NatLab()
failures = []
nodes = []  # (node, role, api port)


def expect(condition, what, detail=""):
    if not check(condition, what, detail):
        failures.append(what)
    return condition


def start(name, role, dht_port, api_port, bootstrap=None, config=None):
    args = ["--port", str(dht_port), "--http", f"127.0.0.1:{api_port}"]
    if bootstrap:
        args += ["--bootstrap", bootstrap]
    node = Node(name, args=args, prefix=lab.prefix_of(role), config=config)
    nodes.append((node, role, api_port))
    return node.start()


def info(role, api_port):
    return lab.api(role, "/api/node", api_port) or {}


def contact_ids(role, api_port):
    contacts = (lab.api(role, "/api/dht/contacts", api_port) or {}).get("contacts", [])
    return {contact.get("id") for contact in contacts}


def public_tables_holding(natted_ids):
    """Per public node, the NATed nodes its routing table holds."""
    return {f"pub{i}": sorted(natted_ids & contact_ids("pub", 7070 + i))
            for i in range(len(PUBLIC_PORTS))}


def finds(role, api_port, capability, skill_id):
    answer = lab.api(role, "/api/skills/search", api_port,
                     {"capabilities": [capability], "fresh": True}) or {}
    return any(s.get("skillId") == skill_id for s in answer.get("skills", []))


def traffic(seconds):
    """Skills registered behind both routers, searched for from every node for `seconds`."""
    natted = {info(role, 7070).get("id") for role in NATTED}
    wanted = []
    for role in ("behind-eim", "behind-rnd"):
        skill = {"agentId": f"agent-{role}", "skillId": f"skill-{role}", "version": "1.0.0",
                 "skillType": "tool-skill", "endpoint": "127.0.0.1:9000",
                 "capabilities": [f"nat-lab-{role}"], "scenes": ["ops"]}
        answer = lab.api(role, "/api/skills", 7070, skill) or {}
        expect(answer.get("skillId") == f"skill-{role}", f"{role}: a skill registers",
               json.dumps(answer)[:300])
        wanted.append((f"nat-lab-{role}", f"skill-{role}"))
    start = time.monotonic()
    end = start + seconds
    rounds = 0
    while time.monotonic() < end:
        # Each skill heartbeats, as a live one does (it is unpublished when it stops).
        for role in ("behind-eim", "behind-rnd"):
            lab.api(role, f"/api/skills/skill-{role}/heartbeat", 7070,
                    {"agentId": f"agent-{role}", "status": "HEALTHY"})
        for _, role, api_port in nodes:
            for capability, skill_id in wanted:
                finds(role, api_port, capability, skill_id)
        rounds += 1
        next_round = start + rounds * TRAFFIC_ROUND_S
        time.sleep(max(0.0, min(next_round, end) - time.monotonic()))
    missing = [f"{node.name}: {skill_id}" for node, role, api_port in nodes
               for capability, skill_id in wanted if not finds(role, api_port, capability, skill_id)]
    expect(not missing, f"after {seconds} s of traffic ({rounds} rounds) every node finds the "
           "skills registered behind both routers", "; ".join(missing))
    held = public_tables_holding(natted)
    expect(not any(held.values()), f"after {seconds} s of traffic no public node's routing "
           "table holds a node behind a NAT", json.dumps(held))


def write_folder(root, name):
    """A SKILL.md folder named `name` under root: its SKILL.md bytes and the folder's path."""
    folder = os.path.join(root, name)
    os.makedirs(os.path.join(folder, "scripts"))
    text = (f"---\nname: {name}\ndescription: A skill registered behind a NAT and fetched from "
            "the hosts that keep its bytes. Use when testing hosted blobs.\n---\n# {name}\n\n")
    line = 0
    while len(text) < HOSTED_SKILL_MD_BYTES:
        text += f"{line:05d} hosted bytes travel from reachable holders, never from the publisher\n"
        line += 1
    md = text.encode()
    with open(os.path.join(folder, "SKILL.md"), "wb") as f:
        f.write(md)
    with open(os.path.join(folder, "scripts", "run.sh"), "w") as f:
        f.write("#!/bin/sh\necho hosted\n")
    os.chmod(os.path.join(folder, "scripts", "run.sh"), 0o755)
    return md, folder


def check_hosted_folders():
    """A SKILL.md folder registered behind each router, fetched from every other host."""
    work = temp_dir("skillnode-nat-folders-")
    published = {}
    for role in ("behind-eim", "behind-rnd"):
        name = f"nat-md-{role}"
        md, folder = write_folder(work, name)
        result = run(["register", "--http", "127.0.0.1:7070", "--skill-dir", folder,
                      "--agent", f"agent-md-{role}", "--skill-version", "1.0.0", "--type",
                      "tool-skill", "--endpoint", "http://127.0.0.1:9/skill", "-C",
                      f"nat-md-{role}"], timeout=60, prefix=lab.prefix_of(role))
        expect(result.returncode == 0 and result.stdout.startswith("SUCCESS: " + name),
               f"{role}: skillnode register --skill-dir registers {name}",
               result.stdout + result.stderr)
        status, archive, _ = lab.get_bytes(role, 7070, f"/api/skills/{name}/download")
        expect(status == 200 and archive, f"{role}: serves its own archive", str(status))
        published[role] = (name, md, hashlib.sha256(archive).hexdigest(), info(role, 7070).get("id"))

    def hosted(role):
        return (info(role, 7070).get("skillFolders") or {}).get("hostsAsked", 0)

    for role in published:
        # Two blobs (SKILL.md and archive), each hosted by two public nodes.
        wait_for(lambda: hosted(role) >= 4, HOSTED_WITHIN_S, interval=0.5)
        expect(hosted(role) >= 4, f"{role}: public nodes host its SKILL.md and archive within "
               f"{HOSTED_WITHIN_S} s (skillFolders.hostsAsked >= 4)", str(hosted(role)))
    for publisher, (name, md, archive_sha, publisher_id) in published.items():
        for node, role, api_port in nodes:
            if role == publisher:
                continue
            status, body, headers = lab.get_bytes(role, api_port, f"/api/skills/{name}/skill.md")
            holder = headers.get("x-skillnode-holder", "")
            source = headers.get("x-skillnode-source")
            # A host answers from its cache: the copy it fetched from the publisher.
            hosts = (info(role, api_port).get("skillFolders") or {}).get("hosted", 0)
            expect(status == 200 and body == md and
                   ((source == "network" and holder and holder != publisher_id) or
                    (source == "cache" and hosts >= 1)),
                   f"{node.name} gets the SKILL.md registered {publisher} byte for byte from a "
                   "holder that is not its publisher (or hosts it itself)",
                   json.dumps({"status": status, "bytes": len(body), "hosted": hosts,
                               "headers": headers})[:400])
            status, archive, _ = lab.get_bytes(role, api_port, f"/api/skills/{name}/download")
            expect(status == 200 and hashlib.sha256(archive).hexdigest() == archive_sha,
                   f"{node.name} gets the archive registered {publisher}, its SHA-256 the "
                   "publisher's", f"status {status}, {len(archive)} bytes")


def check_client_mode():
    natted = {}
    for role in NATTED:
        me = info(role, 7070)
        natted[role] = me.get("id")
        expect(me.get("clientMode") is True, f"{role}: clientMode true once its verdict is nat",
               json.dumps({k: me.get(k) for k in ("reachability", "clientMode")}))
        expect(len(contact_ids(role, 7070)) >= 2,
               f"{role}: its own routing table holds public nodes (it looks up through them)")
    for i in range(len(PUBLIC_PORTS)):
        expect(info("pub", 7070 + i).get("clientMode") is False, f"pub{i}: clientMode false")

    def held():
        return public_tables_holding(set(natted.values()))

    gone = wait_for(lambda: not any(held().values()), CLIENT_GONE_WITHIN_S, interval=0.5)
    expect(gone, f"within {CLIENT_GONE_WITHIN_S} s no public node's routing table holds a node "
           "behind a NAT", json.dumps(held()))
    removed = 0
    for i in range(len(PUBLIC_PORTS)):
        for line in (lab.api("pub", "/metrics", 7070 + i) or "").splitlines():
            if line.startswith("skillnode_clients_removed_total "):
                removed += float(line.split()[1])
    expect(removed >= 1, "the public nodes count the clients they removed "
           "(skillnode_clients_removed_total)", f"{removed}")


def public_metric(name):
    total = 0.0
    for i in range(len(PUBLIC_PORTS)):
        for line in (lab.api("pub", "/metrics", 7070 + i) or "").splitlines():
            if line.startswith(name + " "):
                total += float(line.split()[1])
    return total


def check_relayed_pushes():
    """A push reaches each node behind a router through its relay once the router forgot the
    holders' flows."""
    for role in ("behind-eim", "behind-rnd"):
        relay = info(role, 7070).get("relay") or {}
        expect(len(relay.get("held", [])) == 2,
               f"{role}: keeps reservations at two public nodes (relay.held)", json.dumps(relay))
    lab.set_udp_timeout(ROUTER_UDP_TIMEOUT_S, ROUTER_UDP_TIMEOUT_S)
    watches = {role: lab.watch(role, f"relay-push-{role}") for role in ("behind-eim", "behind-rnd")}
    ready = wait_for(lambda: all(w.saw("ready") for w in watches.values()), 10, interval=0.2)
    expect(ready, "both watches are ready", json.dumps({r: w.lines[:5] for r, w in watches.items()}))
    time.sleep(QUIET_S)
    relayed = public_metric("skillnode_listen_pushes_relayed_total")
    carried = public_metric("skillnode_relay_carried_total")
    for role in watches:
        skill = {"agentId": "agent-relay", "skillId": f"skill-relay-{role}", "version": "1.0.0",
                 "skillType": "tool-skill", "endpoint": "127.0.0.1:9000",
                 "capabilities": [f"relay-push-{role}"]}
        answer = lab.api("pub", "/api/skills", 7071, skill) or {}
        expect(answer.get("skillId") == skill["skillId"], f"pub1 registers {skill['skillId']}",
               json.dumps(answer)[:300])
    for role, watch in watches.items():
        seen = wait_for(lambda w=watch, r=role: w.saw("added", f"skill-relay-{r}"), PUSH_WITHIN_S,
                        interval=0.2)
        expect(seen, f"{role}: its watch sees the skill registered on pub1 within "
               f"{PUSH_WITHIN_S} s, its router forgetting flows after {ROUTER_UDP_TIMEOUT_S} s",
               json.dumps(watch.lines[-6:]))
        watch.close()
    expect(public_metric("skillnode_listen_pushes_relayed_total") >= relayed + 2 and
           public_metric("skillnode_relay_carried_total") >= carried + 4,
           "the pushes went through relays, and their acknowledgements came back through them "
           "(skillnode_listen_pushes_relayed_total, skillnode_relay_carried_total)",
           f"relayed {relayed} -> {public_metric('skillnode_listen_pushes_relayed_total')}, "
           f"carried {carried} -> {public_metric('skillnode_relay_carried_total')}")
    lab.set_udp_timeout(30, 120)


def ping(role, node_id):
    """`skillnode ping <id> --json` inside `role`'s host, asking its node: the answer."""
    result = run(["ping", node_id, "--http", "127.0.0.1:7070", "--json", "--timeout", "20000"],
                 timeout=30, prefix=lab.prefix_of(role))
    try:
        answer = json.loads(result.stdout)
    except json.JSONDecodeError:
        answer = {}
    answer["exitStatus"] = result.returncode
    if result.stderr:
        answer["stderr"] = result.stderr[-300:]
    return answer


def metric(role, api_port, sample):
    for line in (lab.api(role, "/metrics", api_port) or "").splitlines():
        if line.startswith(sample + " "):
            return float(line.split()[1])
    return 0.0


def check_hole_punching():
    """Two nodes behind the routers that keep ports reach each other directly after a punch
    through a relay; behind the router that draws ports the punch fails and the relay carries."""
    ids = {role: info(role, 7070).get("id") for role in NATTED}
    # Flows the two hosts opened to each other before they turned clients would let them talk
    # directly already: the routers forget every flow not kept alive (the relays' are, every
    # RELAY_KEEP_MS), so that each path starts from closed NATs.
    lab.set_udp_timeout(ROUTER_UDP_TIMEOUT_S, ROUTER_UDP_TIMEOUT_S)
    time.sleep(ROUTER_UDP_TIMEOUT_S + 2)
    answer = ping("behind-eim", ids["behind-eim2"])
    expect(answer.get("path") == "punched" and
           answer.get("endpoint") == f"{lab.wan['eim2']}:{PORT}" and
           answer.get("exitStatus") == 0,
           f"behind-eim reaches behind-eim2 directly after hole punching (skillnode ping: "
           f"punched, at {lab.wan['eim2']}:{PORT})", json.dumps(answer))
    # The hole is open both ways: the other side's messages go directly too.
    answer = ping("behind-eim2", ids["behind-eim"])
    expect(answer.get("path") in ("punched", "direct") and
           answer.get("endpoint") == f"{lab.wan['eim']}:{PORT}" and
           answer.get("exitStatus") == 0,
           f"behind-eim2 then reaches behind-eim directly too, at {lab.wan['eim']}:{PORT}",
           json.dumps(answer))
    for asker, target in (("behind-rnd", "behind-eim"), ("behind-eim", "behind-rnd")):
        answer = ping(asker, ids[target])
        expect(answer.get("path") == "relayed" and answer.get("relay") and
               answer.get("exitStatus") == 0,
               f"{asker} reaches {target} through a relay: the router that draws ports defeats "
               "the punch", json.dumps(answer))
    pub0 = info("pub", 7070).get("id")
    answer = ping("behind-eim", pub0)
    expect(answer.get("path") == "direct" and
           answer.get("endpoint") == f"{lab.public}.1:{PUBLIC_PORTS[0]}",
           "behind-eim reaches pub0 directly", json.dumps(answer))
    answer = ping("behind-eim", "ab" * 32)
    expect(answer.get("path") == "unreachable" and answer.get("exitStatus") == 1,
           "an id nobody has is unreachable (exit status 1)", json.dumps(answer))
    counts = {
        "punched": metric("behind-eim", 7070, 'skillnode_connects_total{path="punched"}'),
        "relayed": metric("behind-eim", 7070, 'skillnode_connects_total{path="relayed"}'),
        "failed": metric("behind-eim", 7070, 'skillnode_punches_total{result="failed"}'),
        "answered": metric("behind-eim2", 7070, 'skillnode_punches_total{result="answered"}'),
    }
    expect(counts["punched"] >= 1 and counts["relayed"] >= 1 and counts["failed"] >= 1 and
           counts["answered"] >= 1,
           "the paths and punches are counted (skillnode_connects_total{path}, "
           "skillnode_punches_total{result})", json.dumps(counts))
    lab.set_udp_timeout(30, 120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traffic-seconds", type=int, default=0,
                        help="searches from every node for this long, then check again")
    args = parser.parse_args()
    require_binary()
    require_namespaces(lab.tag)
    for tool in ("curl", "nft"):
        if shutil.which(tool) is None:
            check(False, f"{tool} is installed (.ci/install-deps)")
            finish()
    lab.build()
    seed = f"{lab.public}.1:{PUBLIC_PORTS[0]}"
    for i, port in enumerate(PUBLIC_PORTS):
        start(f"pub{i}", "pub", port, 7070 + i, None if i == 0 else seed)
    for role in NATTED:
        # The node behind "eim2" is a client from its start (clientMode on), so that it is in no
        # routing table and no earlier exchange opened the routers to it: the first path to it
        # must be punched.
        config = NATTED_CONFIG + ("    clientMode: on\n" if role == "behind-eim2" else "")
        start(role, role, PORT, 7070, seed, config)

    def decided():
        return all(info(role, api).get("reachability") in ("public", "nat")
                   for _, role, api in nodes)

    wait_for(decided, VERDICT_WITHIN_S, interval=0.5)

    eim = info("behind-eim", 7070)
    expect(eim.get("reachability") == "nat" and
           eim.get("externalAddress") == f"{lab.wan['eim']}:{PORT}" and
           eim.get("reach", {}).get("natMapping") == "stable" and
           eim.get("reach", {}).get("probesReached") == 0 and
           eim.get("reach", {}).get("probesNotReached", 0) >= 2,
           f"behind the router that keeps ports: nat at {lab.wan['eim']}:{PORT}, a stable "
           f"mapping, within {VERDICT_WITHIN_S} s",
           json.dumps({k: eim.get(k) for k in ("reachability", "externalAddress", "reach")}))
    metrics = lab.api("behind-eim", "/metrics", 7070) or ""
    expect('skillnode_reachability{verdict="nat"} 1' in metrics,
           "its /metrics say skillnode_reachability{verdict=\"nat\"} 1")
    rnd = info("behind-rnd", 7070)
    expect(rnd.get("reachability") == "nat" and rnd.get("externalAddress") == lab.wan["rnd"] and
           rnd.get("reach", {}).get("natMapping") == "varying",
           f"behind the router that draws ports: nat at {lab.wan['rnd']} alone, a varying "
           f"mapping, within {VERDICT_WITHIN_S} s",
           json.dumps({k: rnd.get(k) for k in ("reachability", "externalAddress", "reach")}))
    for i, port in enumerate(PUBLIC_PORTS):
        pub = info("pub", 7070 + i)
        expect(pub.get("reachability") == "public" and
               pub.get("externalAddress") == f"{lab.public}.1:{port}",
               f"pub{i}: public at {lab.public}.1:{port} within {VERDICT_WITHIN_S} s",
               json.dumps({k: pub.get(k) for k in ("reachability", "externalAddress", "reach")}))

    check_client_mode()
    check_hole_punching()
    check_hosted_folders()
    check_relayed_pushes()
    if args.traffic_seconds > 0:
        traffic(args.traffic_seconds)

    for node, _, _ in nodes:
        code, _ = node.stop()
        expect(code == 0, f"{node.name}: SIGTERM exits with status 0", f"status {code}")
        reports = [line for line in node.log_text().splitlines()
                   if "runtime error:" in line or "Sanitizer" in line]
        expect(not reports, f"{node.name}: no sanitizer report in its log", "; ".join(reports[:5]))
    if failures:
        for node, _, _ in nodes:
            print(f"--- {node.name} log ---\n{node.log_text()[-LOG_TAIL_CHARS:]}", flush=True)
    lab.teardown()
    finish()


if __name__ == "__main__":
    main()
