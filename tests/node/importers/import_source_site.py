#!/usr/bin/env python3
"""The source site the import tests read: what sites of the agent ecosystem publish, served by
Python's http.server (import_test.py on 127.0.0.1, import_netns_test.py in a namespace).

- an A2A Agent Card at /.well-known/agent-card.json, signed with Ed25519 by the openssl CLI (a
  detached JWS over the RFC 8785 form of the card), its key set at /keys.json (`jku`);
- an MCP Registry at /reg/v0.1/servers: two pages joined by a cursor, two versions of one
  server (the later marked latest), and a server marked deleted (and, once `registry_deleted`
  is set, a second one);
- an Agent Skills index at /.well-known/agent-skills/index.json: a SKILL.md whose digest is
  right, and one whose index digest is of other bytes;
- an AI Catalog at /.well-known/ai-catalog.json: the card by URL, an MCP server inline, and a
  nested catalog that points back at the first (a cycle);
- hostile routes: a 5 MB card, a 100 MB one, a tampered card, a redirect to another host, a
  slow answer, a registry whose cursor loops.
verify_card() checks a card's signature the way any reader can, with the openssl CLI.

Run as a program it serves until killed:
  python3 import_source_site.py --bind ADDR --port 0 [--out DIR]
prints the site's URL (http://ADDR:PORT) on stdout, and with --out writes the card's exact
bytes (card.json) and its key set (keys.json) to DIR, for a test that cannot reach the site
(the signing key is kept there too; without --out, in a temporary directory).
"""
import argparse
import base64
import hashlib
import http.server
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

SKILL_MD = ("---\nname: pdf-summary\ndescription: Summarise a PDF into five bullet points.\n---\n"
            "# PDF summary\n\nRead the PDF, then write five bullets.\n").encode()
BROKEN_MD = ("---\nname: broken\ndescription: Its index digest is of other bytes.\n---\n"
             "# Broken\n").encode()
OFFICIAL = "io.modelcontextprotocol.registry/official"
HUGE_BYTES = 100 * 1024 * 1024
# The Ed25519 SubjectPublicKeyInfo prefix (RFC 8410): DER of a public key is it + the 32 bytes.
ED25519_SPKI_PREFIX = bytes.fromhex("302a300506032b6570032100")


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jcs(value):
    # RFC 8785 for what these documents hold (strings, integers, booleans, arrays, objects).
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


class Signer:
    """An Ed25519 key made and used through the openssl CLI."""

    def __init__(self, work):
        self.key = os.path.join(work, "key.pem")
        subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", self.key],
                       check=True, capture_output=True)
        der = subprocess.run(["openssl", "pkey", "-in", self.key, "-pubout", "-outform", "DER"],
                             check=True, capture_output=True).stdout
        self.public = der[-32:]
        self.work = work

    def jwks(self):
        return {"keys": [{"kty": "OKP", "crv": "Ed25519", "x": b64url(self.public), "kid": "k1",
                          "alg": "EdDSA", "use": "sig"}]}

    def sign(self, data):
        path = os.path.join(self.work, "input")
        with open(path, "wb") as f:
            f.write(data)
        return subprocess.run(["openssl", "pkeyutl", "-sign", "-inkey", self.key, "-rawin",
                               "-in", path], check=True, capture_output=True).stdout

    def signed_card(self, card, jku):
        protected = b64url(jcs({"alg": "EdDSA", "kid": "k1", "typ": "JOSE", "jku": jku}))
        payload = b64url(jcs(card))
        signature = self.sign(f"{protected}.{payload}".encode())
        return dict(card, signatures=[{"protected": protected, "signature": b64url(signature)}])


def verify_card(body, jwks, work):
    """(True, "") when the first of the card's signatures[] verifies, with the openssl CLI, as a
    detached JWS over the RFC 8785 form of the card without `signatures`, with the key of `jwks`
    its `kid` names; else (False, why). `work` is a directory for openssl's files."""
    card = json.loads(body)
    signatures = card.pop("signatures", None) or [{}]
    signature = signatures[0]
    try:
        header = json.loads(b64url_decode(signature["protected"]))
        raw = b64url_decode(signature["signature"])
    except (KeyError, ValueError) as error:
        return False, f"no readable signature: {error}"
    keys = [k for k in jwks.get("keys", []) if k.get("kid") == header.get("kid")]
    if not keys:
        return False, f"no key {header.get('kid')!r} in the key set {json.dumps(jwks)[:300]}"
    paths = {name: os.path.join(work, name) for name in ("input", "sig", "pub.pem")}
    with open(paths["input"], "wb") as f:
        f.write(f"{signature['protected']}.{b64url(jcs(card))}".encode())
    with open(paths["sig"], "wb") as f:
        f.write(raw)
    der = ED25519_SPKI_PREFIX + b64url_decode(keys[0]["x"])
    with open(paths["pub.pem"], "wb") as f:
        f.write(b"-----BEGIN PUBLIC KEY-----\n" + base64.b64encode(der) +
                b"\n-----END PUBLIC KEY-----\n")
    verified = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey",
                               paths["pub.pem"], "-rawin", "-in", paths["input"], "-sigfile",
                               paths["sig"]], capture_output=True, text=True)
    return verified.returncode == 0, verified.stdout + verified.stderr


def card_of(name, skills):
    return {"name": name, "description": f"{name}, an agent of the import test",
            "version": "1.2.0",
            "supportedInterfaces": [{"url": "https://agent.example.org/a2a",
                                     "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {"streaming": False}, "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["application/json"], "skills": skills}


SKILLS = [
    {"id": "plan-route", "name": "Plan a route", "description": "Plans a route by road.",
     "tags": ["routing", "maps"], "examples": ["from Lyon to Turin"]},
    {"id": "eta", "name": "Arrival time", "description": "Estimates an arrival time.",
     "tags": ["routing"]},
]


def server_entry(name, version, status="active", latest=True, url="https://wx.example.com/mcp"):
    return {"server": {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/"
                                  "server.schema.json",
                       "name": name, "description": f"The {name} server", "version": version,
                       "remotes": [{"type": "streamable-http", "url": url}]},
            "_meta": {OFFICIAL: {"status": status, "publishedAt": "2025-09-01T10:00:00Z",
                                 "updatedAt": "2025-10-01T10:00:00Z", "isLatest": latest}}}


class Source:
    """The source site: fixed documents by path, MCP Registry pages by cursor, and a few
    hostile routes. Serves on `bind`:`port` (0: any free port) from a daemon thread."""

    def __init__(self, work, bind="127.0.0.1", port=0):
        self.signer = Signer(work)
        self.docs = {}
        self.registry_deleted = False
        self.requests = []
        source = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                source.requests.append(self.path)
                parsed = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qs(parsed.query)
                if parsed.path == "/slow.json":
                    time.sleep(4)
                if parsed.path == "/huge.json":  # 100 MB, streamed until the node hangs up
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(HUGE_BYTES))
                    self.end_headers()
                    chunk = b" " * (1024 * 1024)
                    for _ in range(HUGE_BYTES // len(chunk)):
                        self.wfile.write(chunk)
                    return
                if parsed.path == "/redirect.json":
                    self.send_response(302)
                    self.send_header("Location",
                                     f"http://localhost:{source.port}/.well-known/agent-card.json")
                    self.end_headers()
                    return
                if parsed.path in ("/reg/v0.1/servers", "/loop/v0.1/servers"):
                    body = source.registry_page(parsed.path, query.get("cursor", [""])[0])
                    return self.answer(200, "application/json", json.dumps(body).encode())
                if parsed.path in source.docs:
                    return self.answer(200, "application/json", source.docs[parsed.path])
                self.answer(404, "text/plain", b"not found")

            def answer(self, status, kind, body):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        class Server(http.server.ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                # The node hangs up on a document past its size or time bound: expected here.
                if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                    super().handle_error(request, client_address)

        self.server = Server((bind, port), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://{bind}:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.publish()

    def publish(self):
        url = self.url
        card = self.signer.signed_card(card_of("Route Planner", SKILLS), url + "/keys.json")
        self.card = json.dumps(card).encode()
        tampered = json.loads(self.card)
        tampered["skills"][0]["description"] = "Plans a route by sea."
        self.docs = {
            "/.well-known/agent-card.json": self.card,
            "/keys.json": json.dumps(self.signer.jwks()).encode(),
            "/tampered.json": json.dumps(tampered).encode(),
            "/big.json": b'{"name": "' + b"x" * (5 * 1024 * 1024) + b'"}',
            "/slow.json": self.card,
            "/skills/pdf-summary/SKILL.md": SKILL_MD,
            "/skills/broken/SKILL.md": BROKEN_MD,
            "/.well-known/agent-skills/index.json": json.dumps({
                "$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
                "skills": [
                    {"name": "pdf-summary", "type": "skill-md",
                     "description": "Summarise a PDF", "url": "/skills/pdf-summary/SKILL.md",
                     "digest": "sha256:" + hashlib.sha256(SKILL_MD).hexdigest()},
                    {"name": "broken", "type": "skill-md", "description": "Corrupt digest",
                     "url": "/skills/broken/SKILL.md",
                     "digest": "sha256:" + hashlib.sha256(b"other bytes").hexdigest()},
                ]}).encode(),
            "/.well-known/ai-catalog.json": json.dumps({
                "specVersion": "1.0",
                "entries": [
                    {"identifier": "urn:test:card", "type": "application/a2a-agent-card+json",
                     "url": "/.well-known/agent-card.json"},
                    {"identifier": "urn:test:files",
                     "type": "application/mcp-server+json",
                     "data": server_entry("org.tools/files", "0.9.0")["server"]},
                    {"identifier": "urn:test:nested", "type": "application/ai-catalog+json",
                     "url": "/nested.json"},
                ]}).encode(),
            "/nested.json": json.dumps({
                "specVersion": "1.0",
                "entries": [{"identifier": "urn:test:back", "type": "application/ai-catalog+json",
                             "url": "/.well-known/ai-catalog.json"}]}).encode(),
        }

    def registry_page(self, path, cursor):
        if path.startswith("/loop"):  # every page points at the same next page
            return {"servers": [server_entry("net.loop/echo", "1.0.0")],
                    "metadata": {"count": 1, "nextCursor": "again"}}
        if cursor == "":
            return {"servers": [server_entry("io.github.alice/weather", "1.0.0", latest=False),
                                server_entry("io.github.alice/weather", "1.1.0")],
                    "metadata": {"count": 2, "nextCursor": "page-2"}}
        calc_status = "deleted" if self.registry_deleted else "active"
        return {"servers": [server_entry("com.example/calc", "2.0.0", status=calc_status,
                                         url="https://calc.example.com/mcp"),
                            server_entry("org.old/gone", "1.0.0", status="deleted")],
                "metadata": {"count": 2}}

    def write_documents(self, out):
        """Writes the card's exact bytes and its key set to out/card.json and out/keys.json."""
        for name, path in (("card.json", "/.well-known/agent-card.json"),
                           ("keys.json", "/keys.json")):
            with open(os.path.join(out, name), "wb") as f:
                f.write(self.docs[path])


def serve(work, args):
    source = Source(work, args.bind, args.port)
    if args.out:
        source.write_documents(args.out)
    print(source.url, flush=True)
    threading.Event().wait()  # serves until killed


def main():
    parser = argparse.ArgumentParser(description="Serves the import tests' source site.")
    parser.add_argument("--bind", default="127.0.0.1", help="the address to listen on")
    parser.add_argument("--port", type=int, default=0, help="the port (0: any free one)")
    parser.add_argument("--out", help="a directory for card.json and keys.json (and the key)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # so that the key's directory goes
    if args.out:
        serve(args.out, args)
    with tempfile.TemporaryDirectory(prefix="skillnode-import-site-") as work:
        serve(work, args)

if __name__ == "__main__":
    main()
