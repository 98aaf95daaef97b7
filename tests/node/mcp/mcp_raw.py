"""Raw MCP clients for mcp_test.py: `skillnode mcp` as a subprocess fed JSON lines, and
requests to a node's /mcp with http.client, with the JSON-RPC helpers both use. No checks here:
mcp_test.py says what must hold.
"""
import http.client
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import skillnode_harness  # noqa: E402


class Stdio:
    """`skillnode mcp` as a raw subprocess: JSON lines in, JSON lines out."""

    def __init__(self, node_url, *extra):
        self.proc = subprocess.Popen([skillnode_harness.BINARY, "mcp", "--http", node_url,
                                      *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        skillnode_harness._processes.append(self.proc)

    def send(self, data):
        self.proc.stdin.write(data if isinstance(data, bytes) else data.encode())
        self.proc.stdin.flush()

    def ask(self, message):
        """Sends one message (a dict or raw text) and reads one answer line."""
        self.send((message if isinstance(message, str) else json.dumps(message)) + "\n")
        return self.read()

    def read(self):
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def ask_logged(self, message):
        """Sends one request; returns (the notifications read before its answer, the answer)."""
        self.send(json.dumps(message) + "\n")
        notes = []
        while True:
            line = self.read()
            if line is None or "id" in line:
                return notes, line
            notes.append(line)

    def peak_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return int(re.search(r"VmHWM:\s+(\d+)", f.read()).group(1))


def request(method, params=None, rid=1):
    message = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        message["params"] = params
    return message


INIT = {"protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}


def code_of(answer):
    return (answer or {}).get("error", {}).get("code")


def levels_of(notes):
    return [n.get("method") == "notifications/message" and n["params"]["level"] for n in notes]


def sse_events(text):
    """The JSON of each `data:` line of an SSE body."""
    return [json.loads(line[len("data: "):]) for line in (text or "").splitlines()
            if line.startswith("data: ")]


class Http:
    """Raw requests to /mcp."""

    def __init__(self, node):
        self.host, self.port = node.http_address().rsplit(":", 1)

    def call(self, method, body=None, headers=None):
        connection = http.client.HTTPConnection(self.host, int(self.port), timeout=20)
        data = body if isinstance(body, (bytes, str)) or body is None else json.dumps(body)
        all_headers = {"Content-Type": "application/json",
                       "Accept": "application/json, text/event-stream"}
        all_headers.update(headers or {})
        connection.request(method, "/mcp", body=data, headers=all_headers)
        answer = connection.getresponse()
        text = answer.read().decode()
        connection.close()
        try:
            parsed = json.loads(text) if text else None
        except json.JSONDecodeError:
            parsed = text
        return answer.status, parsed, {k.lower(): v for k, v in answer.getheaders()}

    def open(self, version="2025-06-18"):
        params = dict(INIT, protocolVersion=version)
        status, answer, headers = self.call("POST", request("initialize", params))
        return status, answer, headers.get("mcp-session-id")
