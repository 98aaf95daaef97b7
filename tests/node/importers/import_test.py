#!/usr/bin/env python3
"""[uv] Imports from the agent ecosystem's registries, end to end (docs/formats.md "Importing").

A source site on 127.0.0.1 (Python's http.server, import_source_site.py) publishes what real
sites do:
- an A2A Agent Card at /.well-known/agent-card.json, signed with Ed25519 by the openssl CLI
  (a detached JWS over the RFC 8785 form of the card), its key set at /keys.json (`jku`);
- an MCP Registry at /reg/v0.1/servers: two pages joined by a cursor, two versions of one
  server (the later marked latest), and a server marked deleted;
- an Agent Skills index at /.well-known/agent-skills/index.json: a SKILL.md whose digest is
  right, and one whose index digest is of other bytes;
- an AI Catalog at /.well-known/ai-catalog.json: the card by URL, an MCP server inline, and a
  nested catalog that points back at the first (a cycle);
- two MCPB bundles, for a registry page whose packages give fileSha256 (one bundle tampered).
Node A (import.allowHttp, import.allowedHosts: 127.0.0.1) imports each of them through
`skillnode import` and POST /api/import; node B, joined through A, finds what A imported
through the DHT (the record's origin, the MCP Registry API, the A2A card per agent). The MCP
Registry is imported again after it marks a server deleted: the skill is unpublished. The
imported skills stay registered past the health timeout (the node sends their heartbeats).

Hostile sources, each refused with an error that names the rule: a node with the default policy
(https only; loopback refused); a card of 5 MB; a card whose signature does not verify; a
registry whose cursor loops; a redirect to another host; a server that answers too slowly. A's
earlier imports are untouched by all of them.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/importers/import_test.py
"""
import hashlib
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from skillnode_harness import (Node, check, finish, require_binary, run,  # noqa: E402
                               temp_dir, wait_for)
sys.path.insert(0, os.path.join(HERE, "..", "mcp"))
import mcp_raw  # noqa: E402
sys.path.insert(0, HERE)
from import_source_site import (BROKEN_MD, SKILL_MD, Source, server_entry,  # noqa: E402
                                verify_card)

CONFIG = """
node:
  http: {listen: "127.0.0.1:0"}
discovery:
  healthCheck:
    heartbeatInterval: 500
    timeout: 2000
%s
"""
IMPORT_OPEN = """
import:
  allowHttp: true
  allowedHosts: ["127.0.0.1"]
  fetchTimeout: 2000
"""


def get_bytes(node, path):
    """(status, body bytes, headers with lower-case names) of GET path."""
    try:
        with urllib.request.urlopen(node.url + path, timeout=30) as answer:
            return answer.status, answer.read(), {k.lower(): v for k, v in answer.headers.items()}
    except urllib.error.HTTPError as error:
        return error.code, error.read(), {k.lower(): v for k, v in error.headers.items()}


def import_api(node, body, timeout=60):
    return node.call("POST", "/api/import", body, timeout=timeout)


def imported_ids(report):
    return sorted((s["agentId"], s["skillId"]) for s in report.get("imported", []))


def check_card(a, b, source):
    done = run(["import", source.url + "/", "--type", "a2a", "--http", a.http_address(),
                "--json"], timeout=60)
    report = json.loads(done.stdout) if done.returncode == 0 else {}
    check(done.returncode == 0 and len(report["imported"]) == 2 and not report["errors"],
          "skillnode import SITE --type a2a imports both skills of the signed card",
          done.stdout[-2000:] + done.stderr[-2000:])
    check(report.get("documents") == 2, "the import read the card and its key set (jku)",
          json.dumps(report)[:500])
    if not report.get("imported"):
        return None
    agent, skill = report["imported"][0]["agentId"], report["imported"][0]["skillId"]
    check(skill == "plan-route", "the card's first skill keeps its id", skill)

    def origin_on_b():
        status, answer = b.get_json(f"/api/skills/{skill}")
        for found in (answer or {}).get("providers", []) if status == 200 else []:
            if found.get("agentId") == agent and "origin" in found:
                return found["origin"]
        return None
    origin = wait_for(origin_on_b, 30, 0.2)
    check(origin is not None, "B finds the imported skill through the DHT, with its origin")
    if origin:
        check(origin["format"] == "a2a" and origin["signature"] == "verified" and
              origin["sourceUrl"].endswith("/.well-known/agent-card.json") and
              origin["documentSha256"] == hashlib.sha256(source.card).hexdigest() and
              origin["documentSize"] == len(source.card),
              "the origin names the card's URL, its exact bytes' SHA-256 and size, and the "
              "verified signature", json.dumps(origin))
    check_origin_bytes(b, agent, skill, source)
    status, card = b.get_json(f"/a2a/agents/{urllib.parse.quote(agent, safe='')}/agent-card.json")
    check(status == 200 and sorted(s["name"] for s in card.get("skills", [])) ==
          ["Arrival time", "Plan a route"],
          "B serves an A2A card for the imported agent with both skills",
          f"{status} {json.dumps(card)[:800]}")
    again = run(["import", source.url + "/.well-known/agent-card.json", "--http",
                 a.http_address(), "--json"], timeout=60)
    results = [s["result"] for s in json.loads(again.stdout)["imported"]] \
        if again.returncode == 0 else []
    check(results == ["unchanged", "unchanged"],
          "importing the same card again by its URL (type told by its shape) changes nothing",
          again.stdout[-1000:] + again.stderr[-1000:])
    path = os.path.join(temp_dir("skillnode-import-file-"), "card.json")
    with open(path, "wb") as f:
        f.write(source.card)
    from_file = run(["import", path, "--http", a.http_address()], timeout=60)
    check(from_file.returncode == 0 and "2 imported, 0 failed" in from_file.stdout,
          "skillnode import FILE reads the saved card and imports it (report as lines)",
          from_file.stdout + from_file.stderr)
    check(from_file.stdout.rstrip().endswith(", 2 documents read"),
          "the file import counts the saved card it read, and the key set its jku names",
          from_file.stdout[-1000:])
    return agent


def check_origin_bytes(b, agent, skill, source):
    """B serves the card's exact bytes from the DHT's blob holders, and a reader verifies the
    publisher's signature on them again, with the key from the publisher's own key set."""
    query = urllib.parse.urlencode({"agentId": agent})
    status, body, headers = get_bytes(b, f"/api/skills/{skill}/origin?{query}")
    check(status == 200 and body == source.card and
          headers.get("x-skillnode-origin-format") == "a2a",
          "B serves the imported card's exact bytes at /api/skills/{id}/origin",
          f"{status} {len(body)} bytes {headers}")
    if status != 200:
        return
    keys = json.loads(source.docs["/keys.json"])
    verified, detail = verify_card(body, keys, temp_dir("skillnode-import-verify-"))
    check(verified, "openssl verifies the publisher's signature on those bytes", detail)


def check_mcp_listing(b):
    client = mcp_raw.Http(b)
    status, _, session = client.open()
    headers = {"Mcp-Session-Id": session or "", "MCP-Protocol-Version": "2025-06-18"}
    client.call("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"}, headers)
    status, answer, _ = client.call(
        "POST", mcp_raw.request("tools/call", {"name": "list_skills",
                                               "arguments": {"limit": 50}}, rid=2), headers)
    if isinstance(answer, str):
        answer = (mcp_raw.sse_events(answer) or [None])[-1]
    skills = ((answer or {}).get("result", {}).get("structuredContent", {}) or {}).get(
        "skills", [])
    by_name = {s["name"]: s for s in skills}
    route = by_name.get("Plan a route", {})
    check(route.get("origin", {}).get("format") == "a2a" and
          route["origin"].get("signature") == "verified",
          "MCP list_skills on B shows the imported skill with its origin (a2a, verified)",
          json.dumps(skills)[:1500])
    check("broken" not in json.dumps(skills),
          "... and never the skill whose index digest was wrong")


def check_registry(a, b, source):
    status, report = import_api(a, {"url": source.url + "/reg", "type": "mcp-registry"})
    ids = imported_ids(report or {})
    check(status == 200 and ids == [("com.example", "calc"), ("io.github.alice", "weather")],
          "the MCP Registry's two pages import the two live servers", f"{status} {report}")
    weather = [s for s in (report or {}).get("imported", []) if s["skillId"] == "weather"]
    check(weather and weather[0]["version"] == "1.1.0",
          "of two versions of one server, the one marked latest is imported", str(weather))

    def listed_on_b():
        status, answer = b.get_json("/v0.1/servers")
        return sorted(s["server"]["name"] for s in answer.get("servers", [])) \
            if status == 200 else []
    check(wait_for(lambda: listed_on_b() == ["com.example/calc", "io.github.alice/weather"],
                   30, 0.2),
          "B's MCP Registry API lists the imported servers", str(listed_on_b()))
    source.registry_deleted = True
    status, report = import_api(a, {"url": source.url + "/reg/v0.1/servers"})
    unpublished = [(s["agentId"], s["skillId"]) for s in (report or {}).get("unpublished", [])]
    check(status == 200 and unpublished == [("com.example", "calc")],
          "imported again after the registry marks calc deleted, calc is unpublished "
          "(the registry told by the page's shape)", f"{status} {report}")
    check(wait_for(lambda: listed_on_b() == ["io.github.alice/weather"], 30, 0.2),
          "B no longer lists the deleted server", str(listed_on_b()))


def check_skills_index(a, source):
    status, report = import_api(a, {"url": source.url + "/", "type": "agent-skills"})
    errors = (report or {}).get("errors", [])
    check(status == 200 and [s["skillId"] for s in report["imported"]] == ["pdf-summary"],
          "the Agent Skills index imports the SKILL.md whose digest is right", f"{status} {report}")
    check(len(errors) == 1 and "broken" in errors[0]["entry"] and
          hashlib.sha256(BROKEN_MD).hexdigest() in errors[0]["error"],
          "the entry whose digest is wrong is refused, naming the digest its bytes have",
          json.dumps(errors))
    status, body, _ = a.get("/api/skills/pdf-summary/skill.md")
    check(status == 200 and body.encode() == SKILL_MD,
          "the imported SKILL.md is served byte for byte")


def check_catalog(a, source):
    status, report = import_api(a, {"url": source.url + "/"})
    errors = (report or {}).get("errors", [])
    check(status == 200 and report["type"] == "ai-catalog" and
          ("org.tools", "files") in imported_ids(report) and
          ("plan-route" in [s["skillId"] for s in report["imported"]]),
          "a site without a type is read through its AI Catalog: the card by URL and the MCP "
          "server inline", f"{status} {json.dumps(report)[:1500]}")
    check(any("cycle" in e["error"] for e in errors),
          "the nested catalog that points back is not read again (a cycle)", json.dumps(errors))


def check_hostile(a, source):
    before = a.get_json("/api/node")[1]["imports"]["importedSkills"]
    cases = [
        ({"url": source.url + "/big.json", "type": "a2a"}, "4194304"),
        ({"url": source.url + "/huge.json", "type": "a2a"}, "4194304"),
        ({"url": source.url + "/tampered.json", "type": "a2a"}, "verif"),
        ({"url": source.url + "/redirect.json", "type": "a2a"}, "leaves the host"),
        ({"url": source.url + "/slow.json", "type": "a2a"}, "no complete answer within"),
        ({"url": "http://[::1]:9/card.json", "type": "a2a"}, "loopback"),
    ]
    for body, named in cases:
        status, answer = import_api(a, body)
        message = (answer or {}).get("message", "")
        check(status == 502 and (answer or {}).get("error") == "IMPORT_FAILED" and named in message,
              f"{body['url'].rsplit('/', 1)[-1]}: refused (502 IMPORT_FAILED) naming '{named}'",
              f"{status} {json.dumps(answer)[:600]}")
    status, report = import_api(a, {"url": source.url + "/loop", "type": "mcp-registry"})
    check(status == 200 and ("net.loop", "echo") in imported_ids(report) and
          any("again" in e["error"] or "loop" in e["error"] for e in report["errors"]),
          "a registry whose cursor loops: the pull stops, naming the loop, keeping its entries",
          f"{status} {json.dumps(report)[:800]}")
    status, answer = import_api(a, {"url": source.url + "/", "type": "teapot"})
    check(status == 400 and answer.get("details", {}).get("field") == "type",
          "an unknown type is a 400 naming the field", f"{status} {answer}")
    status, answer = import_api(a, {"document": "{}", "type": "a2a"})
    check(status == 400 and answer.get("details", {}).get("field") == "url",
          "a document without the url it comes from is a 400 naming url", f"{status} {answer}")
    after = a.get_json("/api/node")[1]["imports"]["importedSkills"]
    check(after == before + 1, "the hostile sources took nothing already imported away",
          f"{before} -> {after}")


def check_default_policy(source):
    c = Node("import-c", ["--port", "0"], config=CONFIG % "").start()
    status, answer = import_api(c, {"url": source.url + "/"})
    check(status == 502 and "https" in (answer or {}).get("message", ""),
          "a node with the default policy refuses a plain-http source, naming https",
          f"{status} {answer}")
    status, answer = import_api(c, {"url": f"https://127.0.0.1:{source.port}/"})
    check(status == 502 and "loopback" in (answer or {}).get("message", ""),
          "... and a loopback address no allowedHosts entry names", f"{status} {answer}")
    c.stop()


def check_package_digests(a, source):
    """A registry page (given as a file) with two MCPB servers: one whose bundle hashes to its
    fileSha256, one whose bundle is other bytes. Only the first is imported."""
    bundle = b"MCPB bundle bytes \x00\x01\x02" * 1000
    source.docs["/pkg/good.mcpb"] = bundle
    source.docs["/pkg/bad.mcpb"] = bundle + b"tampered"

    def server(name, path):
        entry = server_entry(name, "1.0.0")
        entry["server"]["packages"] = [
            {"registryType": "mcpb", "identifier": source.url + path, "version": "1.0.0",
             "fileSha256": hashlib.sha256(bundle).hexdigest(),
             "transport": {"type": "stdio"}}]
        return entry
    page = {"servers": [server("org.pkg/good", "/pkg/good.mcpb"),
                        server("org.pkg/bad", "/pkg/bad.mcpb")], "metadata": {"count": 2}}
    status, report = import_api(a, {"document": json.dumps(page), "type": "mcp-registry",
                                    "url": source.url + "/pkgreg/v0.1/servers"})
    check(status == 200 and imported_ids(report) == [("org.pkg", "good")],
          "an MCPB package whose file hashes to its fileSha256 is imported",
          f"{status} {json.dumps(report)[:1500]}")
    errors = report.get("errors", [])
    check(len(errors) == 1 and "org.pkg/bad" in errors[0]["entry"] and
          "packages[0].fileSha256" in errors[0]["error"] and "/pkg/bad.mcpb" in errors[0]["error"]
          and hashlib.sha256(bundle).hexdigest() in errors[0]["error"],
          "one whose file is other bytes is refused, naming the package, the URL and the digest",
          json.dumps(errors)[:1000])


def main():
    require_binary()
    source = Source(temp_dir("skillnode-import-source-"))
    a = Node("import-a", ["--port", "0"], config=CONFIG % IMPORT_OPEN).start()
    b = Node("import-b", ["--port", "0", "--bootstrap", f"127.0.0.1:{a.udp_port()}"],
             config=CONFIG % "").start()
    check(wait_for(lambda: a.contacts() >= 1 and b.contacts() >= 1, 30, 0.1),
          "the two nodes know each other")
    check_card(a, b, source)
    check_registry(a, b, source)
    check_skills_index(a, source)
    check_catalog(a, source)
    check_package_digests(a, source)
    time.sleep(3)  # past the 2 s health timeout: the node's own heartbeats keep them
    status, answer = a.get_json("/api/skills/plan-route")
    check(status == 200 and answer["providers"][0]["status"] == "HEALTHY",
          "imported skills stay registered and HEALTHY past the health timeout",
          f"{status} {json.dumps(answer)[:500]}")
    check_mcp_listing(b)
    check_hostile(a, source)
    check_default_policy(source)
    status, metrics, _ = a.get("/metrics")
    check('skillnode_imported_skills ' in metrics and 'skillnode_imports_total{result="read"}'
          in metrics, "/metrics counts imports and imported skills")
    b.stop()
    a.stop()
    source.server.shutdown()
    finish()


if __name__ == "__main__":
    main()
