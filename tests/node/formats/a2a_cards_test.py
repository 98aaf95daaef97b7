#!/usr/bin/env python3
"""[uv] A2A Agent Cards (docs/formats.md "A2A Agent Cards") read by real A2A clients.

Two skillnode processes on 127.0.0.1: A, the bootstrap node, and B, which joins through it.
Agent alpha registers two public skills and a private one with A and a third skill with B;
agent beta registers one skill with B only; agent ghost has only a private skill, on A. Then
(tests/node/formats/a2a-npm/a2a_client.mjs, the npm packages pinned by its lock file):
  1. @a2a-js/sdk 1.3.0's DefaultAgentCardResolver reads A's own card, beta's card from A (beta
     lives on B only: the card comes through the DHT), alpha's card from B (its skills from
     both nodes), and the same with a bearer token (then the private skills are there);
  2. every card's signature verifies independently (the node's JWKS, `canonicalize` of the card
     without `signatures`, jose.flattenedVerify with the detached payload) and with the SDK's
     verifyAgentCardSignature, and a forged copy fails both; each JWKS kid is the key's RFC 7638
     thumbprint, and the key is the node's identity (its SHA-256 is the node id);
  3. ajv validates every card against the A2A v1.0.0 AgentCard schema in a2a-npm/;
then, with urllib: ETag and Cache-Control (provider.cardMaxAge) on every card and the JWKS,
If-None-Match answered 304, a new registration changing the ETag, /.well-known/agent.json the
same bytes as agent-card.json, no private skill in any anonymous answer, 404 for an unknown
agent and for one with only private skills, 400 for an over-long agentId or one that is not
UTF-8, 401 for a bad token.
The npm packages are installed with `npm ci` into $A2A_NPM_DIR (meson sets it inside the build
directory; default: the a2a-npm folder), never into git.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/formats/a2a_cards_test.py
"""
import base64
import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # the harness
from skillnode_harness import (Node, check, finish, npm_install, require_binary, run,  # noqa: E402
                               temp_dir, wait_for)

NPM_SOURCE = os.path.join(HERE, "a2a-npm")
NPM_FILES = ["package.json", "package-lock.json", "a2a_client.mjs", "agent_card.schema.json"]
MAX_AGE_S = 120
PRIVATE_ID = "alpha-vault-5c1"  # must never appear in an anonymous answer
A2A_BINDINGS = {"JSONRPC", "GRPC", "HTTP+JSON"}
MCP_BINDING = ("https://modelcontextprotocol.io/specification/2025-11-25/basic/transports"
               "#streamable-http")


def skill(agent, skill_id, version, access="public", endpoint=None, **descriptor):
    return {"agentId": agent, "skillId": skill_id, "version": version, "skillType": "tool",
            "endpoint": endpoint or f"http://127.0.0.1:9/{agent}/{skill_id}",
            "capabilities": ["a2a-test"],
            "descriptor": {"name": skill_id.replace("-", " ").title(),
                           "description": f"The {skill_id} skill of {agent}.", "access": access,
                           **descriptor}}


ON_A = [skill("alpha", "upper", "1.2.0", tags=["text", "case"], examples=["HELLO WORLD"]),
        skill("alpha", "lower", "1.4.0", tags=["text"]),
        skill("alpha", PRIVATE_ID, "3.0.0", access="private"),
        skill("ghost", "hidden", "1.0.0", access="private")]
ON_B = [skill("alpha", "reverse", "2.1.0", endpoint="http://127.0.0.1:9/alpha-b"),
        skill("beta", "count", "0.3.0", tags=["numbers"], examples=["count to 3"])]


def bearer(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


def npm_ready():
    work = os.path.abspath(os.environ.get("A2A_NPM_DIR") or NPM_SOURCE)
    return npm_install(NPM_SOURCE, work, NPM_FILES, "the pinned A2A clients"), work


def read_with_clients(node_bin, work, jobs):
    """Runs a2a_client.mjs on `jobs`; returns its results, in order."""
    jobs_path = os.path.join(temp_dir("skillnode-a2a-jobs-"), "jobs.json")
    with open(jobs_path, "w") as f:
        json.dump(jobs, f)
    done = subprocess.run([node_bin, os.path.join(work, "a2a_client.mjs"), jobs_path],
                          capture_output=True, text=True, timeout=120)
    if not check(done.returncode == 0, "the A2A clients ran", done.stderr[-2000:]):
        return [None] * len(jobs)
    return [json.loads(line) for line in done.stdout.splitlines()]


def register(node, body):
    status, answer = node.call("POST", "/api/skills", body)
    check(status == 201, f"{body['agentId']}'s skill {body['skillId']} registers on {node.name}",
          f"{status} {answer}")


def start_cluster(config):
    a = Node("a", ["--port", "0"], config=config).start()
    b = Node("b", ["--port", "0", "--bootstrap", f"127.0.0.1:{a.udp_port()}"],
             config=config).start()
    check(wait_for(lambda: a.contacts() >= 1 and b.contacts() >= 1, 30, 0.1),
          "A and B know each other")
    for body in ON_A:
        register(a, body)
    for body in ON_B:
        register(b, body)
    return a, b


def skill_ids(card):
    return sorted(s["id"] for s in (card or {}).get("skills", []))


def card_found(node, agent, wanted, token=None):
    """True once `node` serves agent's card with every index id of `wanted`."""
    status, body, _ = node.get(f"/a2a/agents/{agent}/agent-card.json", headers=bearer(token))
    return status == 200 and set(wanted) <= set(skill_ids(json.loads(body)))


def check_client_result(result, what, node, expected_ids):
    if not check(result is not None and result.get("resolved"),
                 f"{what}: @a2a-js/sdk's resolver reads it", json.dumps(result)[:600]):
        return
    card = result["card"]
    check(skill_ids(card) == sorted(expected_ids), f"{what}: its skills are {expected_ids}",
          str(skill_ids(card)))
    check(result["independent"]["ok"],
          f"{what}: the signature verifies with jose + canonicalize (detached payload)",
          json.dumps(result["independent"]))
    check(result["sdk"]["ok"], f"{what}: the SDK's verifyAgentCardSignature accepts it",
          json.dumps(result["sdk"]))
    check(not result["forgedIndependent"] and not result["forgedSdk"],
          f"{what}: a copy with another name fails both verifications")
    check(result["schemaErrors"] == [], f"{what}: ajv finds it valid against A2A v1.0.0",
          json.dumps(result["schemaErrors"])[:800])
    headers = result["independent"].get("value") or [{}]
    jwks_url = node.url + "/.well-known/jwks.json"
    check(all(h.get("alg") == "EdDSA" and h.get("typ") == "JOSE" and h.get("jku") == jwks_url
              for h in headers),
          f"{what}: its protected header is alg EdDSA, typ JOSE, jku the node's JWKS",
          json.dumps(headers))
    keys = result["jwks"]["keys"]
    node_id = node.info()["id"]
    check(result["kidsAreThumbprints"] and len(keys) == 1 and
          headers[0].get("kid") == keys[0]["kid"] and
          hashlib.sha256(b64url_decode(keys[0]["x"])).hexdigest() == node_id,
          f"{what}: kid is the RFC 7638 thumbprint of the node's own Ed25519 key",
          json.dumps(keys))
    bindings = {i["protocolBinding"] for i in card["supportedInterfaces"]}
    check(not bindings & A2A_BINDINGS and MCP_BINDING in bindings and
          {"url": node.url + "/mcp", "protocolBinding": MCP_BINDING, "protocolVersion": "1.0"}
          in card["supportedInterfaces"],
          f"{what}: its interfaces name the node's /mcp and claim no A2A binding",
          json.dumps(card["supportedInterfaces"]))


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_cards_with_clients(a, b, token, node_bin, work):
    alpha_all = ["alpha.upper-v1", "alpha.lower-v1", "alpha.reverse-v2"]
    beta = ["beta.count-v0"]
    check(wait_for(lambda: card_found(a, "beta", beta), 15, 0.2),
          "A serves beta's card although beta registered with B only")
    for node in (a, b):
        check(wait_for(lambda n=node: card_found(n, "alpha", alpha_all), 15, 0.2),
              f"{node.name.upper()} serves alpha's card with the skills alpha registered with A "
              "and with B")
    cases = [
        ("A's own card", a, None, None, ["alpha.upper-v1", "alpha.lower-v1"]),
        ("A's own card with a token", a, None, token,
         ["alpha.upper-v1", "alpha.lower-v1", f"alpha.{PRIVATE_ID}-v3", "ghost.hidden-v1"]),
        ("beta's card from A (registered on B)", a, "/a2a/agents/beta/agent-card.json", None,
         beta),
        ("alpha's card from B", b, "/a2a/agents/alpha/agent-card.json", None, alpha_all),
        ("alpha's card from A with a token", a, "/a2a/agents/alpha/agent-card.json", token,
         alpha_all + [f"alpha.{PRIVATE_ID}-v3"]),
        ("B's own card", b, None, None, ["alpha.reverse-v2", "beta.count-v0"]),
    ]
    jobs = [{"base": node.url, "path": path, "token": tok} for _, node, path, tok, _ in cases]
    for (what, node, path, tok, ids), result in zip(cases,
                                                     read_with_clients(node_bin, work, jobs)):
        check_client_result(result, what, node, ids)
        if result and result.get("resolved") and path == "/a2a/agents/alpha/agent-card.json":
            card = result["card"]
            version = "3.0.0" if tok else "2.1.0"  # the private skill is 3.0.0
            check(card["name"] == "alpha" and card["version"] == version,
                  f"{what}: named by the agent id, its version the highest of its records",
                  f"{card['name']} {card['version']}")
            check("http://127.0.0.1:9/alpha-b" in
                  [i["url"] for i in card["supportedInterfaces"]],
                  f"{what}: B's record endpoint is an interface (skillnode invocation)",
                  json.dumps(card["supportedInterfaces"]))


def header(headers, name):
    return next((v for k, v in headers.items() if k.lower() == name.lower()), None)


def check_caching(a):
    for path in ["/.well-known/agent-card.json", "/a2a/agents/alpha/agent-card.json",
                 "/.well-known/jwks.json"]:
        status, body, headers = a.get(path)
        etag = header(headers, "ETag")
        expected = '"' + hashlib.sha256(body.encode()).hexdigest() + '"'
        check(status == 200 and etag == expected,
              f"{path}: a strong ETag, the SHA-256 of the body", f"{status} {etag}")
        check(header(headers, "Cache-Control") == f"public, max-age={MAX_AGE_S}",
              f"{path}: Cache-Control max-age is provider.cardMaxAge",
              str(header(headers, "Cache-Control")))
        status, body, again = a.get(path, headers={"If-None-Match": etag})
        check(status == 304 and body == "" and header(again, "ETag") == etag,
              f"{path}: If-None-Match with its ETag is answered 304", f"{status} {body[:100]}")
        status, _, _ = a.get(path, headers={"If-None-Match": '"something-else"'})
        check(status == 200, f"{path}: another ETag is answered 200", str(status))
    _, legacy, _ = a.get("/.well-known/agent.json")
    _, current, _ = a.get("/.well-known/agent-card.json")
    check(legacy == current and legacy, "/.well-known/agent.json serves the same bytes")
    _, _, before = a.get("/.well-known/agent-card.json")
    register(a, skill("alpha", "title", "1.0.0"))
    status, body, after = a.get("/.well-known/agent-card.json",
                                headers={"If-None-Match": header(before, "ETag")})
    check(status == 200 and "alpha.title-v1" in body and
          header(after, "ETag") != header(before, "ETag"),
          "a new registration changes the card and its ETag: the old one is answered 200",
          f"{status}")
    status, jwks, jwks_headers = a.get("/.well-known/jwks.json")
    check(header(jwks_headers, "Content-Type") == "application/jwk-set+json" and
          set(json.loads(jwks)["keys"][0]) == {"kty", "crv", "x", "kid", "alg", "use"},
          "the JWKS is application/jwk-set+json with only public members",
          f"{header(jwks_headers, 'Content-Type')} {jwks}")


def check_access_and_errors(a, b, token):
    for node in (a, b):
        for path in ["/.well-known/agent-card.json", "/a2a/agents/alpha/agent-card.json"]:
            status, body, _ = node.get(path)
            check(status == 200 and PRIVATE_ID not in body and "ghost" not in body,
                  f"{node.name} {path} without a token shows no private skill", body[:300])
    status, body, headers = a.get("/a2a/agents/alpha/agent-card.json", headers=bearer(token))
    check(status == 200 and PRIVATE_ID in body and
          header(headers, "Cache-Control") == f"private, max-age={MAX_AGE_S}",
          "with a token the card holds the private skill and is Cache-Control: private",
          f"{status} {header(headers, 'Cache-Control')}")
    for what, node, path in [("an unknown agent", b, "/a2a/agents/nobody/agent-card.json"),
                             ("an agent with only private skills, without a token", a,
                              "/a2a/agents/ghost/agent-card.json")]:
        status, answer = node.get_json(path)
        check(status == 404 and answer == {"error": "DISC_002",
                                           "message": f"no agent {path.split('/')[3]} is known",
                                           "details": {"agentId": path.split("/")[3]}},
              f"{what} is 404 DISC_002 in the API's error shape", f"{status} {answer}")
    status, _ = a.get_json("/a2a/agents/ghost/agent-card.json", headers=bearer(token))
    check(status == 200, "with a token the private-only agent's card is served", str(status))
    status, answer = a.get_json("/a2a/agents/" + "x" * 129 + "/agent-card.json")
    check(status == 400 and answer["details"] == {"field": "agentId"},
          "an agentId over 128 characters is 400 naming the field", f"{status} {answer}")
    status, answer = a.get_json("/a2a/agents/%C0%AF/agent-card.json")
    check(status == 400 and answer["message"] == "agentId: not UTF-8",
          "an agentId that is not UTF-8 is 400 naming the field", f"{status} {answer}")
    status, answer = a.get_json("/.well-known/agent-card.json", headers=bearer("skn_wrong"))
    check(status == 401, "a bad token is answered 401", f"{status} {answer}")


def main():
    require_binary()
    node_bin, work = npm_ready()
    tokens_file = os.path.join(temp_dir("skillnode-tokens-"), "tokens")
    config = f"""
node:
  http: {{listen: "127.0.0.1:0"}}
  auth: {{tokensFile: "{tokens_file}"}}
provider: {{cardMaxAge: {MAX_AGE_S * 1000}}}
"""
    a, b = start_cluster(config)
    added = run(["token", "add", "a2a", "--config", a.config_path])
    token = added.stdout.strip()
    check(added.returncode == 0 and token.startswith("skn_"), "a token is made", added.stderr)
    check_cards_with_clients(a, b, token, node_bin, work)
    check_caching(a)
    check_access_and_errors(a, b, token)
    finish()


if __name__ == "__main__":
    main()
