#!/usr/bin/env python3
"""[uv] Certified publishers: a network that takes DHT records only from publishers whose
identity certificate chains to its CA (security.requireCertifiedPublishers).

Node A has an identity certificate made from `skillnode csr` and signed by the network's
SkillCenter CA with the openssl CLI; node B has none; node C searches. A's skill is found from
C through the DHT; B's is refused by every holder (counted as "uncertified"). A certificate for
another node's key is refused at start, naming the file.

Run: SKILLNODE=build/release/node/skillnode python3 tests/node/auth/certified_test.py
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import Node, check, finish, require_binary, run, temp_dir, wait_for
from test_pki import Pki


def metric_sum(nodes, name, label):
    total = 0.0
    for node in nodes:
        _, text, _ = node.get("/metrics")
        for line in text.splitlines():
            if line.startswith(name) and label in line:
                total += float(line.rsplit(" ", 1)[1])
    return total


def main():
    require_binary()
    directory = temp_dir("skillnode-certified-")
    pki = Pki(os.path.join(directory, "pki"))
    data = {name: os.path.join(directory, name) for name in ("a", "b", "c")}
    csr_path = os.path.join(directory, "a.csr")
    made = run(["csr", "--data-dir", data["a"], "--out", csr_path])
    check(made.returncode == 0, "skillnode csr writes a certificate request", made.stderr)
    verify = subprocess.run(["openssl", "req", "-in", csr_path, "-noout", "-verify", "-subject"],
                            capture_output=True, text=True)
    check(verify.returncode == 0, "the request's signature verifies with openssl",
          verify.stderr)
    pki.sign_request(csr_path, pki.path("a-identity.pem"))
    config = ("security:\n  requireCertifiedPublishers: true\n"
              f"  trustedRoots: [{pki.path('root.pem')}, {pki.path('inter.pem')}]\n")
    with_cert = config + f"  identityCertificate: {pki.path('a-identity.pem')}\n"

    wrong = Node("wrong", args=["--port", "0", "--http", "127.0.0.1:0"], config=with_cert,
                 data_dir=data["b"] + "-wrong").expect_exit(1)
    try:
        wrong.start(timeout=10)
        started = True
    except RuntimeError as error:
        started = False
        message = str(error)
    check(not started and "security.identityCertificate" in message and "a-identity.pem" in message,
          "a certificate for another node's key is refused at start, naming the file")

    a = Node("a", args=["--port", "0", "--http", "127.0.0.1:0"], config=with_cert,
             data_dir=data["a"]).start()
    check(f"CN = {a.info()['id']}" in verify.stdout,
          "the request names the node: CN = the node id of the identity `run` then uses",
          verify.stdout)
    seed = f"127.0.0.1:{a.udp_port()}"
    b = Node("b", args=["--port", "0", "--http", "127.0.0.1:0", "--bootstrap", seed],
             config=config, data_dir=data["b"]).start()
    c = Node("c", args=["--port", "0", "--http", "127.0.0.1:0", "--bootstrap", seed],
             config=config, data_dir=data["c"]).start()
    nodes = [a, b, c]
    check(wait_for(lambda: all(n.contacts() >= 2 for n in nodes), 20), "the three nodes meet")
    for node, skill in ((a, "skill-certified"), (b, "skill-uncertified")):
        status, body = node.call("POST", "/api/skills", {
            "agentId": "agent-1", "skillId": skill, "version": "1.0.0", "skillType": "tool-skill",
            "endpoint": "127.0.0.1:9000", "capabilities": [skill + "-cap"]})
        check(status == 201, f"{skill} registers on its own node", f"{status} {body}")

    def found(capability):
        status, body = c.call("POST", "/api/skills/search",
                              {"capabilities": [capability], "fresh": True, "lan": False})
        return body["skills"] if status == 200 else []

    certified = wait_for(lambda: found("skill-certified-cap"), 10, interval=0.2)
    check(bool(certified) and certified[0]["source"] == "dht",
          "a certified publisher's skill is found from another node through the DHT")
    refused = wait_for(lambda: metric_sum(nodes, "skillnode_store_requests_total",
                                          'result="uncertified"') > 0, 10, interval=0.2)
    check(refused, "holders refuse the uncertified publisher's STOREs (counted as uncertified)")
    check(not found("skill-uncertified-cap"),
          "an uncertified publisher's skill is not found from another node")
    for node in nodes:
        code, _ = node.stop()
        check(code == 0, f"{node.name} stops cleanly")
    finish()


if __name__ == "__main__":
    main()
