#!/usr/bin/env python3
"""[uv] The MCP Registry read API, the Agent Skills index and the AI Catalog over a two-node
network on 127.0.0.1 (docs/formats.md).

Node A is the bootstrap node; B joins through it. MCP servers (skillType mcp-server) and
SKILL.md folders (tests/fixtures/skills, uploaded as tars) register with A; B lists them through
all three formats, found through the DHT:

- the MCP Registry API through a client written here from the registry's OpenAPI (no npm client
  of the registry API could be installed: `mcp-registry-spec-sdk` is not on the npm registry),
  paging with limit=2 to the end with its cursors; every ServerList, ServerResponse and
  server.json is validated by ajv against the schemas in schemas/ and the node's own
  server.json schema, discovery/schema/mcp-server.schema.json (2025-12-11),
  and every publisher signature in the provenance is verified with node's Ed25519; versions,
  latest, 404s, the 400 for a bad cursor, search, version=latest, updated_since and
  include_deleted after one server is unregistered, and the 501 for publish;
- the Agent Skills index (validated against its draft's schema), whose every SKILL.md is
  downloaded from B and hashed against its digest and the fixture file; CORS, Cache-Control,
  HEAD;
- the AI Catalog (validated), an entry per agent, MCP server and skill with type and
  mediaType, each MCP entry's server.json fetched and validated, each skill's bytes hashed;
  and the Link header on GET /.
A private MCP server shows on A with a token, never on B.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/formats/formats_test.py
"""
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from skillnode_harness import (Node, check, finish, npm_install, require_binary,  # noqa: E402
                               run, temp_dir, wait_for)

FIXTURES = os.path.join(HERE, "..", "..", "fixtures", "skills")
SKILL_FOLDERS = ["bom-utf8", "cjk-emoji", "crlf-endings", "scripts-references"]
NPM_DIR = os.path.join(HERE, "ajv")
NPM_FILES = ["package.json", "package-lock.json", "validate.mjs"]
SCHEMAS = os.path.join(HERE, "schemas")
# server.json's schema is the node's own (discovery/schema), the one copy in the tree; the
# ServerList schema in SCHEMAS refers to it by its $id.
SERVER_SCHEMA_FILE = os.path.join(HERE, "..", "..", "..", "discovery", "schema",
                                  "mcp-server.schema.json")
SERVER_SCHEMA = os.path.basename(SERVER_SCHEMA_FILE)
CONFIG = """
node:
  http: {listen: "127.0.0.1:0"}%s
discovery:
  healthCheck:
    heartbeatInterval: 60000
    timeout: 600000
"""
SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
OFFICIAL = "io.modelcontextprotocol.registry/official"
PROVENANCE = "invalid.skillnode/provenance"
LONG = ("Weather forecasts for any city on Earth, hourly and daily, with alerts, radar tiles and "
        "air quality, over MCP")
# (agentId, skillId, version, endpoint, description); the server name is agentId/skillId.
SERVERS = [
    ("com.example", "weather", "1.4.0", "https://wx.example.com/mcp", LONG),
    ("io.github.alice", "notes", "0.3.1", "http://127.0.0.1:9/notes", "Notes kept in Markdown"),
    ("org.tools", "calc", "2.0.0", "127.0.0.1:9", "A calculator"),
    ("org.tools", "files", "1.0.0-beta.2", "https://files.example.org/mcp", "Files on a share"),
    ("net.search", "web-search", "3.1.0", "https://search.example.net/mcp", "Web search"),
]
NAMES = sorted(f"{agent}/{skill}" for agent, skill, *_ in SERVERS)


def server_body(agent, skill, version, endpoint, description, access=None):
    body = {"agentId": agent, "skillId": skill, "version": version, "skillType": "mcp-server",
            "endpoint": endpoint, "capabilities": ["mcp-" + skill],
            "descriptor": {"name": skill.title(), "description": description, "tags": ["mcp"]}}
    if access:
        body["access"] = access
    return body


def folder_tar(folder):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for root, _, names in os.walk(folder):
            for name in sorted(names):
                path = os.path.join(root, name)
                tar.add(path, arcname=os.path.relpath(path, folder))
    return buffer.getvalue()


def raw(node, path, method="GET", headers=None):
    """(status, body bytes, headers with lower-case names) of one request."""
    request = urllib.request.Request(node.url + path, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read(), {k.lower(): v for k, v in answer.headers.items()}
    except urllib.error.HTTPError as error:
        return error.code, error.read(), {k.lower(): v for k, v in error.headers.items()}


def raw_url(url):
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status, answer.read()


class RegistryClient:
    """A client of the MCP Registry's read API, written from its OpenAPI description
    (modelcontextprotocol/registry docs/reference/api/openapi.yaml, info.version 2025-12-01):
    GET /v0.1/servers with cursor, limit, search, updated_since, version and include_deleted;
    GET /v0.1/servers/{serverName}/versions[/{version}], the name and version URL-encoded."""

    def __init__(self, base_url, headers=None):
        self.base = base_url.rstrip("/") + "/v0.1"
        self.headers = headers or {}

    def _get(self, path, params=None):
        query = urllib.parse.urlencode({k: v for k, v in (params or {}).items()
                                        if v is not None})
        url = self.base + path + ("?" + query if query else "")
        request = urllib.request.Request(url, headers=self.headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def list_servers(self, cursor=None, limit=None, search=None, updated_since=None,
                     version=None, include_deleted=None):
        return self._get("/servers", {"cursor": cursor, "limit": limit, "search": search,
                                      "updated_since": updated_since, "version": version,
                                      "include_deleted": include_deleted})

    def all_servers(self, **params):
        """Every page, following metadata.nextCursor verbatim; (pages, servers)."""
        pages, cursor = [], None
        while True:
            status, page = self.list_servers(cursor=cursor, **params)
            if status != 200:
                raise RuntimeError(f"list answered {status}: {page}")
            pages.append(page)
            cursor = (page.get("metadata") or {}).get("nextCursor")
            if not cursor or len(pages) > 50:
                return pages, [s for p in pages for s in p["servers"]]

    def versions(self, name, include_deleted=None):
        return self._get("/servers/" + urllib.parse.quote(name, safe="") + "/versions",
                         {"include_deleted": include_deleted})

    def version(self, name, version):
        return self._get("/servers/" + urllib.parse.quote(name, safe="") + "/versions/" +
                         urllib.parse.quote(version, safe=""))


class Validator:
    """Collects documents and signatures, then checks them all in one run of validate.mjs."""

    def __init__(self, node_bin, work):
        self.node_bin, self.work = node_bin, work
        self.documents, self.signatures = [], []

    def document(self, name, schema, document, valid=True):
        """`valid`=False: a document the schema must refuse (the check can fail)."""
        self.documents.append({"name": name, "schema": schema, "document": document,
                               "valid": valid})

    def refusals(self, sample_server, sample_index, sample_catalog):
        """Documents each schema must refuse, made from good ones."""
        bad_name = dict(sample_server, name="bad_ns/tool")
        long_description = dict(sample_server, description="x" * 101)
        self.document("a server name with '_' in its namespace", SERVER_SCHEMA,
                      bad_name, False)
        self.document("a 101-character description", SERVER_SCHEMA, long_description,
                      False)
        self.document("a ServerResponse with an unknown official key", "server-list.schema.json",
                      {"servers": [{"server": sample_server,
                                    "_meta": {OFFICIAL: {"status": "active", "extra": 1}}}]},
                      False)
        skills = [dict(sample_index["skills"][0], digest="sha256:XYZ")]
        self.document("an index entry with a bad digest", "agent-skills-index.schema.json",
                      dict(sample_index, skills=skills), False)
        entry = dict(sample_catalog["entries"][0], data={})
        self.document("a catalog entry with both url and data", "ai-catalog.schema.json",
                      dict(sample_catalog, entries=[entry]), False)

    def provenance(self, name, response):
        meta = (response.get("_meta") or {}).get(PROVENANCE) or {}
        self.signatures.append({"name": name, "publicKeyHex": meta.get("publisherKey", ""),
                                "signatureHex": meta.get("signature", ""),
                                "signedBase64": meta.get("signedRecord", "")})

    def run(self):
        path = os.path.join(temp_dir("skillnode-formats-"), "input.json")
        with open(path, "w") as f:
            json.dump({"documents": self.documents, "signatures": self.signatures}, f)
        command = [self.node_bin, os.path.join(self.work, "validate.mjs"), SCHEMAS, path,
                   SERVER_SCHEMA_FILE]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              cwd=self.work)
        results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        complete = done.returncode == 0 and len(results) == len(self.documents) + len(
            self.signatures)
        check(complete, "validate.mjs checked every document and signature", done.stderr[-2000:])
        expected = [d["valid"] for d in self.documents] + [True] * len(self.signatures)
        bad = [r for r, want in zip(results, expected) if r["ok"] != want]
        check(complete and not bad,
              f"ajv validates {len(self.documents)} documents against their schemas (refusing "
              f"the {expected.count(False)} made bad) and node verifies "
              f"{len(self.signatures)} Ed25519 signatures", json.dumps(bad)[:3000])


def start_cluster():
    tokens = os.path.join(temp_dir("skillnode-tokens-"), "tokens")
    a = Node("a", ["--port", "0"], config=CONFIG % f'\n  auth: {{tokensFile: "{tokens}"}}').start()
    b = Node("b", ["--port", "0", "--bootstrap", f"127.0.0.1:{a.udp_port()}"],
             config=CONFIG % "").start()
    check(wait_for(lambda: a.contacts() >= 1 and b.contacts() >= 1, 30, 0.1),
          "the two nodes know each other")
    return a, b


def register(a):
    for agent, skill, version, endpoint, description in SERVERS:
        status, answer = a.call("POST", "/api/skills",
                                server_body(agent, skill, version, endpoint, description))
        check(status == 201, f"A registers the MCP server {agent}/{skill}", f"{status} {answer}")
    # Not listed: a namespace the registry's name pattern refuses, and a private server.
    status, _ = a.call("POST", "/api/skills",
                       server_body("bad_ns", "tool", "1.0.0", "https://x.example/mcp", "Hidden"))
    check(status == 201, "A registers an MCP server whose name the registry could not hold")
    status, _ = a.call("POST", "/api/skills",
                       server_body("com.example", "secret", "1.0.0", "https://s.example/mcp",
                                   "Private", access="private"))
    check(status == 201, "A registers a private MCP server")
    for name in SKILL_FOLDERS:
        query = urllib.parse.urlencode({"agentId": "org.skills", "version": "1.0.0",
                                        "skillType": "tool-skill",
                                        "endpoint": "http://127.0.0.1:9/skill",
                                        "capabilities": "formats-test"})
        request = urllib.request.Request(a.url + "/api/skills/folder?" + query,
                                         data=folder_tar(os.path.join(FIXTURES, name)),
                                         method="POST",
                                         headers={"Content-Type": "application/x-tar"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status = answer.status
        except urllib.error.HTTPError as error:
            status = error.code
        check(status == 201, f"A registers the SKILL.md folder {name}", str(status))


def check_registry(b, validator):
    client = RegistryClient(b.url)
    listed = wait_for(lambda: sorted(s["server"]["name"] for s in client.all_servers()[1])
                      == NAMES, 30, 0.2)
    check(listed, "B lists every MCP server A registered, and only those, through the DHT",
          str(sorted(s["server"]["name"] for s in client.all_servers()[1])))
    pages, servers = client.all_servers(limit=2)
    check(len(pages) == 3 and [p["metadata"]["count"] for p in pages] == [2, 2, 1] and
          "nextCursor" not in pages[-1]["metadata"],
          "limit=2 walks 3 pages with cursors, the last without nextCursor",
          json.dumps([p["metadata"] for p in pages]))
    check([s["server"]["name"] for s in servers] == NAMES,
          "the pages hold every server once, in name order")
    for i, page in enumerate(pages):
        validator.document(f"B's ServerList page {i + 1}", "server-list.schema.json", page)
    by_name = {s["server"]["name"]: s for s in servers}
    for name, response in by_name.items():
        validator.document(f"B's server.json of {name}", SERVER_SCHEMA,
                           response["server"])
        validator.provenance(f"the publisher signature of {name}", response)
    weather = by_name["com.example/weather"]
    check(weather["server"]["$schema"] == SCHEMA_URL and
          len(weather["server"]["description"]) == 100 and
          weather["server"]["description"].endswith("…") and
          weather["server"]["remotes"] == [{"type": "streamable-http",
                                            "url": "https://wx.example.com/mcp"}] and
          weather["server"]["title"] == "Weather",
          "a server.json has the schema URL, a description cut to 100 characters, the title "
          "and a streamable-http remote", json.dumps(weather["server"]))
    check("remotes" not in by_name["org.tools/calc"]["server"],
          "a host:port endpoint gives no remote")
    official = weather["_meta"][OFFICIAL]
    provenance = weather["_meta"][PROVENANCE]
    check(official["status"] == "active" and official["isLatest"] is True and
          official["publishedAt"].endswith("Z") and provenance["source"] == "dht",
          "the registry's metadata says active and latest; B found it in the DHT",
          json.dumps(weather["_meta"]))
    status, versions = client.versions("com.example/weather")
    check(status == 200 and [s["server"]["version"] for s in versions["servers"]] == ["1.4.0"],
          "GET .../servers/com.example%2Fweather/versions lists its version", f"{status}")
    status, latest = client.version("com.example/weather", "latest")
    status2, exact = client.version("com.example/weather", "1.4.0")
    check(status == 200 and status2 == 200 and latest == exact and
          latest["server"] == weather["server"],
          "versions/latest and versions/1.4.0 answer the same ServerResponse")
    validator.document("B's ServerResponse of versions/latest", "server-list.schema.json",
                       {"servers": [latest]})
    status, missing = client.versions("com.example/none")
    status2, _ = client.version("com.example/weather", "9.9.9")
    check(status == 404 and status2 == 404 and missing["error"] == "NOT_FOUND",
          "an unknown server or version is a 404", f"{status} {status2} {missing}")
    status, bad = client.list_servers(cursor="not-a-cursor")
    check(status == 400 and bad["details"]["field"] == "cursor",
          "a cursor B did not give out is a 400 naming cursor", f"{status} {bad}")
    status, found = client.list_servers(search="FORECAST")
    check(status == 200 and [s["server"]["name"] for s in found["servers"]] ==
          ["com.example/weather"], "search matches the description, case-insensitively")
    status, found = client.list_servers(search="org.tools", version="latest")
    check(status == 200 and [s["server"]["name"] for s in found["servers"]] ==
          ["org.tools/calc", "org.tools/files"], "search by name with version=latest")
    status, answer = b.call("POST", "/v0.1/publish", {"name": "x/y"})
    check(status == 501 and answer["details"]["route"] == "POST /api/skills",
          "POST /v0.1/publish is a 501 naming POST /api/skills", f"{status} {answer}")
    return by_name


def check_deleted(a, b, by_name, validator):
    client = RegistryClient(b.url)
    notes = by_name["io.github.alice/notes"]
    since = notes["_meta"][OFFICIAL]["updatedAt"]
    status, answer = a.call("DELETE", "/api/skills/notes?agentId=io.github.alice&reason=SHUTDOWN")
    check(status == 200, "A unregisters io.github.alice/notes", f"{status} {answer}")
    gone = wait_for(lambda: "io.github.alice/notes" not in
                    [s["server"]["name"] for s in client.all_servers()[1]], 30, 0.2)
    check(gone, "B no longer lists the unregistered server")
    _, deleted = client.all_servers(include_deleted="true")
    entry = [s for s in deleted if s["server"]["name"] == "io.github.alice/notes"]
    check(len(entry) == 1 and entry[0]["_meta"][OFFICIAL]["status"] == "deleted" and
          entry[0]["_meta"][OFFICIAL]["isLatest"] is False,
          "include_deleted=true lists it as deleted", json.dumps(entry)[:500])
    status, changed = client.list_servers(updated_since=since)
    names = [s["server"]["name"] for s in changed.get("servers", [])]
    check(status == 200 and "io.github.alice/notes" in names,
          "updated_since lists the deleted server without include_deleted", f"{status} {names}")
    if entry:
        validator.document("B's deleted ServerResponse", "server-list.schema.json",
                           {"servers": entry})
        validator.provenance("the tombstone's publisher signature", entry[0])


def check_private(a, b):
    added = run(["token", "add", "formats-test", "--config", a.config_path])
    token = added.stdout.strip()
    check(added.returncode == 0 and token.startswith("skn_"), "a token is made for A",
          added.stderr)
    client_a = RegistryClient(a.url, {"Authorization": f"Bearer {token}"})
    _, with_token = client_a.all_servers()
    _, on_b = RegistryClient(b.url).all_servers()
    check(any(s["server"]["name"] == "com.example/secret" for s in with_token) and
          not any(s["server"]["name"] == "com.example/secret" for s in on_b),
          "the private server is listed by A with a token, never by B")


def check_index(b, validator):
    expected = {}
    for name in SKILL_FOLDERS:
        with open(os.path.join(FIXTURES, name, "SKILL.md"), "rb") as f:
            expected[name] = f.read()
    index = wait_for(lambda: (lambda s, body, h: json.loads(body) if s == 200 and
                              len(json.loads(body)["skills"]) == len(SKILL_FOLDERS) else None)(
        *raw(b, "/.well-known/agent-skills/index.json")), 30, 0.2)
    check(bool(index), "B's Agent Skills index lists every SKILL.md folder A registered")
    if not index:
        return None
    validator.document("B's Agent Skills index", "agent-skills-index.schema.json", index)
    status, _, headers = raw(b, "/.well-known/agent-skills/index.json")
    check(headers.get("access-control-allow-origin") == "*" and
          headers.get("cache-control") == "public, max-age=60" and
          headers.get("content-type") == "application/json",
          "the index is application/json with CORS and Cache-Control", str(headers))
    status, body, head_headers = raw(b, "/.well-known/agent-skills/index.json", "HEAD")
    check(status == 200 and body == b"", "HEAD on the index answers 200 without a body")
    for entry in index["skills"]:
        name = entry["name"]
        status, data = raw_url(entry["url"])
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        check(status == 200 and entry["type"] == "skill-md" and digest == entry["digest"] and
              data == expected.get(name),
              f"{name}: B serves the exact SKILL.md bytes its digest names "
              f"({len(data)} bytes, {entry['digest'][:19]}...)", f"{status} {digest}")
    return index


def check_catalog(b, validator):
    status, body, headers = raw(b, "/.well-known/ai-catalog.json")
    catalog = json.loads(body) if status == 200 else {}
    check(status == 200 and headers.get("content-type") == "application/ai-catalog+json",
          "B serves its AI Catalog as application/ai-catalog+json", f"{status} {headers}")
    validator.document("B's AI Catalog", "ai-catalog.schema.json", catalog)
    entries = catalog.get("entries", [])
    by_type = {}
    for entry in entries:
        by_type.setdefault(entry["type"], []).append(entry)
    check(all(e["type"] == e["mediaType"] for e in entries) and catalog["specVersion"] == "1.0"
          and catalog["host"]["identifier"].startswith("did:key:z6Mk"),
          "every entry carries type and mediaType; the host is the node's did:key")
    mcp = by_type.get("application/mcp-server+json", [])
    check(sorted(e["identifier"] for e in mcp) ==
          sorted("urn:skillnode:mcp:" + n.replace("/", ":") for n in NAMES
                 if n != "io.github.alice/notes"),
          "one catalog entry per live MCP server", json.dumps(mcp)[:600])
    for entry in mcp:
        status, data = raw_url(entry["url"])
        validator.document(f"the server.json at {entry['url']}", SERVER_SCHEMA,
                           json.loads(data))
    skills = by_type.get("application/agent-skills+md", [])
    check(len(skills) == len(SKILL_FOLDERS), "one catalog entry per Agent Skill")
    for entry in skills:
        status, data = raw_url(entry["url"])
        digest = entry["extensions"]["invalid.skillnode.provenance"]["digest"]
        check(status == 200 and "sha256:" + hashlib.sha256(data).hexdigest() == digest,
              f"the catalog's {entry['identifier']} points at bytes with its digest")
    cards = by_type.get("application/a2a-agent-card+json", [])
    agents = {e["identifier"] for e in cards}
    check({"urn:skillnode:a2a:com.example", "urn:skillnode:a2a:org.skills"} <= agents and
          any(e["url"].endswith("/.well-known/agent-card.json") for e in cards),
          "an agent card entry per agent, and the node's own card", str(sorted(agents)))
    status, _, headers = raw(b, "/")
    check(status == 200 and headers.get("link", "").startswith(
        '</.well-known/ai-catalog.json>; rel="ai-catalog"'),
        "GET / carries Link: </.well-known/ai-catalog.json>; rel=\"ai-catalog\"", str(headers))
    return catalog


def main():
    require_binary()
    work = os.path.abspath(os.environ.get("FORMATS_NPM_DIR") or NPM_DIR)
    node_bin = npm_install(NPM_DIR, work, NPM_FILES, "ajv and ajv-formats")
    validator = Validator(node_bin, work)
    a, b = start_cluster()
    register(a)
    by_name = check_registry(b, validator)
    check_private(a, b)
    index = check_index(b, validator)
    check_deleted(a, b, by_name, validator)
    catalog = check_catalog(b, validator)
    if index and catalog and "com.example/weather" in by_name:
        validator.refusals(by_name["com.example/weather"]["server"], index, catalog)
    validator.run()
    finish()


if __name__ == "__main__":
    main()
