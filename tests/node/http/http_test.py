#!/usr/bin/env python3
"""[uv] The HTTP API on real sockets: keep-alive, pipelining, limits, timeouts, errors.

Bad requests (malformed request line, huge headers, a huge body, a slowloris client, an idle
connection, unknown routes, wrong methods, too many connections) get the documented status
and JSON error body, and the node keeps serving afterwards. Also checks /metrics is valid
Prometheus text and counts what happened.
Run: SKILLNODE=build/daemon/node/skillnode python3 tests/node/http/http_test.py
"""
import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import (SHUTDOWN_BOUND_S, Node, check, finish, metrics_problems,
                               require_binary, wait_for)

# Short timeouts so the timeout checks run quickly; small limits so they are easy to pass.
CONFIG = """
node:
  port: 0
  http:
    listen: "127.0.0.1:0"
    maxConnections: 8
    maxHeaderBytes: 4096
    maxBodyBytes: 1024
    idleTimeout: 1500
    requestTimeout: 800
"""


class Client:
    """A raw HTTP/1.1 connection that reads whole responses."""

    def __init__(self, address, timeout=5):
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        self.buffer = b""

    def send(self, data):
        self.sock.sendall(data if isinstance(data, bytes) else data.encode())

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        self.buffer += chunk

    def response(self):
        """(status, headers dict with lower-case names, body bytes)."""
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode().split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, headers, body

    def closed_by_peer(self, timeout):
        """True when the server closes the connection within `timeout` seconds."""
        self.sock.settimeout(timeout)
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except (socket.timeout, TimeoutError):
            return False
        except ConnectionError:
            return True

    def close(self):
        self.sock.close()


def get(path, host="x"):
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n"


def error_body(body):
    try:
        data = json.loads(body)
    except json.JSONDecodeError:
        return None
    ok = isinstance(data, dict) and set(data) == {"error", "message", "details"}
    return data if ok else None


def check_error(node, request, status, code, what):
    client = Client(node.http_address())
    client.send(request)
    got, headers, body = client.response()
    data = error_body(body)
    check(got == status and data and data["error"] == code,
          f"{what}: {status} with JSON error {code}", f"got {got} {body[:200]!r}")
    check(headers.get("connection") == "close" and client.closed_by_peer(3),
          f"{what}: the connection is closed after the answer")
    client.close()


def keep_alive_and_pipelining(node):
    client = Client(node.http_address())
    client.send(get("/health"))
    status1, headers1, body1 = client.response()
    client.send(get("/api/node"))
    status2, _, body2 = client.response()
    check(status1 == 200 and json.loads(body1)["status"] == "ok" and status2 == 200
          and headers1.get("connection") == "keep-alive",
          "keep-alive: two requests answered on one connection")
    client.send(get("/health") + get("/nope") + get("/metrics"))
    statuses = [client.response()[0] for _ in range(3)]
    check(statuses == [200, 404, 200], "pipelining: three requests answered in order",
          str(statuses))
    client.send("HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n")
    client.sock.settimeout(5)
    while b"\r\n\r\n" not in client.buffer:
        client._fill()
    head, rest = client.buffer.split(b"\r\n\r\n", 1)
    check(head.startswith(b"HTTP/1.1 200") and b"Content-Length: " in head and rest == b"",
          "HEAD /health: 200 with a Content-Length and no body")
    client.buffer = b""
    client.send("POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
                "Expect: 100-continue\r\n\r\n")
    interim = client.sock.recv(64)
    check(interim.startswith(b"HTTP/1.1 100 Continue"), "Expect: 100-continue gets 100 Continue")
    client.send("{}")
    status, headers, body = client.response()
    data = error_body(body)
    check(status == 405 and data and data["error"] == "METHOD_NOT_ALLOWED"
          and headers.get("allow") == "GET, HEAD",
          "wrong method: 405 with an Allow header and a JSON error", f"{status} {headers}")
    client.close()


def errors(node):
    client = Client(node.http_address())
    client.send(get("/no/such/route"))
    status, _, body = client.response()
    data = error_body(body)
    check(status == 404 and data and data["error"] == "NOT_FOUND"
          and data["details"]["path"] == "/no/such/route",
          "unknown route: 404 with a JSON error naming the path")
    client.send(get("/api/dht/lookup"))
    status, _, body = client.response()
    data = error_body(body)
    check(status == 400 and data and data["details"].get("field") == "key",
          "lookup without a key: 400 naming the field 'key'")
    client.send(get("/api/dht/lookup?key=xyz"))
    status, _, body = client.response()
    check(status == 400 and error_body(body), "lookup with a bad key: 400 with a JSON error")
    client.send(get("/api/dht/lookup?key=" + "ab" * 32))
    status, _, body = client.response()
    check(status == 200 and json.loads(body)["closest"] == [],
          "lookup on a standalone node: 200 with no contacts")
    client.close()
    check_error(node, "BLAH BLAH BLAH\r\n\r\n", 400, "BAD_REQUEST", "malformed request line")
    check_error(node, "GET / HTTP/1.1\r\nX-Huge: " + "a" * 10000 + "\r\n\r\n", 431,
                "HEADERS_TOO_LARGE", "huge headers")
    check_error(node, "POST /health HTTP/1.1\r\nContent-Length: 5000\r\n\r\n", 413,
                "BODY_TOO_LARGE", "huge body")
    check_error(node, "GET / HTTP/2.0\r\n\r\n", 505, "HTTP_VERSION", "HTTP/2.0 request line")


def body_too_large_while_sending(node):
    """A client still sending a body that is over the limit reads the 413, not a reset."""
    client = Client(node.http_address())
    client.send("POST /api/skills HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                "Content-Length: 400000\r\n\r\n")
    sent = 0
    try:
        while sent < 200000:
            client.send(b"x" * 4000)
            sent += 4000
    except (ConnectionError, OSError):
        pass
    try:
        status, _, body = client.response()
    except (ConnectionError, OSError) as error:
        status, body = repr(error), b""
    data = error_body(body)
    check(status == 413 and data and data["error"] == "BODY_TOO_LARGE",
          f"a body over the limit, still being sent ({sent} bytes), gets 413, not a reset",
          str(status))
    check(client.closed_by_peer(5), "... and the server then closes the connection")
    client.close()


DRIBBLE_BYTES = 40  # the slowloris client's header bytes, one per 100 ms at the fastest


def slowloris_and_idle(node):
    client = Client(node.http_address())
    client.send("GET /health HTTP/1.1\r\nHost: x\r\n")
    start = time.monotonic()
    answered = None
    dribbled = 0
    try:
        for _ in range(DRIBBLE_BYTES):  # one header byte every 100 ms: never finishes on its own
            client.send("X")
            dribbled += 1
            client.sock.settimeout(0.1)
            try:
                chunk = client.sock.recv(65536)
                client.buffer += chunk
                if b"\r\n\r\n" in client.buffer:
                    break
            except (socket.timeout, TimeoutError):
                pass
        client.sock.settimeout(5)
        answered = client.response()
    except (ConnectionError, OSError):
        pass
    elapsed = time.monotonic() - start
    data = error_body(answered[2]) if answered else None
    check(answered and answered[0] == 408 and data and data["error"] == "REQUEST_TIMEOUT",
          f"slowloris: a request dribbled byte by byte gets 408 after {elapsed:.1f} s "
          f"(requestTimeout 0.8 s)")
    # Not a time: the answer came while the client still had bytes to send (it sends one every
    # 100 ms at the fastest, for 4 s or longer on a loaded machine; requestTimeout is 0.8 s).
    check(dribbled < DRIBBLE_BYTES,
          f"slowloris: the server cut the request off before the client finished dribbling "
          f"({dribbled} of {DRIBBLE_BYTES} bytes sent)")
    client.close()
    idle = Client(node.http_address())
    start = time.monotonic()
    closed = idle.closed_by_peer(10)
    check(closed and time.monotonic() - start >= 1.0,
          f"idle connection closed after {time.monotonic() - start:.1f} s (idleTimeout 1.5 s)")
    idle.close()


def others_open(client):
    """The server's connections other than `client`'s, open or still closing, asked over
    `client` itself."""
    client.send(get("/metrics"))
    _, _, body = client.response()
    counts = {}
    for line in body.decode().splitlines():
        name, _, value = line.partition(" ")
        if name in ("skillnode_http_connections", "skillnode_http_connections_closing"):
            counts[name] = int(float(value))
    if len(counts) != 2:
        return -1
    return counts["skillnode_http_connections"] - 1 + counts["skillnode_http_connections_closing"]


def connection_limit(node):
    # The earlier checks' connections must all be closed, or one of the eight below would be
    # the one refused; one still lingering is not counted against the limit, but its close
    # is waited for too, so that nothing of theirs changes while the eight open. The first
    # of the eight asks, so that asking opens no connection.
    first = Client(node.http_address())
    check(wait_for(lambda: others_open(first) == 0, 5),
          "connection limit: no connection of earlier checks is open")
    held = [first] + [Client(node.http_address()) for _ in range(7)]
    statuses = []
    for c in held:  # make sure the server has accepted each one
        c.send(get("/health"))
        statuses.append(c.response()[0])
    check(statuses == [200] * 8, "connection limit: 8 connections are served", str(statuses))
    extra = Client(node.http_address())
    # Sent at once, as clients do: the server refuses without reading it, and must not reset
    # the connection (closing with unread input) before the client reads the 503.
    extra.send(get("/health") * 50)
    try:
        status, _, body = extra.response()
    except (ConnectionError, OSError) as error:
        status, body = repr(error), b""
    data = error_body(body)
    check(status == 503 and data and data["error"] == "TOO_MANY_CONNECTIONS",
          "connection limit: the 9th connection, its request already sent, gets 503 with a "
          "JSON error", str(status))
    extra.close()
    for c in held:
        c.close()
    ok = wait_for(lambda: node.get("/health")[0] == 200, 5)
    check(ok, "connection limit: new connections are served once others closed")


def metrics(node):
    status, text, headers = node.get("/metrics")
    check(status == 200 and headers.get("Content-Type", "").startswith("text/plain; version=0.0.4"),
          "/metrics: 200 in the Prometheus text format")
    problems = metrics_problems(text)
    check(not problems, "/metrics: every line is valid exposition text", "; ".join(problems[:5]))
    for needle in ['skillnode_http_requests_total{method="GET",route="/health",status="200"}',
                   'route="unmatched",status="404"', 'status="400"', 'status="431"',
                   'status="413"', 'status="408"', 'status="405"', 'status="503"',
                   'skillnode_http_request_duration_seconds_bucket{route="/health",le="+Inf"}',
                   'skillnode_http_timeouts_total{kind="request"} 1',
                   'skillnode_datagrams_dropped_total{reason="malformed"}',
                   'skillnode_rpcs_total{type="find_node",result="replied"}',
                   'skillnode_lookup_duration_seconds_count',
                   'skillnode_store_records 0', 'skillnode_store_bytes 0',
                   'skillnode_store_requests_total{result="accepted"} 0',
                   'skillnode_find_value_served_total 0']:
        check(needle in text, f"/metrics has {needle}")
    info = node.info()
    store = (info or {}).get("store", {})
    check(store.get("records") == 0 and store.get("bytes") == 0 and store.get("published") == 0,
          "/api/node has the skill store's counts (empty on a new node)", json.dumps(store))


def garbage_datagrams(node):
    port = node.udp_port()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for payload in (b"", b"\x00", b"\xff" * 100, b"\x81\xa1v\x01", b"x" * 2000):
            s.sendto(payload, ("127.0.0.1", port))
    wait = lambda: "reason=\"malformed\"} 0" not in node.get("/metrics")[1]
    check(wait_for(wait, 5), "garbage UDP datagrams are counted as dropped (malformed)")


def main():
    require_binary()
    node = Node("http", config=CONFIG).start()
    keep_alive_and_pipelining(node)
    errors(node)
    slowloris_and_idle(node)
    body_too_large_while_sending(node)
    connection_limit(node)
    garbage_datagrams(node)
    metrics(node)
    status, body, _ = node.get("/health")
    check(status == 200, "after all of the above the node still serves /health")
    code, seconds = node.stop()
    check(code == 0 and seconds < SHUTDOWN_BOUND_S,
          f"SIGTERM: exit status {code} in {seconds:.2f} s (bound {SHUTDOWN_BOUND_S} s)")
    finish()


if __name__ == "__main__":
    main()
