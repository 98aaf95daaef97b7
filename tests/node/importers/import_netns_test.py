#!/usr/bin/env python3
"""[netns] The import round trip of issue 46 through real hosts: three hosts in network
namespaces on one bridge.

Host S runs the source site (import_source_site.py, on S's address): a signed A2A card, an MCP
Registry with cursors and a deleted server, an Agent Skills index with one corrupt digest, an
AI Catalog with a cycle. Node A (import.allowHttp, import.allowedHosts: the lab's subnet)
imports all four, with `skillnode import` and POST /api/import. Node C, on a third host, joined
through A, never talks to S: through its own API (curl inside C's namespace) it
1. serves the imported agent's A2A card with both skills, signed by C: the signature verifies
   with C's /.well-known/jwks.json (openssl), and the key is C's own;
2. lists the live MCP servers at /v0.1/servers, not the deleted one, each as the registry
   published it;
3. lists pdf-summary and not the corrupt entry at /.well-known/agent-skills/index.json, and the
   SKILL.md it points at hashes to the listed digest (its bytes come from A over the DHT);
4. has AI Catalog entries for the imported servers and skill and their agents, the card's agent
   included (gathered under SHA256("format:a2a-agent"): docs/formats.md "Which agents");
5. serves at /api/skills/{id}/origin the exact bytes S served (the card, the SKILL.md), and the
   publisher's signature verifies on the card's bytes with S's key set (openssl);
6. lists the imported skills through MCP list_skills with their origins, never "broken".
Every node's API listens on 127.0.0.1 inside its namespace; the site listens on S's address.

Skipped (exit 77) with the reason when not root or when namespaces cannot be made.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/importers/import_netns_test.py
(`--mcp-list-skills HOST:PORT` is this script's own helper: run inside C's namespace, it prints
the skills MCP list_skills answers there as JSON.)
"""
import hashlib
import json
import os
import subprocess
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from netns_lab import Lab, LabNodes  # noqa: E402
from skillnode_harness import Node, run, temp_dir, track, wait_for  # noqa: E402
sys.path.insert(0, os.path.join(HERE, "..", "mcp"))
import mcp_raw  # noqa: E402
sys.path.insert(0, HERE)
from import_source_site import SKILL_MD, b64url_decode, server_entry, verify_card  # noqa: E402

HOSTS = 3
S, A, C = range(HOSTS)
NAMES = "SAC"
PORT = 6881
HTTP_PORT = 7070
API = f"http://127.0.0.1:{HTTP_PORT}"
SITE = os.path.join(HERE, "import_source_site.py")
LIVE_SERVERS = ["com.example/calc", "io.github.alice/weather", "org.tools/files"]
CARD_SKILLS = ["Arrival time", "Plan a route"]
PROPAGATION_S = 30
LOG_TAIL_LINES = 60

lab = Lab("sni", HOSTS, 215)
lab_nodes = LabNodes(lab, LOG_TAIL_LINES)
nodes, expect = lab_nodes.nodes, lab_nodes.expect


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def fetch(i, path, method="GET", body=None, max_time=30):
    """(status, body bytes, headers with lower-case names) of a request to host i's own node,
    made with curl inside host i."""
    return lab.fetch(i, API + path, method, body, max_time)


def fetch_json(i, path, method="GET", body=None, max_time=30):
    status, answer, _ = fetch(i, path, method, body, max_time)
    try:
        return status, json.loads(answer) if answer else None
    except (ValueError, UnicodeDecodeError):
        return status, None


def imported_ids(report):
    return sorted((s["agentId"], s["skillId"]) for s in (report or {}).get("imported", []))


def start_site(out):
    """Runs the source site inside S; returns its URL (on S's address)."""
    log = open(os.path.join(out, "site.log"), "w")
    proc = track(subprocess.Popen(
        lab.prefix_of(S) + [sys.executable, SITE, "--bind", lab.address(S), "--port", "0",
                            "--out", out], stdout=subprocess.PIPE, stderr=log, text=True))
    url = proc.stdout.readline().strip()
    expect(url.startswith(f"http://{lab.address(S)}:"),
           f"the source site serves inside S at {url or '(nothing)'}",
           open(os.path.join(out, "site.log")).read()[-1500:])
    return proc, url


def start_nodes():
    import_config = ("import:\n  allowHttp: true\n"
                     f"  allowedHosts: [\"{lab.subnet}.0/24\"]\n")
    for i in (A, C):
        args = ["--port", str(PORT), "--http", f"127.0.0.1:{HTTP_PORT}"]
        if i != A:
            args += ["--bootstrap", f"{lab.address(A)}:{PORT}"]
        node = Node(f"import-{NAMES[i]}", args=args, config=import_config if i == A else "",
                    prefix=lab.prefix_of(i), data_dir=temp_dir(f"skillnode-import-{NAMES[i]}-"))
        node.start()
        nodes.append(node)
    joined = wait_for(lambda: all((fetch_json(i, "/api/node")[1] or {})
                                  .get("routingTable", {}).get("contacts", 0) >= 1
                                  for i in (A, C)), PROPAGATION_S, interval=0.3)
    expect(joined, "A and C know each other (C joined through A)")


def import_all(url):
    """A imports the four documents of the site; returns the imported agent's id."""
    done = run(["import", url + "/", "--type", "a2a", "--http", f"127.0.0.1:{HTTP_PORT}",
                "--json"], timeout=60, prefix=lab.prefix_of(A))
    report = json.loads(done.stdout) if done.returncode == 0 else {}
    expect(done.returncode == 0 and [s["skillId"] for s in report.get("imported", [])] ==
           ["plan-route", "eta"] and not report.get("errors"),
           "A: skillnode import SITE --type a2a imports both skills of the signed card from S",
           done.stdout[-2000:] + done.stderr[-2000:])
    agent = report["imported"][0]["agentId"] if report.get("imported") else None

    status, report = fetch_json(A, "/api/import", "POST", {"url": url + "/reg",
                                                           "type": "mcp-registry"})
    expect(status == 200 and imported_ids(report) == [("com.example", "calc"),
                                                      ("io.github.alice", "weather")],
           "A: the MCP Registry's two pages import the two live servers", f"{status} {report}")

    status, report = fetch_json(A, "/api/import", "POST", {"url": url + "/",
                                                           "type": "agent-skills"})
    errors = (report or {}).get("errors", [])
    expect(status == 200 and [s["skillId"] for s in report["imported"]] == ["pdf-summary"] and
           len(errors) == 1 and "broken" in errors[0]["entry"],
           "A: the Agent Skills index imports pdf-summary and refuses the corrupt entry",
           f"{status} {json.dumps(report)[:1500]}")

    status, report = fetch_json(A, "/api/import", "POST", {"url": url + "/"})
    expect(status == 200 and report["type"] == "ai-catalog" and
           ("org.tools", "files") in imported_ids(report) and
           any("cycle" in e["error"] for e in report.get("errors", [])),
           "A: the AI Catalog imports its inline MCP server and stops at the cycle",
           f"{status} {json.dumps(report)[:1500]}")
    return agent


def check_card(agent):
    """Step 1: C's card for the imported agent, signed with C's key."""
    path = f"/a2a/agents/{urllib.parse.quote(agent, safe='')}/agent-card.json"

    def card_on_c():
        status, body, _ = fetch(C, path)
        card = json.loads(body) if status == 200 else {}
        return body if sorted(s["name"] for s in card.get("skills", [])) == CARD_SKILLS else None
    body = wait_for(card_on_c, PROPAGATION_S, interval=0.3)
    expect(body is not None, f"C serves {agent}'s A2A card with both skills ({CARD_SKILLS})",
           repr(fetch(C, path)[1][:800]))
    if body is None:
        return
    status, jwks = fetch_json(C, "/.well-known/jwks.json")
    verified, detail = verify_card(body, jwks or {}, temp_dir("skillnode-import-verify-"))
    expect(status == 200 and verified,
           "the card's signature verifies with C's /.well-known/jwks.json (openssl)", detail)
    keys = (jwks or {}).get("keys", [{}])
    node_id = (fetch_json(C, "/api/node")[1] or {}).get("id", "")
    expect(len(keys) == 1 and sha256(b64url_decode(keys[0].get("x", ""))) == node_id,
           "... and the key is C's own (its SHA-256 is C's node id)", f"{keys} {node_id}")


def check_registry():
    """Step 2: C's MCP Registry API lists the live servers, not the deleted one."""
    def listed():
        status, answer = fetch_json(C, "/v0.1/servers")
        return {s["server"]["name"]: s["server"] for s in (answer or {}).get("servers", [])} \
            if status == 200 else {}
    found = wait_for(lambda: sorted(listed()) == LIVE_SERVERS and listed(), PROPAGATION_S,
                     interval=0.3)
    expect(bool(found), f"C's /v0.1/servers lists {LIVE_SERVERS}, not org.old/gone (deleted)",
           str(sorted(listed())))
    for name, version in (("io.github.alice/weather", "1.1.0"), ("org.tools/files", "0.9.0")):
        published = server_entry(name, version)["server"]
        served = (found or {}).get(name, {})
        expect(all(served.get(k) == published[k] for k in ("name", "version", "description",
                                                          "remotes")),
               f"C's entry for {name} is the version and remotes the source published",
               json.dumps(served))


def check_skills_index():
    """Step 3: C's Agent Skills index has pdf-summary, whose SKILL.md hashes to its digest."""
    def entries():
        status, index = fetch_json(C, "/.well-known/agent-skills/index.json")
        return {e["name"]: e for e in (index or {}).get("skills", [])} if status == 200 else {}
    listed = wait_for(lambda: "pdf-summary" in entries() and entries(), PROPAGATION_S,
                      interval=0.3)
    expect(bool(listed) and "broken" not in listed,
           "C's Agent Skills index lists pdf-summary and not the corrupt entry",
           str(sorted(listed or entries())))
    entry = (listed or {}).get("pdf-summary", {})
    if not entry:
        return
    where = urllib.parse.urlsplit(entry["url"])
    status, body, headers = fetch(C, where.path + ("?" + where.query if where.query else ""))
    expect(status == 200 and entry["digest"] == "sha256:" + sha256(body) and body == SKILL_MD,
           "the SKILL.md C's index points at hashes to the listed digest and is the source's "
           f"bytes (source {headers.get('x-skillnode-source')})",
           f"{entry} status {status}, {len(body)} bytes, sha256 {sha256(body)}")


def catalog_identifiers(i):
    status, catalog = fetch_json(i, "/.well-known/ai-catalog.json")
    return {urllib.parse.unquote(e.get("identifier", ""))
            for e in (catalog or {}).get("entries", [])} if status == 200 else set()


def check_catalog(agent):
    """Step 4: C's AI Catalog has entries for the servers, the skill and their agents, the
    imported card's agent included: its skills are listed network-wide under the a2a-agent
    format key (docs/formats.md "AI Catalog", "Which agents")."""
    site = lab.address(S)
    wanted = {"urn:skillnode:mcp:com.example:calc", "urn:skillnode:mcp:io.github.alice:weather",
              "urn:skillnode:mcp:org.tools:files", f"urn:skillnode:skill:{site}:pdf-summary",
              "urn:skillnode:a2a:com.example", "urn:skillnode:a2a:io.github.alice",
              "urn:skillnode:a2a:org.tools", f"urn:skillnode:a2a:{site}",
              f"urn:skillnode:a2a:{agent}"}
    expect(wait_for(lambda: wanted <= catalog_identifiers(C), PROPAGATION_S, interval=0.3),
           "C's AI Catalog has entries for the three imported servers, the imported skill, "
           "their agents and the imported card's agent", f"missing {sorted(wanted - catalog_identifiers(C))} of "
           f"{sorted(catalog_identifiers(C))}")
    expect(not any("broken" in i or "org.old" in i for i in catalog_identifiers(C)),
           "... and none for the corrupt skill or the deleted server",
           str(sorted(catalog_identifiers(C))))


def check_origins(agent, out):
    """Step 5: C serves the exact bytes S served; the publisher's signature verifies on them."""
    with open(os.path.join(out, "card.json"), "rb") as f:
        card = f.read()
    with open(os.path.join(out, "keys.json"), "rb") as f:
        keys = json.loads(f.read())
    query = urllib.parse.urlencode({"agentId": agent})
    status, body, headers = fetch(C, f"/api/skills/plan-route/origin?{query}")
    expect(status == 200 and sha256(body) == sha256(card) and
           headers.get("x-skillnode-origin-format") == "a2a",
           "C serves at /api/skills/plan-route/origin the card's exact bytes as S served them "
           f"(SHA-256 {sha256(card)[:16]}...)", f"status {status}, {len(body)} bytes, {headers}")
    verified, detail = verify_card(body, keys, temp_dir("skillnode-import-verify-"))
    expect(status == 200 and verified,
           "openssl verifies the publisher's signature on those bytes with S's key set", detail)
    query = urllib.parse.urlencode({"agentId": lab.address(S)})
    status, body, headers = fetch(C, f"/api/skills/pdf-summary/origin?{query}")
    expect(status == 200 and body == SKILL_MD and
           headers.get("x-skillnode-origin-format") == "agent-skills",
           "C serves at /api/skills/pdf-summary/origin the SKILL.md's exact bytes",
           f"status {status}, {len(body)} bytes, {headers}")


def check_mcp_listing():
    """Step 6: MCP list_skills on C shows the imported skills with their origins."""
    done = lab.run(C, sys.executable, os.path.abspath(__file__), "--mcp-list-skills",
                   f"127.0.0.1:{HTTP_PORT}")
    try:
        skills = json.loads(done.stdout)
    except ValueError:
        skills = []
    by_name = {s.get("name"): s for s in skills}
    formats = {name: (by_name.get(name, {}).get("origin") or {}) for name in
               ("Plan a route", "Arrival time", "pdf-summary")}
    expect(formats["Plan a route"].get("format") == "a2a" and
           formats["Plan a route"].get("signature") == "verified" and
           formats["Arrival time"].get("format") == "a2a" and
           formats["pdf-summary"].get("format") == "agent-skills",
           "MCP list_skills on C shows the card's skills (a2a, verified) and pdf-summary "
           "(agent-skills) with their origins", (done.stdout + done.stderr)[:1500])
    expect(skills and "broken" not in done.stdout,
           "... and never the skill whose index digest was wrong")


def mcp_list_skills(address):
    """The skills MCP list_skills answers at address (HOST:PORT), as mcp_raw's client asks."""
    class Where:
        def http_address(self):
            return address
    client = mcp_raw.Http(Where())
    _, _, session = client.open()
    headers = {"Mcp-Session-Id": session or "", "MCP-Protocol-Version": "2025-06-18"}
    client.call("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"}, headers)
    _, answer, _ = client.call(
        "POST", mcp_raw.request("tools/call", {"name": "list_skills",
                                               "arguments": {"limit": 50}}, rid=2), headers)
    if isinstance(answer, str):
        answer = (mcp_raw.sse_events(answer) or [None])[-1]
    return ((answer or {}).get("result", {}).get("structuredContent", {}) or {}).get(
        "skills", [])


def stop_all(site):
    lab_nodes.stop_nodes()
    site.terminate()
    site.wait(timeout=10)


def main():
    if sys.argv[1:2] == ["--mcp-list-skills"]:
        print(json.dumps(mcp_list_skills(sys.argv[2])))
        return
    lab_nodes.build_for_nodes(tools=("curl",))
    print(f"made {HOSTS} hosts {lab.subnet}.1-{HOSTS} (S, A, C) in namespaces on a bridge",
          flush=True)
    out = temp_dir("skillnode-import-site-")
    site, url = start_site(out)
    start_nodes()
    agent = import_all(url) if url else None
    if agent:
        check_card(agent)
        check_registry()
        check_skills_index()
        check_catalog(agent)
        check_origins(agent, out)
        check_mcp_listing()
    stop_all(site)
    lab_nodes.finish()


if __name__ == "__main__":
    main()
