#!/usr/bin/env python3
"""[uv] Publisher domains, end to end (docs/formats.md "Publisher domains").

A proof site on 127.0.0.1 (Python's http.server) serves each test domain's publisher proof at
/{domain}/.well-known/skillnode-publisher; the nodes fetch proofs there (provider.domainProofUrl
with {domain} in its path, import.allowHttp, import.allowedHosts [127.0.0.1]), since the test
domains (pub.example, shop.example, ...) resolve nowhere.

- A serves its own proof at /.well-known/skillnode-publisher: text/plain, ETag, Cache-Control,
  304 on If-None-Match; it parses by the proof's rules and lists A's key (its SHA-256 is A's
  node id in /api/node).
- A (provider.domains [pub.example]) registers a skill; B, a second process bootstrapped from A,
  shows the claim "verified" once its check ran (GET /api/skills/{id}, POST /api/skills/search,
  MCP list_skills, the agent's A2A card extension, the MCP Registry API's _meta provenance of
  an MCP server A registered), after "checking" or straight away.
- The site's proof for pub.example then lists another key; once B's cached proof expires
  (provider.domainProofTtl 1500 ms) B shows the claim "unverified" with the reason.
- A imports an A2A card given inline as read from https://shop.example/... (whose proof lists
  A's key): the origin names shop.example, verified; one from https://nosite.example/... (no
  proof there): the origin names it, unverified.
- A configuration that claims "localhost" is refused, naming the entry.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/publisher/publisher_domains_test.py
"""
import base64
import hashlib
import http.server
import json
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from skillnode_harness import (Node, check, finish, require_binary, run,  # noqa: E402
                               temp_dir, wait_for)
sys.path.insert(0, os.path.join(HERE, "..", "mcp"))
import mcp_raw  # noqa: E402

PROOF_PATH = "/.well-known/skillnode-publisher"
CONFIG = """
node:
  http: {listen: "127.0.0.1:0"}
provider:
  domains: %s
  domainProofUrl: "http://127.0.0.1:%d/{domain}/.well-known/skillnode-publisher"
  domainProofTtl: 1500
import:
  allowHttp: true
  allowedHosts: ["127.0.0.1"]
  fetchTimeout: 2000
"""
SKILL = {
    "agentId": "pub-agent",
    "skillId": "pub-skill",
    "version": "1.0.0",
    "skillType": "tool-skill",
    "endpoint": "http://127.0.0.1:8080/api",
    "capabilities": ["pub-domain-test"],
    "descriptor": {"name": "Published by pub.example", "description": "A skill whose publisher "
                   "claims pub.example"},
}

MCP_SKILL = dict(SKILL, skillId="pub-mcp", skillType="mcp-server",
                 endpoint="https://mcp.pub.example/mcp")


def card(name):
    return {"name": name, "description": f"{name}, an agent of the domain test",
            "version": "1.0.0",
            "supportedInterfaces": [{"url": "https://agent.example.org/a2a",
                                     "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {}, "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"],
            "skills": [{"id": f"{name.lower()}-skill", "name": f"{name} skill",
                        "description": "Does one thing.", "tags": ["domains"]}]}


class ProofSite:
    """Serves proofs[domain] at /{domain}/.well-known/skillnode-publisher; 404 otherwise."""

    def __init__(self):
        self.proofs = {}
        self.requests = []
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                site.requests.append(self.path)
                domain = self.path.split("/")[1] if self.path.count("/") > 1 else ""
                text = site.proofs.get(domain)
                if text is None or self.path != f"/{domain}{PROOF_PATH}":
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = text.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def read_proof(text):
    """The keys of a publisher proof, by the rules of node/publisher/publisher_proof.h; raises
    ValueError on a line of another form."""
    keys = []
    for number, line in enumerate(text.split("\n"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(";")]
        if len(fields) != 3 or fields[0] != "v=skillnode1" or fields[1] != "k=ed25519" or \
                not fields[2].startswith("p="):
            raise ValueError(f"line {number}: {line!r}")
        key = base64.b64decode(fields[2][2:], validate=True)
        if len(key) != 32:
            raise ValueError(f"line {number}: a key of {len(key)} bytes")
        keys.append(key)
    return keys


def proof_of(key):
    return "# a test proof\nv=skillnode1; k=ed25519; p=" + base64.b64encode(key).decode() + "\n"


def check_own_proof(a):
    status, text, headers = a.get(PROOF_PATH)
    headers = {k.lower(): v for k, v in headers.items()}
    check(status == 200 and headers.get("content-type", "").startswith("text/plain"),
          "A serves its publisher proof as text/plain", f"{status} {headers}")
    check(headers.get("etag", "").startswith('"') and "max-age=" in
          headers.get("cache-control", ""), "... with an ETag and Cache-Control", str(headers))
    try:
        keys = read_proof(text)
    except ValueError as error:
        keys = []
        check(False, "A's proof parses by the proof's rules", str(error))
    node_id = a.info()["id"]
    check(len(keys) == 1 and hashlib.sha256(keys[0]).hexdigest() == node_id,
          "A's proof lists one key, A's (its SHA-256 is A's node id in /api/node)",
          f"{text!r} {node_id}")
    again, _, _ = a.get(PROOF_PATH, headers={"If-None-Match": headers.get("etag", "")})
    check(again == 304, "If-None-Match with the ETag answers 304", str(again))
    return text


def claims_on(node, skill_id):
    """The publisherDomains of A's skill as GET /api/skills/{id} on `node` shows them."""
    status, answer = node.get_json(f"/api/skills/{skill_id}")
    if status != 200:
        return None
    for provider in answer.get("providers", []):
        if provider.get("agentId") == SKILL["agentId"]:
            return provider.get("publisherDomains")
    return None


def state_on(node, skill_id):
    claims = claims_on(node, skill_id) or []
    return claims[0]["state"] if claims else None


def searched_claims(node):
    status, answer = node.call("POST", "/api/skills/search",
                               {"capabilities": ["pub-domain-test"]})
    skills = (answer or {}).get("skills", []) if status == 200 else []
    return skills[0].get("publisherDomains") if skills else None


def mcp_claims(node):
    client = mcp_raw.Http(node)
    _, _, session = client.open()
    headers = {"Mcp-Session-Id": session or "", "MCP-Protocol-Version": "2025-06-18"}
    client.call("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"}, headers)
    _, answer, _ = client.call(
        "POST", mcp_raw.request("tools/call", {"name": "list_skills", "arguments": {
            "capability": "pub-domain-test"}}, rid=2), headers)
    if isinstance(answer, str):
        answer = (mcp_raw.sse_events(answer) or [None])[-1]
    skills = ((answer or {}).get("result", {}).get("structuredContent", {}) or {}).get(
        "skills", [])
    return skills[0].get("publisherDomains") if skills else None


def card_claims(node):
    status, card = node.get_json(f"/a2a/agents/{SKILL['agentId']}/agent-card.json")
    extensions = (card or {}).get("capabilities", {}).get("extensions", []) \
        if status == 200 else []
    return [claim for extension in extensions for claim in
            extension.get("params", {}).get("publisherDomains", [])]


def registry_claims(node):
    status, answer = node.get_json("/v0.1/servers")
    for entry in (answer or {}).get("servers", []) if status == 200 else []:
        provenance = entry.get("_meta", {}).get("invalid.skillnode/provenance", {})
        if provenance.get("skillId") == MCP_SKILL["skillId"]:
            return provenance.get("publisherDomains")
    return None


def check_claims(a, b, site, proof):
    site.proofs["pub.example"] = proof
    status, answer = a.call("POST", "/api/skills", SKILL)
    check(status == 201, "A registers a skill", f"{status} {answer}")
    status, answer = a.call("POST", "/api/skills", MCP_SKILL)
    check(status == 201, "... and an MCP server", f"{status} {answer}")
    first = wait_for(lambda: claims_on(b, SKILL["skillId"]), 30, 0.2)
    check(first is not None and first[0]["domain"] == "pub.example" and
          first[0]["state"] in ("checking", "verified"),
          "B finds A's skill through the DHT with its claim of pub.example (checking or verified)",
          json.dumps(first))
    verified = wait_for(lambda: state_on(b, SKILL["skillId"]) == "verified", 15, 0.2)
    check(verified, "B shows the claim verified once its check of pub.example's proof ran",
          json.dumps(claims_on(b, SKILL["skillId"])))
    check(searched_claims(b) == [{"domain": "pub.example", "state": "verified"}],
          "B's search answer shows it verified too", json.dumps(searched_claims(b)))
    check(mcp_claims(b) == [{"domain": "pub.example", "state": "verified"}],
          "MCP list_skills on B shows pub.example verified", json.dumps(mcp_claims(b)))
    claims = card_claims(b)
    check(len(claims) == 1 and claims[0]["domain"] == "pub.example" and
          claims[0]["state"] == "verified" and claims[0]["publisherNodeId"] == a.info()["id"],
          "B's A2A card of the agent carries the claim, verified, in its extension",
          json.dumps(claims))
    found = wait_for(lambda: registry_claims(b), 15, 0.2)
    check(found == [{"domain": "pub.example", "state": "verified"}],
          "B's MCP Registry API shows it in the entry's _meta provenance", json.dumps(found))
    site.proofs["pub.example"] = proof_of(os.urandom(32))
    unverified = wait_for(lambda: state_on(b, SKILL["skillId"]) == "unverified", 20, 0.2)
    claims = claims_on(b, SKILL["skillId"]) or [{}]
    check(unverified and "does not list" in claims[0].get("reason", ""),
          "once the proof lists another key and B's cached one expired, B shows the claim "
          "unverified, saying why", json.dumps(claims))


def origin_of(node, skill_id):
    status, answer = node.get_json(f"/api/skills/{skill_id}")
    return (answer or {}).get("origin") if status == 200 else None


def import_card(a, url, name):
    """A imports card(name), given inline as read from `url`: (status, report, the origin of
    the card's skill on A or {})."""
    status, report = a.call("POST", "/api/import", {
        "url": url, "type": "a2a", "document": json.dumps(card(name))}, timeout=30)
    return status, report, origin_of(a, f"{name.lower()}-skill") or {}


def check_domain_import(a, domain, name, state, what):
    """A imports card(name) as read from https://{domain}/...: its origin names the domain in
    `state`."""
    status, report, origin = import_card(a, f"https://{domain}/.well-known/agent-card.json", name)
    check(status == 200 and len(report.get("imported", [])) == 1,
          f"A imports a card read from {domain}", f"{status} {json.dumps(report)[:600]}")
    check(origin.get("publisherDomain") == domain and origin.get("publisherDomainState") == state,
          what, json.dumps(origin))


def check_imports(a, site, proof):
    site.proofs["shop.example"] = proof
    check_domain_import(a, "shop.example", "Shop", "verified",
                        "shop.example's proof lists A's key: the origin names it, verified")
    check_domain_import(a, "nosite.example", "Nosite", "unverified",
                        "nosite.example serves no proof: the origin names it, unverified")
    status, _, origin = import_card(a, "file:card.json", "Filed")
    check(status == 200 and "publisherDomain" not in origin,
          "a card read from a file has no domain to prove", json.dumps(origin))


def check_bad_config(site):
    path = os.path.join(temp_dir("skillnode-domains-config-"), "bad.yaml")
    with open(path, "w") as f:
        f.write(CONFIG % ('[pub.example, "localhost"]', site.port))
    done = run(["run", "--check-config", path])
    check(done.returncode == 2 and "provider.domains[1]" in done.stderr and
          "localhost" in done.stderr, "a configuration claiming localhost is refused, naming it",
          f"{done.returncode} {done.stderr[-600:]}")


def main():
    require_binary()
    site = ProofSite()
    check_bad_config(site)
    a = Node("domains-a", ["--port", "0"], config=CONFIG % ("[pub.example]", site.port)).start()
    b = Node("domains-b", ["--port", "0", "--bootstrap", f"127.0.0.1:{a.udp_port()}"],
             config=CONFIG % ("[]", site.port)).start()
    check(wait_for(lambda: a.contacts() >= 1 and b.contacts() >= 1, 30, 0.1),
          "the two nodes know each other")
    proof = check_own_proof(a)
    check_claims(a, b, site, proof)
    check_imports(a, site, proof)
    status, metrics, _ = b.get("/metrics")
    check('skillnode_publisher_domain_checks_total{result="verified"}' in metrics and
          "skillnode_publisher_domain_proof_fetches_total" in metrics,
          "B's /metrics counts its domain checks and proof fetches")
    status, info = b.get_json("/api/node")
    check(status == 200 and info.get("publisherDomains", {}).get("available") is True,
          "B's /api/node shows its domain verifier", json.dumps(info)[:300])
    b.stop()
    a.stop()
    site.server.shutdown()
    finish()


if __name__ == "__main__":
    main()
