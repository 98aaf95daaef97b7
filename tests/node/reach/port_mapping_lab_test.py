#!/usr/bin/env python3
"""[netns] A node behind a home router maps its DHT port by NAT-PMP, or by UPnP IGD where the
router offers only that, is reached from the public side through the mapping, and removes it
on SIGTERM (docs/protocol.md "Reachability", issue 48).

The lab (router_lab.py): a public host "pub" and a router on one bridge, a private host "prv"
behind the router, which masquerades prv's traffic and drops every unsolicited packet from the
public side except to the ports Debian's miniupnpd maps. Each node runs in its host's
namespace, its HTTP API on 127.0.0.1 there (asked with curl inside the namespace).

1. Control: the node in prv with --no-port-mapping; a node in pub bootstrapped to the router's
   public address and the DHT port gets no contact in 8 s: the router drops what it sends. (It
   sends from another port than the public node of 2: a flow the router dropped keeps its
   conntrack entry, without the DNAT, for as long as it keeps sending.)
2. NAT-PMP: the node in prv, port mapping on. Within 15 s GET /api/node's portMapping says
   mapped, nat-pmp, the router's public address and the DHT port; /metrics has
   skillnode_port_mapping_state{state="mapped"} 1; miniupnpd's lease file lists the mapping.
   A node in pub bootstrapped to that address has the node behind the router in its routing
   table within 30 s, with the id the node reports.
3. SIGTERM: the node exits with status 0 within 10 s, logs the removal, and the router holds
   neither the lease nor a forwarding rule.
4. UPnP: miniupnpd restarted with NAT-PMP off; the node maps by UPnP IGD, and removes the
   mapping on SIGTERM the same way.

Skipped (exit 77) when not root or when namespaces cannot be made; fails when miniupnpd or curl
is missing (.ci/install-deps installs them).
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/reach/port_mapping_lab_test.py
"""
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from netns_lab import require_namespaces  # noqa: E402
from router_lab import MINIUPNPD, RouterLab  # noqa: E402
from skillnode_harness import Node, check, finish, require_binary, wait_for  # noqa: E402

PORT = 6881
API = "http://127.0.0.1:7070"
CONTROL_WAIT_S = 8
MAPPED_WITHIN_S = 15
CONTACT_WITHIN_S = 30
EXIT_WITHIN_S = 10

lab = RouterLab("snpm")
failures = []
started = []  # every node, for its log when a check failed
LOG_TAIL_CHARS = 3000


def expect(condition, what, detail=""):
    if not check(condition, what, detail):
        failures.append(what)
    return condition


def api(role, path):
    """The parsed JSON answer of GET `path` on the node in `role`'s namespace, or None."""
    result = lab.run(role, "curl", "-s", "-m", "5", API + path)
    if result.returncode != 0:
        return None
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError:
        return result.stdout


def start(name, role, extra, port_mapping):
    node = Node(name, args=["--port", str(PORT), "--http", "127.0.0.1:7070", *extra],
                prefix=lab.prefix_of(role), port_mapping=port_mapping)
    started.append(node)
    return node.start()


def public_node(name, port=PORT):
    node = Node(name, args=["--port", str(port), "--http", "127.0.0.1:7070", "--bootstrap",
                            f"{lab.wan_address}:{PORT}"],
                prefix=lab.prefix_of("pub"), port_mapping=False)
    started.append(node)
    return node.start()


def contact_ids(role):
    answer = api(role, "/api/dht/contacts") or {}
    return {c.get("id") for c in answer.get("contacts", [])} if isinstance(answer, dict) else set()


def mapping_of(role):
    info = api(role, "/api/node")
    return info.get("portMapping") if isinstance(info, dict) else None


def stop_and_check_removed(node, protocol):
    code, took = node.stop(timeout=EXIT_WITHIN_S + 5)
    expect(code == 0 and took <= EXIT_WITHIN_S,
           f"{protocol}: SIGTERM ends the node with status 0 within {EXIT_WITHIN_S} s",
           f"status {code} after {took:.1f} s")
    expect(f"port mapping: removed {lab.wan_address}:{PORT}" in node.log_text(),
           f"{protocol}: the node logs the mapping's removal", node.log_text()[-800:])
    expect(not lab.leases(), f"{protocol}: the router's lease file is empty after the exit",
           str(lab.leases()))
    expect(not lab.forwarding_rules(), f"{protocol}: no forwarding rule is left on the router",
           str(lab.forwarding_rules()))


def map_and_check(protocol):
    """Starts the node behind the router with port mapping on and checks the mapping it makes
    (`protocol` "nat-pmp" or "upnp"); returns the node."""
    behind = start(f"behind-{protocol}", "prv", [], port_mapping=True)
    external = f"{lab.wan_address}:{PORT}"
    mapped = wait_for(lambda: (mapping_of("prv") or {}).get("state") == "mapped",
                      MAPPED_WITHIN_S, interval=0.2)
    mapping = mapping_of("prv") or {}
    expect(mapped and mapping.get("protocol") == protocol and mapping.get("external") == external
           and mapping.get("port") == PORT,
           f"{protocol}: /api/node portMapping is mapped, {protocol}, {external} within "
           f"{MAPPED_WITHIN_S} s", json.dumps(mapping))
    metrics = api("prv", "/metrics") or ""
    expect('skillnode_port_mapping_state{state="mapped"} 1' in metrics,
           f"{protocol}: /metrics reports the mapped state")
    lease = [line for line in lab.leases() if line.startswith(f"UDP:{PORT}:{lab.prv_address}:")]
    expect(len(lease) == 1, f"{protocol}: miniupnpd's lease file lists UDP {PORT} to the node",
           str(lab.leases()))
    return behind


def main():
    require_binary()
    require_namespaces(lab.tag)
    for tool, path in (("miniupnpd", MINIUPNPD), ("curl", shutil.which("curl"))):
        if not path or not os.path.exists(path):
            check(False, f"{tool} is installed (.ci/install-deps)")
            finish()
    lab.build()
    lab.start_miniupnpd(natpmp=True)

    # 1. Without a mapping the router drops what the public side sends.
    unmapped = start("behind-unmapped", "prv", [], port_mapping=False)
    # From another port than the public node's below: the router's conntrack entry for a flow
    # it dropped (no DNAT) would outlive the mapping while that flow keeps sending, and hide it.
    probe = public_node("public-control", port=PORT + 1)
    time.sleep(CONTROL_WAIT_S)
    expect(not contact_ids("pub") and not contact_ids("prv"),
           f"control: without a mapping, a node bootstrapped to {lab.wan_address}:{PORT} gets "
           f"no contact in {CONTROL_WAIT_S} s", f"{contact_ids('pub')} {contact_ids('prv')}")
    expect(mapping_of("prv") == {"state": "off", "reason": "discovery.dht.portMapping is false"},
           "control: /api/node says --no-port-mapping turned port mapping off",
           json.dumps(mapping_of("prv")))
    expect(not lab.leases(), "control: the router holds no mapping", str(lab.leases()))
    for node in (probe, unmapped):
        code, _ = node.stop()
        expect(code == 0, f"{node.name}: SIGTERM exits with status 0", f"status {code}")

    # 2. NAT-PMP: mapped, and reached from the public side.
    behind = map_and_check("nat-pmp")
    behind_id = (api("prv", "/api/node") or {}).get("id")
    public = public_node("public")
    reached = wait_for(lambda: behind_id in contact_ids("pub"), CONTACT_WITHIN_S, interval=0.5)
    expect(behind_id and reached,
           f"nat-pmp: the public node has the node behind the router in its routing table "
           f"within {CONTACT_WITHIN_S} s", f"{behind_id} not in {contact_ids('pub')}")

    # 3. SIGTERM removes the mapping.
    stop_and_check_removed(behind, "nat-pmp")
    code, _ = public.stop()
    expect(code == 0, "public: SIGTERM exits with status 0", f"status {code}")

    # 4. A router with UPnP IGD only.
    lab.start_miniupnpd(natpmp=False)
    behind = map_and_check("upnp")
    stop_and_check_removed(behind, "upnp")

    if failures:
        for node in started:
            print(f"--- {node.name} log ---\n{node.log_text()[-LOG_TAIL_CHARS:]}", flush=True)
        print(f"--- miniupnpd log ---\n{lab.miniupnpd_log()}", flush=True)
    lab.teardown()
    finish()


if __name__ == "__main__":
    main()
