#!/usr/bin/env python3
"""A skill provider speaking the invocation protocol (docs/invocation.md), for invoke_test.py.

    python3 provider_server.py [--token TOKEN] [--polls N]

Listens on 127.0.0.1 (a free port) and prints "PORT <n>" on stdout when ready. A skill's
endpoint is http://127.0.0.1:<n>/skills/<mode>; the input's "mode" (if any) overrides the path's.
Modes:
  async        202 {execution_id, status_url, result_url}; the status is pending, then running
               (progress 0.5), then completed after N polls; the result is {"output": ...}
  location     202 with the status URL only in a Location header (an absolute path), no result_url
  bare         202 with only the execution_id: the default status and result URLs
  retry        as async, with "Retry-After: 1" on the 202 and on each status answer
  sync         200 {"output": ...} at once
  auth         as async, but every request needs "Authorization: Bearer TOKEN" (else 401)
  forbidden    403
  4xx          422 {"error": ...}
  5xx          503 {"error": ...}
  status-5xx   202, then the status request answers 500
  slow         answers the POST after input "sleep" seconds (default 30): past any deadline
  never        202, then "running" for ever
  badjson      200 with a body that is not JSON
  noid         202 without an execution_id
  foreign      202 whose status_url is on another origin
  big          200 {"output": "xxx..."} of input "bytes" bytes (default 2 MiB)
  failed       202, then {"status": "failed", "error": "the model ran out of memory"}
  badoutput    200 {"output": {"upper": 42}} (outputSchema wants a string)
  drop         closes the connection without answering
The output for a good input {"text": T} is {"upper": T.upper(), "length": len(T)}.
GET /_requests lists what arrived: [{"method", "path", "authorization", "body"}].
As a stand-in node: POST /_skills {"id": ..., "providers": [...]} stores a skill that
GET /api/skills/<id> then answers as a node would.
"""
import argparse
import json
import socket
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
EXECUTIONS = {}  # id -> {"mode", "input", "polls"}
REQUESTS = []
SKILLS = {}  # id -> the skill JSON GET /api/skills/<id> answers
ARGS = None


def output_for(value):
    text = value.get("text", "") if isinstance(value, dict) else ""
    return {"upper": str(text).upper(), "length": len(str(text))}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def answer(self, status, body, headers=None):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def record(self, body):
        with LOCK:
            REQUESTS.append({"method": self.command, "path": self.path,
                             "authorization": self.headers.get("Authorization"),
                             "body": body})

    def authorized(self):
        if self.headers.get("Authorization") == f"Bearer {ARGS.token}":
            return True
        self.answer(401, {"error": "a valid bearer token is required"},
                    {"WWW-Authenticate": "Bearer"})
        return False

    def drop(self):
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode()
        self.record(raw)
        if self.path == "/_skills":
            skill = json.loads(raw)
            with LOCK:
                SKILLS[skill["id"]] = skill
            return self.answer(201, skill)
        if not self.path.startswith("/skills/"):
            return self.answer(404, {"error": "no such skill"})
        try:
            value = json.loads(raw)["input"]
        except (ValueError, KeyError, TypeError):
            return self.answer(400, {"error": "the body must be {\"input\": ...}"})
        mode = self.path[len("/skills/"):]
        if isinstance(value, dict) and isinstance(value.get("mode"), str):
            mode = value["mode"]
        if mode == "auth" and not self.authorized():
            return None
        if mode == "forbidden":
            return self.answer(403, {"error": "this agent may not use the skill"})
        if mode == "4xx":
            return self.answer(422, {"error": "the text is not in a language I know"})
        if mode == "5xx":
            return self.answer(503, {"error": "overloaded, come back later"})
        if mode == "slow":
            time.sleep(float(value.get("sleep", 30)))
            return self.answer(200, {"output": output_for(value)})
        if mode == "badjson":
            return self.answer(200, b"{\"output\": {\"upper\": ")
        if mode == "big":
            size = int(value.get("bytes", 2 * 1024 * 1024))
            return self.answer(200, {"output": "x" * size})
        if mode == "badoutput":
            return self.answer(200, {"output": {"upper": 42}})
        if mode == "drop":
            return self.drop()
        if mode == "sync":
            return self.answer(200, {"output": output_for(value), "execution_id": "sync-1"})
        if mode == "noid":
            return self.answer(202, {"status": "accepted"})
        execution = uuid.uuid4().hex[:12]
        with LOCK:
            EXECUTIONS[execution] = {"mode": mode, "input": value, "polls": 0}
        host = f"http://127.0.0.1:{self.server.server_address[1]}"
        if mode == "location":
            return self.answer(202, {"execution_id": execution},
                               {"Location": f"/executions/{execution}"})
        if mode == "bare":  # the default URLs: {endpoint}/executions/{id}[/result]
            return self.answer(202, {"execution_id": execution})
        if mode == "foreign":
            return self.answer(202, {"execution_id": execution,
                                     "status_url": f"http://127.0.0.2:9/executions/{execution}"})
        return self.answer(202, {"execution_id": execution,
                                 "status_url": f"{host}/executions/{execution}",
                                 "result_url": f"{host}/executions/{execution}/result"},
                           {"Retry-After": "1"} if mode == "retry" else None)

    def do_GET(self):
        self.record("")
        if self.path == "/_requests":
            with LOCK:
                return self.answer(200, REQUESTS)
        parts = self.path.strip("/").split("/")
        if parts[:2] == ["api", "skills"] and len(parts) == 3:
            with LOCK:
                skill = SKILLS.get(parts[2])
            if skill is None:
                return self.answer(404, {"error": "DISC_002", "message": "no such skill"})
            return self.answer(200, skill)
        if parts[0] == "skills":  # {endpoint}/executions/...: the default URLs
            parts = parts[2:]
        if len(parts) < 2 or parts[0] != "executions" or parts[1] not in EXECUTIONS:
            return self.answer(404, {"error": "no such execution"})
        with LOCK:
            execution = EXECUTIONS[parts[1]]
        mode = execution["mode"]
        if mode == "auth" and not self.authorized():
            return None
        if len(parts) == 3 and parts[2] == "result":
            if execution["polls"] < ARGS.polls:
                return self.answer(409, {"error": "not finished"})
            return self.answer(200, {"output": output_for(execution["input"])})
        with LOCK:
            execution["polls"] += 1
            polls = execution["polls"]
        if mode == "status-5xx":
            return self.answer(500, {"error": "the status store is down"})
        if mode == "failed" and polls >= 2:
            return self.answer(200, {"status": "failed", "error": "the model ran out of memory"})
        if mode == "never" or polls < ARGS.polls:
            status = "pending" if polls == 1 and mode != "never" else "running"
            return self.answer(200, {"status": status, "progress": 0.5 if status == "running"
                                     else 0.0, "message": f"poll {polls}"},
                               {"Retry-After": "1"} if mode == "retry" else None)
        return self.answer(200, {"status": "completed"})


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that gave up (a bound passed, a deadline) resets the connection: expected.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--token", default="provider-token")
    parser.add_argument("--polls", type=int, default=3)
    ARGS = parser.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
