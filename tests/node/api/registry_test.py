#!/usr/bin/env python3
"""[uv] The skill registry end to end: three skillnode processes on 127.0.0.1.

Node A is the bootstrap node; B and C join through it. A skill registers with A (its own
host); C finds it by capability, scene and version range within 1 s; when the skill stops
heartbeating C sees it UNHEALTHY within unhealthyThreshold x heartbeatInterval + 1 s, and it is
gone after `timeout`; DELETE removes it from every node within 1 s; a scene join on C returns
A's connection info; bad requests get a 4xx naming the field and change nothing; SIGTERM on A
unpublishes what A registered.
Run: SKILLNODE=build/release/node/skillnode python3 tests/node/api/registry_test.py
"""
import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
import skillnode_harness
from skillnode_harness import (BINARY, SHUTDOWN_BOUND_S, Node, check, finish, require_binary,
                               run, wait_for)

INTERVAL_MS = 500
THRESHOLD = 3
TIMEOUT_MS = 4000
CONFIG = f"""
node:
  http: {{listen: "127.0.0.1:0"}}
discovery:
  healthCheck:
    heartbeatInterval: {INTERVAL_MS}
    timeout: {TIMEOUT_MS}
    unhealthyThreshold: {THRESHOLD}
"""

SKILL = {
    "agentId": "agent-001",
    "skillId": "skill-org-feishu",
    "version": "0.7.2",
    "skillType": "enterprise-skill",
    "endpoint": "http://127.0.0.1:8080/api",
    "capabilities": ["org-data-read", "user-auth"],
    "scenes": ["auth"],
    "descriptor": {"name": "Feishu Organization Service", "description": "Org data from Feishu",
                   "tags": ["feishu", "org"]},
}


def search(node, body):
    status, answer = node.call("POST", "/api/skills/search", body)
    return status, answer


def found_ids(node, body):
    status, answer = search(node, body)
    if status != 200:
        return []
    return [(s["skillId"], s["agentId"], s["status"]) for s in answer["skills"]]


def status_seen(node, skill_id):
    """The status of skill_id as a capability search on `node` reports it, or None."""
    for sid, _, status in found_ids(node, {"capabilities": ["org-data-read"]}):
        if sid == skill_id:
            return status
    return None


class Watcher:
    """`skillnode watch --json` on a node, its events collected as they arrive."""

    def __init__(self, node, *args):
        self.events = []
        self.proc = subprocess.Popen([BINARY, "watch", "--http", node.http_address(), "--json",
                                      *args], stdout=subprocess.PIPE, text=True)
        skillnode_harness._processes.append(self.proc)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                self.events.append(json.loads(line))
            except json.JSONDecodeError:
                self.events.append({"event": "unparsable", "data": line})

    def seen(self, event, skill_id, **fields):
        return any(e["event"] == event and e["data"].get("skillId") == skill_id and
                   all(e["data"].get(k) == v for k, v in fields.items()) for e in self.events)


def start_cluster():
    a = Node("a", ["--port", "0"], config=CONFIG).start()
    seed = f"127.0.0.1:{a.udp_port()}"
    b = Node("b", ["--port", "0", "--bootstrap", seed], config=CONFIG).start()
    c = Node("c", ["--port", "0", "--bootstrap", seed], config=CONFIG).start()
    check(wait_for(lambda: all(n.contacts() >= 2 for n in (a, b, c)), 30, 0.1),
          "three nodes know each other")
    return a, b, c


def register_and_find(a, b, c):
    status, answer = a.call("POST", "/api/skills", SKILL)
    check(status == 201 and answer["status"] == "SUCCESS", "POST /api/skills on A: 201 SUCCESS",
          f"{status} {answer}")
    registered_at = time.monotonic()
    queries = {
        "capability": {"capabilities": ["org-data-read"]},
        "scene": {"scenes": ["auth"]},
        "version range": {"capabilities": ["user-auth"], "version": "^0.7.0"},
        "scene + capability + type": {"scenes": ["auth"], "capabilities": ["user-auth"],
                                      "types": ["enterprise-skill"]},
    }
    for what, query in queries.items():
        ok = wait_for(lambda q=query: ("skill-org-feishu", "agent-001", "HEALTHY")
                      in found_ids(c, q), 1.0, 0.02)
        elapsed = time.monotonic() - registered_at
        check(ok, f"C finds the skill by {what} within 1 s of registration ({elapsed:.2f} s)",
              str(search(c, query)))
    status, answer = search(c, {"capabilities": ["org-data-read"], "version": ">=1.0.0"})
    check(status == 404 and answer["error"] == "DISC_002",
          "a version range the skill does not satisfy finds nothing (404 DISC_002)",
          f"{status} {answer}")
    status, answer = c.get_json("/api/skills/skill-org-feishu")
    check(status == 200 and answer["providers"][0]["agentId"] == "agent-001" and
          answer["providers"][0]["provider"] == a.info()["id"],
          "GET /api/skills/{id} on C names A's node as the provider", f"{status} {answer}")
    status, answer = b.get_json("/api/skills?capability=user-auth&limit=5")
    check(status == 200 and answer["total"] >= 1 and answer["skills"][0]["source"] in
          ("dht", "cache"), "GET /api/skills on B lists it, from the DHT", f"{status} {answer}")
    status, answer = c.get_json("/api/skills/skill-org-feishu/download")
    check(status == 404 and answer["error"] == "DISC_002",
          "download of a skill with no SKILL.md folder: 404 DISC_002", f"{status} {answer}")
    status, answer = a.call("POST", "/api/skills", SKILL)
    check(status == 200 and answer["status"] == "DUPLICATE", "the same registration again: "
          "DUPLICATE", f"{status} {answer}")


def scene_join(a, c):
    status, answer = c.call("POST", "/api/scenes/auth/join",
                            {"capabilities": ["org-data-read", "user-auth"]})
    info = (answer or {}).get("connectionInfo", {})
    check(status == 200 and info.get("host") == "127.0.0.1" and info.get("port") == 8080 and
          info.get("basePath") == "/api" and answer["skillInfo"]["provider"] == a.info()["id"],
          "scene join on C returns A's skill and its connection info", f"{status} {answer}")
    status, answer = c.call("POST", "/api/scenes/auth/join", {"capabilities": ["payments"]})
    check(status == 404 and answer["error"] == "SCENE_NOT_FOUND" and
          answer["details"]["code"] == "DISC_002",
          "scene join with a capability nobody offers: 404 SCENE_NOT_FOUND, DISC_002",
          f"{status} {answer}")


def bad_input(a):
    before = a.info()["registry"]["registrations"]
    cases = [
        ("malformed JSON", "{\"agentId\": ", ""),
        ("missing skillId", {k: v for k, v in SKILL.items() if k != "skillId"}, "skillId"),
        ("over-long agentId", dict(SKILL, agentId="x" * 500), "agentId"),
        ("too many capabilities", dict(SKILL, capabilities=[f"c{i}" for i in range(40)]),
         "capabilities"),
        ("';' in skillId", dict(SKILL, skillId="a;b"), "skillId"),
        ("'|' in agentId", dict(SKILL, agentId="a|b"), "agentId"),
        ("',' in a capability", dict(SKILL, capabilities=["a", "b,c"]), "capabilities"),
        ("control character in skillId", dict(SKILL, skillId="a\u0007b"), "skillId"),
        ("not a semantic version", dict(SKILL, version="seven"), "version"),
        ("unknown field", dict(SKILL, colour="blue"), "colour"),
        ("capabilities of the wrong type", dict(SKILL, capabilities=7), "capabilities"),
    ]
    for what, body, field in cases:
        status, answer = a.call("POST", "/api/skills", body)
        got = (answer or {}).get("details", {}).get("field", "")
        check(status == 400 and answer["error"] == "INVALID" and got.startswith(field),
              f"register with {what}: 400 INVALID naming '{field}'", f"{status} {answer}")
    status, answer = search(a, {"capabilities": ["x"], "version": ">=abc"})
    check(status == 400 and answer["details"]["field"] == "version" and ">=abc" in
          answer["message"], "search with an invalid version range: 400 naming it",
          f"{status} {answer}")
    status, answer = a.call("POST", "/api/skills/nope/heartbeat", {"agentId": "agent-001"})
    check(status == 404, "heartbeat of an unknown skill: 404", f"{status} {answer}")
    status, answer = a.call("DELETE", "/api/skills/skill-org-feishu")
    check(status == 400 and answer["details"]["field"] == "agentId",
          "DELETE without agentId: 400 naming agentId", f"{status} {answer}")
    status, answer = a.call("POST", "/api/skills/skill-org-feishu/heartbeat",
                            {"agentId": "agent-001", "status": "SLEEPY"})
    check(status == 400 and answer["details"]["field"] == "status",
          "heartbeat with an unknown status: 400 naming status", f"{status} {answer}")
    after = a.info()["registry"]["registrations"]
    check(after == before, f"nothing registered changed ({before} -> {after})")


def health_over_time(a, c):
    # Keep heartbeating for a while: the skill stays HEALTHY on C.
    for _ in range(4):
        status, answer = a.call("POST", "/api/skills/skill-org-feishu/heartbeat",
                                {"agentId": "agent-001", "status": "HEALTHY"})
        time.sleep(INTERVAL_MS / 2000)
    check(status == 200 and answer["status"] == "HEALTHY", "heartbeats keep it HEALTHY")
    status, answer = a.call("POST", "/api/skills/skill-org-feishu/heartbeat",
                            {"agentId": "agent-001", "status": "DEGRADED"})
    check(wait_for(lambda: status_seen(c, "skill-org-feishu") == "DEGRADED", 1.0, 0.02),
          "a DEGRADED heartbeat on A shows on C within 1 s", str(status_seen(c,
                                                                             "skill-org-feishu")))
    last_heartbeat = time.monotonic()
    a.call("POST", "/api/skills/skill-org-feishu/heartbeat", {"agentId": "agent-001"})
    limit = THRESHOLD * INTERVAL_MS / 1000 + 1.0
    unhealthy = wait_for(lambda: status_seen(c, "skill-org-feishu") == "UNHEALTHY", limit, 0.02)
    elapsed = time.monotonic() - last_heartbeat
    check(unhealthy, f"heartbeats stop: C sees UNHEALTHY after {elapsed:.2f} s "
                     f"(limit threshold x interval + 1 s = {limit:.1f} s)")
    gone = wait_for(lambda: status_seen(c, "skill-org-feishu") is None,
                    TIMEOUT_MS / 1000 + 1.0, 0.05)
    elapsed = time.monotonic() - last_heartbeat
    check(gone, f"and it is gone from C after the {TIMEOUT_MS / 1000:.0f} s timeout "
                f"({elapsed:.2f} s)")
    status, _ = a.call("POST", "/api/skills/skill-org-feishu/heartbeat", {"agentId": "agent-001"})
    check(status == 404, "a heartbeat after expiry is refused: the skill must register again")


def delete_everywhere(a, b, c):
    other = dict(SKILL, skillId="skill-org-dingding", endpoint="127.0.0.1:9090")
    status, _ = a.call("POST", "/api/skills", other)
    check(status == 201, "a second skill registers")
    nodes = (a, b, c)
    check(wait_for(lambda: all("skill-org-dingding" in [s for s, _, _ in found_ids(
        n, {"scenes": ["auth"]})] for n in nodes), 2.0, 0.02), "every node finds it")
    status, answer = a.call("DELETE", "/api/skills/skill-org-dingding?agentId=agent-001"
                                      "&reason=SHUTDOWN")
    check(status == 200 and answer["status"] == "UNREGISTERED", "DELETE on A: UNREGISTERED",
          f"{status} {answer}")
    deleted_at = time.monotonic()
    gone = wait_for(lambda: all("skill-org-dingding" not in [s for s, _, _ in found_ids(
        n, {"scenes": ["auth"]})] for n in nodes), 1.0, 0.02)
    check(gone, f"DELETE removes it from every node within 1 s "
                f"({time.monotonic() - deleted_at:.2f} s)")
    return other


def shutdown_unpublishes(a, c):
    status, _ = a.call("POST", "/api/skills", dict(SKILL, skillId="skill-last"))
    check(status == 201, "one more skill registers on A")
    registered = time.monotonic()
    found = wait_for(lambda: "skill-last" in [s for s, _, _ in found_ids(
        c, {"capabilities": ["org-data-read"]})], 1.0, 0.02)
    detail = ""
    if not found:
        # Seen once under a loaded CI run: say whether the DHT has it (fresh) while C's cached
        # answer did not, and what C's log and drops said, so the next one shows its cause.
        fresh = [s for s, _, _ in found_ids(c, {"capabilities": ["org-data-read"], "fresh": True})]
        _, metrics, _ = c.get("/metrics")
        drops = [line for line in metrics.splitlines()
                 if line.startswith(("skillnode_dropped", "skillnode_rate_limited",
                                     "skillnode_cache"))]
        detail = (f"after {time.monotonic() - registered:.2f} s; a fresh search on C finds "
                  f"{fresh}; C's metrics: {drops}; C's log tail: {c.log_text()[-2000:]}; "
                  f"A's log tail: {a.log_text()[-2000:]}")
    check(found, "C finds it within 1 s", detail)
    code, seconds = a.stop(timeout=10)
    check(code == 0 and seconds < SHUTDOWN_BOUND_S,
          f"SIGTERM on A: exit 0 in {seconds:.2f} s (bound {SHUTDOWN_BOUND_S} s)")
    check("unpublishing 1 registered skill(s) at shutdown" in a.log_text(),
          "A's log says it unpublished its skill at shutdown")
    check(wait_for(lambda: "skill-last" not in [s for s, _, _ in found_ids(
        c, {"capabilities": ["org-data-read"], "fresh": True})], 2.0, 0.05),
        "after A's shutdown C no longer finds it (tombstone)")


def watch_saw_everything(watcher):
    """The watch on C, opened before anything was registered, saw every change made on A."""
    expected = [("added", "skill-org-feishu", {"status": "HEALTHY"}),
                ("changed", "skill-org-feishu", {"status": "DEGRADED"}),
                ("changed", "skill-org-feishu", {"status": "UNHEALTHY"}),
                ("removed", "skill-org-feishu", {"reason": "ERROR"}),
                ("added", "skill-org-dingding", {}),
                ("removed", "skill-org-dingding", {"reason": "SHUTDOWN"})]
    for event, skill, fields in expected:
        check(wait_for(lambda: watcher.seen(event, skill, **fields), 2.0, 0.05),
              f"`skillnode watch --scene auth` on C: {event} {skill} {fields}",
              json.dumps(watcher.events)[-600:])
    check(watcher.events and watcher.events[0]["event"] == "ready",
          "the stream starts with a ready event")


class Heartbeater:
    """Heartbeats a skill on a node every INTERVAL_MS, as a live skill does, until stopped."""

    def __init__(self, node, agent_id, skill_id):
        self.stopped = threading.Event()
        path = f"/api/skills/{skill_id}/heartbeat"
        self.thread = threading.Thread(target=self._beat, args=(node, path, agent_id),
                                       daemon=True)
        self.thread.start()

    def _beat(self, node, path, agent_id):
        while not self.stopped.wait(INTERVAL_MS / 1000):
            node.call("POST", path, {"agentId": agent_id})

    def stop(self):
        self.stopped.set()
        self.thread.join()


def cli_round_trip(a, c):
    """The client subcommands against real nodes. The skill heartbeats while C discovers it
    (each `skillnode` run takes a while on a loaded machine, and the skill lapses TIMEOUT_MS
    after its last heartbeat)."""
    result = run(["register", "--http", a.http_address(), "--agent", "agent-cli",
                  "--skill", "skill-cli", "--skill-version", "2.1.0", "--type", "tool-skill",
                  "--endpoint", "127.0.0.1:7777", "--capability", "cli-check", "--scene", "ops"])
    check(result.returncode == 0 and "SUCCESS" in result.stdout,
          "`skillnode register` on A: SUCCESS", result.stdout + result.stderr)
    heartbeats = Heartbeater(a, "agent-cli", "skill-cli")
    found = wait_for(lambda: "skill-cli" in run(["discover", "--http", c.http_address(),
                                                 "--capability", "cli-check", "--version",
                                                 "^2"]).stdout, 1.0, 0.05)
    result = run(["discover", "--http", c.http_address(), "--capability", "cli-check",
                  "--version", "^2"])
    check(found and "agent-cli" in result.stdout and "1 skill(s)" in result.stdout,
          "`skillnode discover --capability --version` on C lists it", result.stdout)
    result = run(["discover", "--http", c.http_address(), "--capability", "cli-check",
                  "--version", "^3"])
    check(result.returncode == 1 and "DISC_002" in result.stderr,
          "`skillnode discover` with an unmatched range exits 1 naming DISC_002", result.stderr)
    heartbeats.stop()
    result = run(["heartbeat", "--http", a.http_address(), "--agent", "agent-cli",
                  "--skill", "skill-cli", "--status", "MAINTENANCE"])
    check(result.returncode == 0 and "MAINTENANCE" in result.stdout,
          "`skillnode heartbeat --status MAINTENANCE` on A", result.stdout + result.stderr)
    result = run(["unregister", "--http", a.http_address(), "--agent", "agent-cli",
                  "--skill", "skill-cli", "--reason", "UPGRADE"])
    check(result.returncode == 0 and "UNREGISTERED" in result.stdout,
          "`skillnode unregister --reason UPGRADE` on A", result.stdout + result.stderr)
    result = run(["register", "--http", a.http_address(), "--agent", "a;b",
                  "--skill", "s", "--skill-version", "1.0.0", "--type", "t", "--endpoint",
                  "h:1", "--capability", "c"])
    check(result.returncode == 1 and "INVALID" in result.stderr and "agentId" in result.stderr,
          "`skillnode register` with a bad agentId exits 1 naming the field", result.stderr)


def main():
    require_binary()
    a, b, c = start_cluster()
    watcher = Watcher(c, "--scene", "auth")
    check(wait_for(lambda: watcher.events, 5.0, 0.05), "the watch stream on C is open")
    register_and_find(a, b, c)
    scene_join(a, c)
    bad_input(a)
    health_over_time(a, c)
    delete_everywhere(a, b, c)
    watch_saw_everything(watcher)
    cli_round_trip(a, c)
    shutdown_unpublishes(a, c)
    metrics = c.get("/metrics")[1]
    check("skillnode_cache_hits_total" in metrics and "skillnode_discovery_searches_total" in
          metrics, "C's /metrics has the cache and discovery families")
    b.stop()
    c.stop()
    finish()


if __name__ == "__main__":
    main()
