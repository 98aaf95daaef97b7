#!/usr/bin/env python3
"""[uv] Access levels and bearer tokens (docs/access.md) on one skillnode process.

Public, restricted and private skills register with the node. Without a token, every read route
is walked (list, search, get by id, download, scene join, the watch stream, the well-known index
with and without ?type=, descriptor URLs, /skills?type=) and no answer holds a private skill;
with a token made by `skillnode token add` they all do. A bad token is answered 401 with
WWW-Authenticate; repeated failures from one source are answered 429 (that source only); a
token revoked with `skillnode token revoke` stops working on the running node; index ids that
collide are refused naming both registrations.
Run: SKILLNODE=build/release/node/skillnode python3 tests/node/auth/access_test.py
"""
import http.client
import json
import os
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
import skillnode_harness
from skillnode_harness import Node, check, finish, require_binary, run, temp_dir, wait_for

PRIVATE_ID = "secret-skill-7f3"  # must never appear in an anonymous answer
SCENE = "access-scene"
CAPABILITY = "access-cap"
FAILURES_PER_MINUTE = 4


def skill(agent, skill_id, version, access, ctype="api"):
    return {"agentId": agent, "skillId": skill_id, "version": version, "skillType": "tool",
            "endpoint": "http://127.0.0.1:9/" + skill_id, "capabilities": [CAPABILITY],
            "scenes": [SCENE],
            "descriptor": {"name": skill_id.title(), "description": f"a {access} skill",
                           "capabilityType": ctype, "access": access,
                           "inputSchema": {"type": "object"}}}


SKILLS = {
    "public": skill("agent-pub", "open-skill", "1.0.0", "public"),
    "restricted": skill("agent-res", "guarded-skill", "2.0.0", "restricted"),
    # The highest version: the scene join picks it whenever it may be seen.
    "private": skill("agent-priv", PRIVATE_ID, "9.0.0", "private"),
}
PRIVATE_INDEX_ID = f"agent-priv.{PRIVATE_ID}-v9"


def bearer(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


class Stream:
    """GET /api/v1/watch as Server-Sent Events, its events collected by a reader thread."""

    def __init__(self, node, query, token=None):
        host, port = node.http_address().rsplit(":", 1)
        # No read timeout: events may be further apart than any timeout (the reader thread
        # is a daemon, and close() ends it).
        self.conn = http.client.HTTPConnection(host, int(port))
        self.conn.request("GET", "/api/v1/watch?" + query, headers=bearer(token))
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.events = []
        self.raw = ""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        event = None
        try:
            for line in self.response:
                text = line.decode()
                self.raw += text
                if text.startswith("event: "):
                    event = text[7:].strip()
                elif text.startswith("data: "):
                    self.events.append((event, json.loads(text[6:])))
        except (OSError, ValueError, http.client.HTTPException):
            pass

    def seen(self, kind, skill_id):
        return any(e == kind and d.get("skillId") == skill_id for e, d in self.events)

    def close(self):
        self.conn.close()


UNKNOWN_ID = "zz-unknown-skill"
UNKNOWN_AGENT = "agent-nobody"
ROUTES = [
    ("list", "GET", "/api/skills", None),
    ("list by capability", "GET", f"/api/skills?capability={CAPABILITY}&fresh=true", None),
    ("list by keyword", "GET", f"/api/skills?keyword={PRIVATE_ID}", None),
    ("search by capability", "POST", "/api/skills/search", {"capabilities": [CAPABILITY]}),
    ("search by skill id", "POST", "/api/skills/search", {"skillId": PRIVATE_ID}),
    ("search by type", "POST", "/api/skills/search", {"types": ["tool"], "fresh": True}),
    ("get by id", "GET", f"/api/skills/{PRIVATE_ID}", None),
    ("download", "GET", f"/api/skills/{PRIVATE_ID}/download", None),
    ("scene join", "POST", f"/api/scenes/{SCENE}/join", {"capabilities": [CAPABILITY]}),
    ("well-known index", "GET", "/.well-known/skill-sharing", None),
    ("well-known index ?type=api", "GET", "/.well-known/skill-sharing?type=api", None),
    ("descriptor URL", "GET", f"/skills/{PRIVATE_INDEX_ID}/descriptor.json", None),
    ("registry query /skills?type=api", "GET", "/skills?type=api", None),
]


def request(node, method, path, body, token):
    """(status, body text) of one request."""
    if method == "GET":
        status, text, _ = node.get(path, headers=bearer(token))
        return status, text
    status, answer = node.call(method, path, body, headers=bearer(token))
    return status, json.dumps(answer)


def swap(text, forward=True):
    pairs = [(PRIVATE_ID, UNKNOWN_ID), ("agent-priv", UNKNOWN_AGENT)]
    for a, b in pairs:
        text = text.replace(a, b) if forward else text.replace(b, a)
    return text


def normal(text):
    """An answer without its timings, for comparing two answers."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "ms"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    try:
        return strip(json.loads(text))
    except ValueError:
        return text


def walk_without_token(node):
    for what, method, path, body in ROUTES:
        status, text = request(node, method, path, body, None)
        named = PRIVATE_ID in path or (body is not None and PRIVATE_ID in json.dumps(body))
        if not named:
            check(status != 401 and PRIVATE_ID not in text and "agent-priv" not in text,
                  f"without a token, {what} shows no private skill ({status})", text[:300])
            continue
        # A route that names the private skill answers as it does for a skill that does not
        # exist (the name echoed back aside).
        other_body = json.loads(swap(json.dumps(body))) if body is not None else None
        other_status, other_text = request(node, method, swap(path), other_body, None)
        check(status == other_status and normal(text) == normal(swap(other_text, False)),
              f"without a token, {what} answers as for an unknown skill ({status})",
              f"{text[:300]} vs {other_text[:300]}")
    status, answer = node.get_json(f"/api/skills/{PRIVATE_ID}")
    check(status == 404 and answer["error"] == "DISC_002",
          "without a token, the private skill by id is 404 DISC_002 as if absent",
          f"{status} {answer}")
    status, answer = node.get_json(f"/skills/{PRIVATE_INDEX_ID}/descriptor.json")
    check(status == 404, "without a token, the private descriptor URL is 404", f"{status}")
    status, answer = node.call("POST", f"/api/scenes/{SCENE}/join",
                               {"capabilities": [CAPABILITY]})
    check(status == 200 and answer["skillInfo"]["skillId"] == "guarded-skill",
          "without a token, the scene join picks the best skill it may see (restricted)",
          f"{status} {answer}")
    status, index = node.get_json("/.well-known/skill-sharing")
    ids = sorted(e["id"] for e in index["skills"])
    check(ids == ["agent-pub.open-skill-v1", "agent-res.guarded-skill-v2"],
          "without a token, the index lists the public and the restricted skill", str(ids))


def walk_with_token(node, token):
    for what, method, path, request_body in ROUTES:
        status, body = request(node, method, path, request_body, token)
        if what == "download":  # registered without a folder: 404 naming the skill, not "unknown"
            check(status == 404 and "has no SKILL.md folder" in body,
                  "with a token, download knows the private skill (it has no folder)", body)
            continue
        check(status == 200 and PRIVATE_ID in body,
              f"with a token, {what} shows the private skill ({status})", body[:300])
    status, answer = node.get_json(f"/skills/{PRIVATE_INDEX_ID}/descriptor.json",
                                   headers=bearer(token))
    check(status == 200 and answer["access"] == "private" and
          answer["inputSchema"] == {"type": "object"} and
          answer["provider"]["name"] == "Access Test Provider",
          "with a token, the descriptor URL serves the private skill's descriptor",
          f"{status} {answer}")
    status, index = node.get_json("/.well-known/skill-sharing?type=api", headers=bearer(token))
    check(len(index["skills"]) == 3 and
          all(e["capability_type"] == "api" for e in index["skills"]) and
          index["provider"] == {"name": "Access Test Provider", "url": "https://example.com"},
          "with a token, ?type=api lists all three skills, each of that type", str(index))
    status, index = node.get_json("/.well-known/skill-sharing?type=none", headers=bearer(token))
    check(status == 200 and index["skills"] == [], "?type= of no skill is an empty index",
          str(index))


def check_watch(node, token):
    anonymous = Stream(node, f"scene={SCENE}")
    authed = Stream(node, f"scene={SCENE}", token)
    check(anonymous.status == 200 and authed.status == 200, "both watch streams open",
          f"{anonymous.status} {authed.status}")
    check(wait_for(lambda: anonymous.seen("added", "open-skill") and
                   anonymous.seen("added", "guarded-skill"), 10),
          "the anonymous stream shows the public and restricted skills", anonymous.raw[:300])
    check(wait_for(lambda: authed.seen("added", PRIVATE_ID), 10),
          "the authenticated stream shows the private skill", authed.raw[:300])
    # A private skill registered while both watch, then a public marker after it.
    later = skill("agent-priv", PRIVATE_ID + "-later", "1.0.0", "private")
    marker = skill("agent-pub", "marker-skill", "1.0.0", "public")
    statuses = [node.call("POST", "/api/skills", body)[0] for body in (later, marker)]
    check(statuses == [201, 201], "a private, then a public skill register while both watch",
          str(statuses))
    check(wait_for(lambda: anonymous.seen("added", "marker-skill"), 10),
          "the anonymous stream shows a public skill registered later", anonymous.raw[-300:])
    check(wait_for(lambda: authed.seen("added", PRIVATE_ID + "-later"), 10),
          "the authenticated stream shows a private skill registered later", authed.raw[-300:])
    check(PRIVATE_ID not in anonymous.raw, "the anonymous watch stream never carried a private "
          "skill", anonymous.raw[:500])
    node.call("DELETE", f"/api/skills/{PRIVATE_ID}-later?agentId=agent-priv")
    check(wait_for(lambda: authed.seen("removed", PRIVATE_ID + "-later"), 10),
          "the authenticated stream sees the private skill removed", authed.raw[-300:])
    anonymous.close()
    authed.close()


def check_bad_tokens(node, token):
    status, body, headers = node.get("/.well-known/skill-sharing", headers=bearer("skn_wrong"))
    answer = json.loads(body)
    check(status == 401 and answer["error"] == "UNAUTHENTICATED" and
          headers.get("WWW-Authenticate", "").startswith("Bearer"),
          "a bad token is answered 401 with WWW-Authenticate: Bearer", f"{status} {headers}")
    status, _, headers = node.get("/api/skills", headers={"Authorization": "Basic dXNlcjpwYXNz"})
    check(status == 401, "another authorization scheme is answered 401", str(status))
    # From another source address on loopback, past the limit: 429, and only there.
    host, port = node.http_address().rsplit(":", 1)
    statuses = []
    retry_after = None
    for _ in range(FAILURES_PER_MINUTE + 2):
        conn = http.client.HTTPConnection(host, int(port), timeout=5,
                                          source_address=("127.0.0.2", 0))
        conn.request("GET", "/api/skills", headers=bearer("skn_guess"))
        response = conn.getresponse()
        statuses.append(response.status)
        retry_after = response.getheader("Retry-After") or retry_after
        response.read()
        conn.close()
    check(statuses[:FAILURES_PER_MINUTE] == [401] * FAILURES_PER_MINUTE and
          statuses[FAILURES_PER_MINUTE:] == [429, 429] and retry_after is not None,
          f"past {FAILURES_PER_MINUTE} failures a minute a source gets 429 with Retry-After",
          f"{statuses} {retry_after}")
    conn = http.client.HTTPConnection(host, int(port), timeout=5, source_address=("127.0.0.2", 0))
    conn.request("GET", "/api/skills", headers=bearer(token))
    limited = conn.getresponse().status
    conn.close()
    check(limited == 429, "that source is refused even with a good token until its minute ends",
          str(limited))
    status, _, _ = node.get("/api/skills", headers=bearer(token))
    check(status == 200, "other sources are not limited", str(status))
    status, body, _ = node.get("/metrics")
    failures = [line for line in body.splitlines()
                if line.startswith("skillnode_auth_failures_total ")]
    check(failures and float(failures[0].split()[1]) >= FAILURES_PER_MINUTE + 1,
          "failures are counted in /metrics", str(failures))


def check_collision(node):
    status, _ = node.call("POST", "/api/skills", skill("x.y", "z", "1.0.0", "public", "other"))
    check(status == 201, "agent x.y's skill z registers", str(status))
    status, answer = node.call("POST", "/api/skills", skill("x", "y.z", "1.5.0", "public", "other"))
    check(status == 400 and answer["error"] == "INVALID" and
          "x.y.z-v1" in answer["message"] and "agent x's skill y.z" in answer["message"] and
          "agent x.y's skill z" in answer["message"],
          "agent x's skill y.z, whose index id x.y.z-v1 is taken, is refused naming both",
          f"{status} {answer}")


def main():
    require_binary()
    tokens_file = os.path.join(temp_dir("skillnode-tokens-"), "tokens")
    config = f"""
node:
  http: {{listen: "127.0.0.1:0"}}
  auth: {{tokensFile: "{tokens_file}", failuresPerMinute: {FAILURES_PER_MINUTE}}}
provider: {{name: Access Test Provider, url: "https://example.com"}}
"""
    node = Node("access", ["--port", "0"], config=config).start()
    # A peer to hold the node's DHT records (a lone node's watch streams, fed by DHT listen,
    # would show nothing at all, and prove nothing).
    peer = Node("peer", ["--port", "0", "--bootstrap", f"127.0.0.1:{node.udp_port()}",
                         "--http", "127.0.0.1:0"]).start()
    check(wait_for(lambda: node.contacts() >= 1 and peer.contacts() >= 1, 30, 0.1),
          "the node and its peer know each other")
    for name, body in SKILLS.items():
        status, answer = node.call("POST", "/api/skills", body)
        check(status == 201, f"the {name} skill registers", f"{status} {answer}")

    # Tokens through the real binary, picked up by the running node.
    added = run(["token", "add", "ci", "--config", node.config_path])
    token = added.stdout.strip()
    check(added.returncode == 0 and token.startswith("skn_"),
          "skillnode token add prints a new token", added.stderr)
    with open(tokens_file) as f:
        text = f.read()
    check(token not in text and "ci sha256:" in text and
          (os.stat(tokens_file).st_mode & 0o777) == 0o600,
          "the token file holds only its hash, mode 0600", text)
    status = node.get("/api/skills", headers=bearer(token))[0]
    check(status == 200, "the running node takes the new token at once, without a restart",
          str(status))
    listed = run(["token", "list", "--config", node.config_path, "--json"])
    check(listed.returncode == 0 and [t["name"] for t in json.loads(listed.stdout)] == ["ci"],
          "skillnode token list names it", listed.stdout + listed.stderr)
    dup = run(["token", "add", "ci", "--config", node.config_path])
    check(dup.returncode == 1 and "exists" in dup.stderr, "a second token of one name is refused",
          dup.stderr)

    walk_without_token(node)
    walk_with_token(node, token)
    check_watch(node, token)
    check_collision(node)
    check_bad_tokens(node, token)

    spare = run(["token", "add", "spare", "--config", node.config_path]).stdout.strip()
    revoked = run(["token", "revoke", "ci", "--config", node.config_path])
    check(revoked.returncode == 0, "skillnode token revoke ci", revoked.stderr)
    status = node.get("/api/skills", headers=bearer(token))[0]
    check(status == 401, "the revoked token is answered 401 by the running node at once",
          str(status))
    check(node.get("/api/skills", headers=bearer(spare))[0] == 200, "the other token still works")
    missing = run(["token", "revoke", "nobody", "--config", node.config_path])
    check(missing.returncode == 1 and "no token named nobody" in missing.stderr,
          "revoking an unknown name fails saying so", missing.stderr)

    # --data-dir, as keygen takes it: <dir>/tokens.
    data_dir = temp_dir("skillnode-tokdir-")
    made = run(["token", "add", "other", "--data-dir", data_dir])
    check(made.returncode == 0 and os.path.exists(os.path.join(data_dir, "tokens")),
          "token add --data-dir writes <dir>/tokens", made.stderr)
    with open(os.path.join(data_dir, "tokens"), "a") as f:
        f.write("broken line\n")
    broken = run(["token", "list", "--data-dir", data_dir])
    check(broken.returncode == 1 and "line 4" in broken.stderr,
          "a malformed token file is an error naming the line", broken.stderr)

    code, seconds = node.stop()
    check(code == 0, f"the node stops cleanly ({seconds:.2f} s)", str(code))
    finish()


if __name__ == "__main__":
    main()
