#!/usr/bin/env python3
"""[uv] An import that outlives its request is answered 202 and can be asked for by its id
(docs/api.md "POST /api/import", "GET /api/imports/{id}").

A source site on 127.0.0.1 (Python's http.server) holds its A2A cards' answers: one until the
test releases it, one that answers 404 once released, one 3 s after it is asked (longer than
the node's node.http.responseTimeout of 2 s). The node (import.answerWait 800 ms,
import.maxReports 3):
- answers POST /api/import 202 with the import's id, state running and its status path (also
  as Location), never 504; GET /api/imports/{id} says running, then done with the report once
  the card is released, and the card's skills are then registered; an import whose source
  answers 404 ends failed, with its error;
- answers a fast import (a document given in the body) 200 with its id in the report;
- keeps the last 3 finished reports: an older id is then 404, as is an id it never gave, in the
  API's JSON error shape;
- still lists the followed sources at GET /api/imports and unfollows one with DELETE.
`skillnode import` follows a 202: it prints the slow import's report as it prints any other.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/importers/import_answer_test.py
"""
import http.server
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from skillnode_harness import (Node, check, finish, require_binary, run,  # noqa: E402
                               wait_for)
sys.path.insert(0, HERE)
from import_source_site import card_of  # noqa: E402

CONFIG = """
node:
  http: {listen: "127.0.0.1:0", responseTimeout: 2000}
import:
  allowHttp: true
  allowedHosts: ["127.0.0.1"]
  fetchTimeout: 15000
  answerWait: 800
  maxReports: 3
"""
# Longer than node.http.responseTimeout: the CLI's import is answered 202 first.
SLOW_SECONDS = 3
# A held answer is given up on after this, so that a failed test never hangs the site.
HOLD_MAX_SECONDS = 30

HELD_CARD = card_of("Held Planner", [
    {"id": "held-route", "name": "Plan a held route", "description": "Plans a route.",
     "tags": ["routing"]},
    {"id": "held-eta", "name": "Held arrival time", "description": "Estimates an arrival time.",
     "tags": ["routing"]}])
SLOW_CARD = card_of("Slow Forecaster", [
    {"id": "slow-forecast", "name": "Forecast", "description": "Forecasts the weather.",
     "tags": ["weather"]}])
QUICK_CARD = card_of("Quick Converter", [
    {"id": "quick-convert", "name": "Convert", "description": "Converts units.",
     "tags": ["units"]}])


class Site:
    """/held.json and /held-missing.json answer once released (the card; a 404), /slow.json
    after SLOW_SECONDS."""

    def __init__(self):
        self.released = {"/held.json": threading.Event(), "/held-missing.json": threading.Event()}
        self.asked = set()
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                site.asked.add(self.path)
                if self.path in site.released:
                    site.released[self.path].wait(HOLD_MAX_SECONDS)
                if self.path == "/slow.json":
                    time.sleep(SLOW_SECONDS)
                body = {"/held.json": HELD_CARD, "/slow.json": SLOW_CARD}.get(self.path)
                data = json.dumps(body).encode() if body else b"not found"
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "application/json" if body else "text/plain")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        for event in self.released.values():
            event.set()
        self.server.shutdown()


def post_import(node, body, timeout=30):
    """(status, JSON body, headers) of POST /api/import."""
    request = urllib.request.Request(node.url + "/api/import", data=json.dumps(body).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read()), dict(answer.headers)
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text else None, dict(error.headers)


def outcome(node, import_id):
    return node.get_json("/api/imports/" + import_id)


def wait_finished(node, import_id):
    """The import's outcome once it is no longer running (or its last answer after 30 s)."""
    last = {}

    def finished():
        status, body = outcome(node, import_id)
        last["answer"] = (status, body)
        return status != 200 or (body or {}).get("state") != "running"
    wait_for(finished, 30, 0.1)
    return last["answer"]


def check_accepted(node, site):
    """A held import: 202, running, then done with its report; its skills registered."""
    url = site.url + "/held.json"
    status, body, headers = post_import(node, {"url": url, "type": "a2a"})
    import_id = (body or {}).get("id", "")
    check(status == 202 and import_id.startswith("imp-") and body.get("state") == "running" and
          body.get("status") == "/api/imports/" + import_id,
          "an import still running after import.answerWait is answered 202 with its id, state "
          "running and its status path", f"{status} {body}")
    check(headers.get("Location") == "/api/imports/" + import_id,
          "... and that path as Location", str(headers))
    check("/held.json" in site.asked, "the node is reading the held source")
    status, body = outcome(node, import_id)
    check(status == 200 and body.get("state") == "running" and body.get("source") == url and
          "started" in body and "report" not in body and "finished" not in body,
          "GET /api/imports/{id} says running, with the source and when it started",
          f"{status} {body}")
    status, listed = node.get_json("/api/imports")
    check(status == 200 and "sources" in (listed or {}),
          "GET /api/imports still lists the followed sources", f"{status} {listed}")
    site.released["/held.json"].set()
    status, body = wait_finished(node, import_id)
    report = (body or {}).get("report", {})
    check(status == 200 and body.get("state") == "done" and "finished" in body and
          report.get("id") == import_id and
          sorted(s["skillId"] for s in report.get("imported", [])) == ["held-eta", "held-route"],
          "once the source answers, it says done, with the report of both skills",
          f"{status} {json.dumps(body)[:800]}")
    status, skill = node.get_json("/api/skills/held-route")
    check(status == 200 and skill.get("providers"),
          "the imported skill is registered and listed", f"{status} {json.dumps(skill)[:300]}")
    return import_id


def check_failed(node, site):
    """A held import whose source answers 404: 202, then failed with the error."""
    status, body, _ = post_import(node, {"url": site.url + "/held-missing.json", "type": "a2a",
                                         "follow": False})
    import_id = (body or {}).get("id", "")
    check(status == 202 and import_id, "a second held import is answered 202",
          f"{status} {body}")
    site.released["/held-missing.json"].set()
    status, body = wait_finished(node, import_id)
    check(status == 200 and body.get("state") == "failed" and "404" in body.get("error", "") and
          body.get("report", {}).get("error") == body.get("error"),
          "a source that answers 404 ends the import failed, naming the error",
          f"{status} {json.dumps(body)[:800]}")
    return import_id


def check_cli(node, site):
    done = run(["import", site.url + "/slow.json", "--type", "a2a", "--once", "--http",
                node.http_address()], timeout=60)
    check(done.returncode == 0 and "still running" in done.stderr and
          "/slow-forecast 1.2.0" in done.stdout and
          "1 imported, 0 failed, 1 documents read" in done.stdout,
          "skillnode import follows the 202 and prints the slow import's report",
          f"{done.returncode}\n{done.stdout}\n{done.stderr}")


def check_quick(node):
    status, report, _ = post_import(node, {"document": json.dumps(QUICK_CARD), "type": "a2a",
                                           "url": "file:quick.json"})
    import_id = (report or {}).get("id", "")
    check(status == 200 and import_id.startswith("imp-") and
          [s["skillId"] for s in report.get("imported", [])] == ["quick-convert"],
          "an import that ends within import.answerWait is answered 200, its report naming its id",
          f"{status} {report}")
    status, body = outcome(node, import_id)
    check(status == 200 and body.get("state") == "done" and body.get("source") == "file:quick.json",
          "... and GET /api/imports/{id} has it done", f"{status} {body}")
    return import_id


def check_unknown(node, forgotten):
    status, body = outcome(node, forgotten)
    check(status == 404 and (body or {}).get("error") == "NOT_FOUND" and
          "import.maxReports" in body.get("message", "") and
          body.get("details", {}).get("id") == forgotten,
          "past import.maxReports (3) finished imports the oldest report is forgotten: 404 "
          "NOT_FOUND naming the id", f"{status} {body}")
    status, body = outcome(node, "imp-never-given")
    check(status == 404 and (body or {}).get("error") == "NOT_FOUND" and
          body.get("details", {}).get("id") == "imp-never-given",
          "an id the node never gave is 404 in the API's error shape", f"{status} {body}")


def main():
    require_binary()
    site = Site()
    node = Node("import-answer", ["--port", "0"], config=CONFIG).start()
    held = check_accepted(node, site)
    failed = check_failed(node, site)
    check_cli(node, site)
    quick = check_quick(node)
    status, body = outcome(node, failed)
    check(status == 200 and body.get("state") == "failed",
          "the last 3 finished reports are kept", f"{status} {body}")
    check_unknown(node, held)
    held_url = site.url + "/held.json"
    status, listed = node.get_json("/api/imports")
    check(status == 200 and [s["url"] for s in listed.get("sources", [])] == [held_url],
          "the source imported by URL (without --once) is followed", f"{status} {listed}")
    status, body = node.call("DELETE", "/api/imports?" + urllib.parse.urlencode({"url": held_url}))
    check(status == 200 and (body or {}).get("unregistered") == 2,
          "DELETE /api/imports?url= still unfollows it and unregisters its skills",
          f"{status} {body}")
    check(quick != held, "every import has an id of its own")
    node.stop()
    site.close()
    finish()


if __name__ == "__main__":
    main()
