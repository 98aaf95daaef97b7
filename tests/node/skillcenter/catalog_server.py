"""A SkillCenter catalog for tests that misbehaves on purpose (tests/node/skillcenter/skillcenter_test.py).

Run as a process: `catalog_server.py PORT [--tls CERT KEY]`. It answers POST /api/skills/search
and GET /api/skills/{id} according to its current mode, which a test sets with
POST /mode {"mode": ...}: ok (one skill), slow (answers after 30 s), garbage (HTML), huge
(a 3 MB body), error (HTTP 500), close (drops the connection). GET /seen returns what the
catalog has received (path and Authorization header of each request)."""
import json
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATE = {"mode": "ok", "seen": []}
LOCK = threading.Lock()

SKILL = {"id": "skill-catalog-only", "name": "Catalog Translator", "version": "2.1.0",
         "type": "tool-skill", "capabilities": ["catalog-translate"], "scenes": ["docs"],
         "endpoint": "https://catalog.example/skills/translate",
         "description": "Known only to the catalog", "updatedAt": 1700000000000}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _send(self, status, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the node gave up on an answer it found too large or too slow

    def _catalog(self):
        with LOCK:
            STATE["seen"].append({"path": self.path,
                                  "authorization": self.headers.get("Authorization")})
            mode = STATE["mode"]
        if mode == "slow":
            time.sleep(30)
            return self._send(200, json.dumps({"total": 0, "skills": []}))
        if mode == "garbage":
            return self._send(200, "<html><body>maintenance</body></html>", "text/html")
        if mode == "huge":
            filler = "x" * (3 * 1024 * 1024)
            return self._send(200, json.dumps({"skills": [], "filler": filler}))
        if mode == "error":
            return self._send(500, json.dumps({"error": "internal"}))
        if mode == "close":
            self.close_connection = True
            self.connection.close()
            return None
        if self.command == "GET":
            if self.path.endswith("/" + SKILL["id"]):
                return self._send(200, json.dumps(SKILL))
            return self._send(404, json.dumps({"error": "not found"}))
        return self._send(200, json.dumps({"total": 1, "skills": [SKILL]}))

    def do_GET(self):
        if self.path == "/seen":
            with LOCK:
                return self._send(200, json.dumps(STATE["seen"]))
        if self.path.startswith("/api/skills/"):
            return self._catalog()
        return self._send(404, "{}")

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length) if length else b""
        if self.path == "/mode":
            with LOCK:
                STATE["mode"] = json.loads(body)["mode"]
            return self._send(200, "{}")
        if self.path == "/api/skills/search":
            return self._catalog()
        return self._send(404, "{}")


def main():
    port = int(sys.argv[1])
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    if len(sys.argv) == 5 and sys.argv[2] == "--tls":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[3], sys.argv[4])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
