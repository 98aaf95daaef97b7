#!/usr/bin/env python3
"""[netns] The LAN adapter on three hosts in network namespaces on one bridge.

1. LAN only (the DHT off on every host): the seed's example datagrams, sent with socat, are
   answered (SKILL_REGISTER_ACK, SKILL_DISCOVER_RESPONSE); a skill registered by UDP text on
   host 0 is found from host 2 through the LAN stage ("source": "lan"); SKILL_HEARTBEAT and
   SKILL_UNREGISTER take effect; garbage on the port is counted, never fatal.
2. Zero configuration: the DHT on, no --bootstrap anywhere; the nodes find each other on the
   LAN, and a skill registered on host 0 is found from host 2 through the DHT stage with the
   LAN stage skipped.
3. security.mode require with certificates made by the openssl CLI: an agent with a chain to
   the trusted root passes the challenge (CHALLENGE / CHALLENGE_RESPONSE) and gets SUCCESS; one
   from a foreign root, and an unsigned one, get UNAUTHORIZED; host 2 hears host 0's signed
   announcements.

Skipped (exit 77) with the reason when not root or when namespaces cannot be made.
Run: SKILLNODE=build/release/node/skillnode python3 tests/node/lan/lan_netns_test.py
"""
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from netns_lab import Lab, require_namespaces
from test_pki import Pki
from skillnode_harness import (BINARY, Node, check, finish, require_binary, run, temp_dir,
                               wait_for)

HOSTS = 3
HTTP = "127.0.0.1:7070"
API = f"http://{HTTP}"
CLIENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lan_client.py")
GROUP = "224.0.0.1:54321"
# The seed's examples, byte for byte (skill-discovery-protocol sections 2.1, 3.1, 3.2, 13.1).
SPEC_REGISTER = ("SKILL_REGISTER:agent-001;skill-org-feishu;0.7.0;enterprise-skill;"
                 "192.168.1.100:8080;org-data-read,user-auth;auth;1707868800000;a1b2c3d4e5f6...")
SPEC_DISCOVER = "SKILL_DISCOVER:agent-002;org-data-read;auth;enterprise-skill;1707868800000"
SPEC_RESPONSE = ("SKILL_DISCOVER_RESPONSE:agent-002;skill-org-feishu|0.7.0|192.168.1.100:8080|"
                 "org-data-read,user-auth|auth;skill-org-dingding|0.7.0|192.168.1.101:8080|"
                 "org-data-read,user-auth|auth;1707868800000")
SPEC_HEARTBEAT = "SKILL_HEARTBEAT:agent-001;skill-org-feishu;HEALTHY;1707868805000;MEUCIQDxxx..."
FAST = "  udp: {broadcastInterval: 500, timeout: 3000}\n"

lab = Lab("snl", HOSTS, 202)
nodes = []


def start(i, config, name, data_dir=None):
    node = Node(f"{name}{i}", args=["--port", "6881", "--http", HTTP], config=config,
                prefix=lab.prefix_of(i), lan=True, data_dir=data_dir)
    node.start()
    nodes.append(node)
    return node


def stop_all():
    for node in nodes:
        code, _ = node.stop()
        if not check(code == 0, f"{node.name}: SIGTERM exits with status 0", f"status {code}"):
            print(node.log_text(), flush=True)
    nodes.clear()


def socat(i, text, wait_s=1.5):
    """Sends `text` to the group from host i with socat; returns the datagrams answered."""
    result = lab.run(i, "socat", f"-T{wait_s}", "-", f"UDP4-DATAGRAM:{GROUP},bind=:0",
                     input_text=text)
    return result.stdout


def client(i, *texts, wait_ms=1500, extra=()):
    args = ["python3", CLIENT, "--wait-ms", str(wait_ms), *extra]
    for text in texts:
        args += ["--text", text]
    result = lab.run(i, *args)
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f"lan_client.py: {result.stderr}")


def skills(i, query):
    status, body = lab.curl_json(i, f"{API}/api/skills?{query}")
    return body.get("skills", []) if status == 200 and body else []


def metric(i, name, label):
    result = lab.run(i, "curl", "-s", "-m", "5", f"{API}/metrics")
    for line in result.stdout.splitlines():
        if line.startswith(name) and label in line:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def lan_only():
    config = "discovery:\n  dht: {enabled: false}\n" + FAST
    for i in range(HOSTS):
        start(i, config, "lan")
    answer = socat(0, SPEC_REGISTER)
    check(answer.startswith("SKILL_REGISTER_ACK:agent-001;SUCCESS;"),
          "the seed's SKILL_REGISTER example, sent with socat, is answered SUCCESS", answer)
    found = wait_for(lambda: skills(2, "capability=org-data-read"), 5)
    check(bool(found) and found[0]["source"] == "lan" and found[0]["agentId"] == "agent-001",
          "a skill registered by UDP text on host 0 is found from host 2 through the LAN stage",
          json.dumps(found))
    answer = socat(2, SPEC_DISCOVER)
    check("SKILL_DISCOVER_RESPONSE:agent-002;skill-org-feishu|0.7.0|192.168.1.100:8080|"
          "org-data-read,user-auth|auth;" in answer,
          "the seed's SKILL_DISCOVER example is answered with the skill, as section 3.2 shows",
          answer)
    socat(0, SPEC_HEARTBEAT, wait_s=0.3)
    socat(1, SPEC_RESPONSE, wait_s=0.3)
    dropped = wait_for(lambda: metric(1, "skillnode_lan_dropped_total", 'reason="not_for_us"'), 3)
    check(dropped >= 1, "a SKILL_DISCOVER_RESPONSE for someone else is counted, not taken")
    garbage = [os.urandom(n).hex() for n in (1, 100, 2000)] + ["SKILL_REGISTER:" + "x;" * 40,
                                                               "\x00\x01;;;:::" * 50]
    for text in garbage:
        socat(1, text, wait_s=0.2)
    check(metric(1, "skillnode_lan_dropped_total", 'reason="malformed"') >= 2
          and lab.curl_json(1, f"{API}/health")[0] == 200,
          "garbage datagrams are counted by reason and the node carries on")
    answer = client(0, "SKILL_UNREGISTER:agent-001;skill-org-feishu;SHUTDOWN;{now};", wait_ms=200)
    gone = wait_for(lambda: not skills(2, "capability=org-data-read"), 2)
    check(gone, "SKILL_UNREGISTER from host 0 removes the skill from host 2's answers at once")
    stop_all()


def zero_configuration():
    config = "discovery:\n" + FAST
    for i in range(HOSTS):
        start(i, config, "dht")
    joined = wait_for(lambda: all((lab.curl_json(i, f"{API}/api/node")[1] or {})
                                  .get("routingTable", {}).get("contacts", 0) >= HOSTS - 1
                                  for i in range(HOSTS)), 30, interval=0.3)
    check(joined, "with no --bootstrap anywhere, every node's routing table holds the others")
    status, body = lab.curl_json(0, f"{API}/api/skills", "POST", {
        "agentId": "agent-007", "skillId": "skill-zero-conf", "version": "1.0.0",
        "skillType": "tool-skill", "endpoint": f"{lab.address(0)}:9000",
        "capabilities": ["zero-conf"], "scenes": []})
    check(status == 201, "a skill registers over HTTP on host 0", f"{status} {body}")
    query = {"capabilities": ["zero-conf"], "fresh": True, "lan": False}

    def through_dht():
        status, body = lab.curl_json(2, f"{API}/api/skills/search", "POST", query)
        return body if status == 200 and body and body.get("skills") else None
    body = wait_for(through_dht, 10, interval=0.3)
    stages = [s["stage"] for s in (body or {}).get("stages", [])]
    check(bool(body) and body["skills"][0]["source"] == "dht" and "lan" not in stages,
          "host 2 finds it through the DHT stage, the LAN stage skipped", json.dumps(body))
    stop_all()


def node_certificate(pki, i, node_id):
    """node<i>.key and node<i>-chain.pem (its leaf, CN = the node id, then the intermediate)."""
    pki.key(f"node{i}")
    pki.issue(f"node{i}", node_id, "inter")
    pki.chain(f"node{i}", "inter")


def required_signatures(directory):
    pki = Pki(os.path.join(directory, "pki"))
    for i in (0, 2):
        data = os.path.join(directory, f"secure{i}")
        node_id = run(["keygen", "--data-dir", data]).stdout.strip()
        node_certificate(pki, i, node_id)
        config = ("discovery:\n  dht: {enabled: false}\n" + FAST +
                  f"security:\n  mode: require\n  trustedRoots: [{pki.path('root.pem')}]\n"
                  f"  certificate: {pki.path(f'node{i}-chain.pem')}\n"
                  f"  privateKey: {pki.path(f'node{i}.key')}\n")
        start(i, config, "secure", data_dir=data)
    register = "SKILL_REGISTER:{agent};skill-secure;1.0.0;tool-skill;10.0.0.1:9000;secure-cap;;{now};"
    good = client(0, register.replace("{agent}", "agent-001"), wait_ms=3000,
                  extra=["--sign", pki.path("agent.key"), "--chain",
                         f"{pki.path('agent.pem')},{pki.path('inter.pem')}", "--until-ack"])
    texts = [d["text"] for d in good]
    check(any(t.startswith("CHALLENGE:agent-001;") for t in texts)
          and texts and texts[-1].startswith("SKILL_REGISTER_ACK:agent-001;SUCCESS;"),
          "require mode: a signed registration is challenged, answered, and accepted", str(texts))
    foreign = client(0, register.replace("{agent}", "agent-002"), wait_ms=3000,
                     extra=["--sign", pki.path("stranger.key"), "--chain",
                            pki.path("stranger.pem"), "--until-ack"])
    texts = [d["text"] for d in foreign]
    check(texts and texts[-1].startswith("SKILL_REGISTER_ACK:agent-002;UNAUTHORIZED;"),
          "require mode: a certificate from a foreign root is answered UNAUTHORIZED", str(texts))
    unsigned = client(0, register.replace("{agent}", "agent-003"), extra=["--until-ack"])
    texts = [d["text"] for d in unsigned]
    check(texts and texts[-1].startswith("SKILL_REGISTER_ACK:agent-003;UNAUTHORIZED;"),
          "require mode: an unsigned registration is answered UNAUTHORIZED", str(texts))
    found = wait_for(lambda: skills(2, "capability=secure-cap"), 5)
    check(bool(found) and found[0]["source"] == "lan",
          "host 2 hears host 0's signed announcements (node certificates)", json.dumps(found))
    check(metric(0, "skillnode_lan_dropped_total", 'reason="unsigned"') >= 1,
          "the unsigned registration is counted")
    stop_all()


def main():
    require_binary()
    require_namespaces(lab.tag)
    for tool in ("socat", "openssl", "curl"):
        if shutil.which(tool) is None:
            check(False, f"{tool} is installed (.ci/install-deps installs it)")
            finish()
    lab.build()
    print(f"made {HOSTS} hosts {lab.subnet}.1-{HOSTS} in namespaces on a bridge", flush=True)
    directory = temp_dir("skillnode-lan-")
    lan_only()
    zero_configuration()
    required_signatures(directory)
    lab.teardown()
    finish()


if __name__ == "__main__":
    main()
