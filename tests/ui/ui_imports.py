"""Imported skills for the web console's tests (tests/ui): skills whose records carry an origin
(kademlia/store/record/record_origin.h), made through POST /api/import as `skillnode import` does.

- an A2A Agent Card that the node fetches from a tiny http.server on 127.0.0.1 (the node runs
  with import.allowHttp and import.allowedHosts: 127.0.0.1): an origin with an http sourceUrl;
- an MCP Registry page given as a document (no fetch): an origin with a registry status and
  dates;
- an A2A card given as a document under the URL javascript:alert(1): the origin's sourceUrl is
  whatever the importer was told, so the console must show it as text, never as a link.
The browser checks are in ui_origin.mjs."""
import http.server
import json
import threading

CONFIG = '\nimport: {allowHttp: true, allowedHosts: ["127.0.0.1"]}\n'
CAPABILITY = "ui-imported"
HOSTILE_URL = "javascript:alert(1)"
REGISTRY_URL = "https://registry.example.org/v0.1/servers"
OFFICIAL = "io.modelcontextprotocol.registry/official"


def card(name, skill_id):
    return {"name": name, "description": f"{name}, imported by the console's test",
            "version": "1.0.0",
            "supportedInterfaces": [{"url": "http://127.0.0.1:9/a2a", "protocolBinding": "JSONRPC",
                                     "protocolVersion": "1.0"}],
            "capabilities": {"streaming": False}, "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["application/json"],
            "skills": [{"id": skill_id, "name": f"{name} skill",
                        "description": "An imported skill.", "tags": [CAPABILITY]}]}


def registry_page():
    server = {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/"
                         "server.schema.json",
              "name": "org.example.ui/weather", "description": "Weather for the console's test",
              "version": "2.1.0",
              "remotes": [{"type": "streamable-http", "url": "http://127.0.0.1:9/mcp"}]}
    meta = {OFFICIAL: {"status": "deprecated", "publishedAt": "2025-09-01T10:00:00Z",
                       "updatedAt": "2025-10-01T10:00:00Z", "isLatest": True}}
    return {"servers": [{"server": server, "_meta": meta}], "metadata": {"count": 1}}


class CardSite:
    """http://127.0.0.1:PORT/.well-known/agent-card.json, the one document it serves."""

    def __init__(self):
        self.body = json.dumps(card("UI Imported Agent", "ui-imported-a2a")).encode()
        body = self.body

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                found = self.path == "/.well-known/agent-card.json"
                self.send_response(200 if found else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body) if found else 0))
                self.end_headers()
                if found:
                    self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = (f"http://127.0.0.1:{self.server.server_address[1]}"
                    "/.well-known/agent-card.json")
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def imported(node, body, what, check):
    """POSTs one import; returns its one imported skill ({agentId, skillId, origin}, the origin
    as GET /api/skills/{id} shows it) or None."""
    status, report = node.call("POST", "/api/import", body, timeout=30)
    done = (report or {}).get("imported", []) if status == 200 else []
    if not check(len(done) == 1 and done[0].get("result") in ("registered", "updated"),
                 f"{what} is imported", f"{status} {report}"):
        return None
    skill = {"agentId": done[0]["agentId"], "skillId": done[0]["skillId"]}
    status, answer = node.get_json(f"/api/skills/{skill['skillId']}")
    providers = (answer or {}).get("providers") or []
    skill["origin"] = next((p.get("origin") for p in providers
                            if p.get("agentId") == skill["agentId"]), None)
    check(status == 200 and isinstance(skill["origin"], dict),
          f"GET /api/skills/{{id}} shows the origin of {what}", f"{status} {answer}")
    return skill


def import_skills(node, check):
    """Imports the three; returns what ui_origin.mjs needs (spec["imports"])."""
    site = CardSite()
    try:
        a2a = imported(node, {"url": site.url, "type": "a2a"}, "an A2A card fetched over http",
                       check)
    finally:
        site.close()
    origin = (a2a or {}).get("origin") or {}
    check(origin.get("sourceUrl") == site.url and origin.get("format") == "a2a" and
          origin.get("documentSize") == len(site.body) and origin.get("signature") == "unsigned",
          "the fetched card's origin names its URL, format, size and no signature", str(origin))
    mcp = imported(node, {"document": json.dumps(registry_page()), "url": REGISTRY_URL,
                          "type": "mcp-registry"}, "an MCP Registry page given as a document",
                   check)
    hostile = imported(node, {"document": json.dumps(card("UI Hostile Origin",
                                                          "ui-hostile-origin")),
                              "url": HOSTILE_URL, "type": "a2a"},
                       f"an A2A card given as a document under {HOSTILE_URL}", check)
    return {"a2a": a2a, "mcp": mcp, "hostile": hostile, "capability": CAPABILITY}
