#!/usr/bin/env python3
"""[uv] Followed import sources (docs/formats.md "Following a source"), end to end.

A source site on 127.0.0.1 (import_source_site.py) serves an MCP Registry (two pages joined by a
cursor), a signed A2A Agent Card and an Agent Skills index. Node A (import.refreshInterval
1.5 s) imports the registry and the card, which it then follows, and the index with --once:
- GET /api/imports lists the two followed sources with what their last import did;
- the registry marks a server deleted: the next refresh, which asks only for what changed
  (`updated_since`), unpublishes it; the card drops a skill: the next refresh unpublishes that
  one ("no longer listed by the source");
- A restarts: <dataDir>/imports lists the followed sources, and A imports them again at once
  (the registry pulled whole, no `updated_since`), while the --once import is not repeated;
- DELETE /api/imports?url= stops following the registry and unregisters its skills; after
  another restart it is not imported again;
- a corrupt imports file is set aside and the node starts, following nothing;
- bad requests (an unknown source, no url, `follow` not a boolean) get 4xx errors naming them.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/importers/import_follow_test.py
"""
import glob
import json
import os
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from skillnode_harness import (Node, check, finish, require_binary, run,  # noqa: E402
                               temp_dir, wait_for)
sys.path.insert(0, HERE)
from import_source_site import SKILLS, Source, card_of  # noqa: E402

CONFIG = """
node:
  http: {listen: "127.0.0.1:0"}
discovery:
  healthCheck:
    heartbeatInterval: 500
    timeout: 2000
import:
  allowHttp: true
  allowedHosts: ["127.0.0.1"]
  fetchTimeout: 2000
  refreshInterval: 1500
"""
WEATHER = ("io.github.alice", "weather")
CALC = ("com.example", "calc")


def cli_import(node, url, *extra):
    done = run(["import", url, "--http", node.http_address(), "--json", *extra], timeout=60)
    report = json.loads(done.stdout) if done.returncode == 0 else {}
    return done, report


def registered(node):
    """(agentId, skillId) of every skill registered on the node itself."""
    status, answer = node.get_json("/api/skills?limit=1000")
    if status != 200:
        return set()
    found = set()
    for skill in answer.get("skills", []):
        for provider in skill.get("providers", []) or [skill]:
            if provider.get("agentId") and (provider.get("skillId") or skill.get("id")):
                found.add((provider["agentId"], provider.get("skillId") or skill.get("id")))
    return found


def has_skill(node, skill_id, agent_id=None):
    status, answer = node.get_json(f"/api/skills/{urllib.parse.quote(skill_id, safe='')}")
    if status != 200:
        return False
    return any(agent_id is None or p.get("agentId") == agent_id
               for p in answer.get("providers", []))


def followed(node):
    status, answer = node.get_json("/api/imports")
    return {s["url"]: s for s in answer.get("sources", [])} if status == 200 else {}


def registry_requests(source, start=0):
    return [r for r in source.requests[start:] if r.startswith("/reg/v0.1/servers")]


def first_imports(a, source, registry_url, card_url, index_url):
    done, report = cli_import(a, registry_url, "--type", "mcp-registry")
    check(done.returncode == 0 and {(s["agentId"], s["skillId"]) for s in report["imported"]} ==
          {WEATHER, CALC}, "skillnode import REGISTRY imports its two servers",
          done.stdout[-1500:] + done.stderr[-1500:])
    done, report = cli_import(a, card_url)
    check(done.returncode == 0 and len(report["imported"]) == 2,
          "skillnode import CARD imports the card's two skills", done.stdout[-1500:])
    agent = report["imported"][0]["agentId"] if report.get("imported") else ""
    done, report = cli_import(a, index_url, "--type", "agent-skills", "--once")
    check(done.returncode == 0 and len(report["imported"]) == 1,
          "skillnode import INDEX --once imports its one good skill", done.stdout[-1500:])
    sources = followed(a)
    check(sorted(sources) == sorted([registry_url, card_url]),
          "GET /api/imports lists the registry and the card, not the --once index",
          json.dumps(sources)[:1500])
    reg = sources.get(registry_url, {})
    check(reg.get("type") == "mcp-registry" and reg.get("skills") == 2 and
          reg.get("state") in ("imported", "running") and "followedAt" in reg,
          "the registry's entry has its type, state and skills count", json.dumps(reg))
    return agent


def refreshes(a, source, card_url, agent):
    mark = len(source.requests)
    source.registry_deleted = True
    gone = wait_for(lambda: not has_skill(a, CALC[1], CALC[0]), 15, 0.2)
    check(gone, "the registry marks calc deleted: a refresh unpublishes it")
    asked = registry_requests(source, mark)
    check(any("updated_since=" in r for r in asked),
          "the refresh asks the registry only for what changed (updated_since)", str(asked[:4]))
    check(has_skill(a, WEATHER[1], WEATHER[0]), "weather, unchanged, stays registered")
    source.docs["/.well-known/agent-card.json"] = json.dumps(source.signer.signed_card(
        card_of("Route Planner", SKILLS[:1]), source.url + "/keys.json")).encode()
    dropped = wait_for(lambda: not has_skill(a, "eta", agent), 15, 0.2)
    check(dropped, "the card drops a skill: a refresh unpublishes it")
    check(has_skill(a, "plan-route", agent), "the card's other skill stays registered")
    card = followed(a).get(card_url, {})
    check(card.get("skills") == 1 and card.get("state") in ("imported", "running"),
          "the card's entry counts one skill now", json.dumps(card))


def restart(a, source, registry_url, card_url, agent):
    a.stop()
    with open(os.path.join(a.data_dir, "imports")) as f:
        saved = json.load(f)
    check(saved.get("format") == "skillnode-imports" and
          sorted(s["url"] for s in saved.get("sources", [])) == sorted([registry_url, card_url]),
          "<dataDir>/imports lists the followed sources", json.dumps(saved)[:800])
    mark = len(source.requests)
    a.start()
    back = wait_for(lambda: has_skill(a, WEATHER[1], WEATHER[0]) and
                    has_skill(a, "plan-route", agent), 15, 0.2)
    check(back, "after a restart A imports the followed sources again at once")
    asked = registry_requests(source, mark)
    check(asked and "updated_since" not in asked[0],
          "the first pull after a restart is whole (no updated_since)", str(asked[:3]))
    check(not has_skill(a, "pdf-summary"), "the --once import is not repeated after a restart")
    check(not has_skill(a, CALC[1], CALC[0]), "calc, deleted on the registry, stays unpublished")


def unfollow(a, registry_url, card_url, agent):
    query = urllib.parse.urlencode({"url": registry_url})
    status, answer = a.call("DELETE", f"/api/imports?{query}")
    check(status == 200 and answer.get("unregistered") == 1,
          "DELETE /api/imports?url=REGISTRY stops following it and unregisters weather",
          f"{status} {answer}")
    check(not has_skill(a, WEATHER[1], WEATHER[0]), "weather is no longer registered")
    check(sorted(followed(a)) == [card_url], "only the card is followed now")
    status, answer = a.call("DELETE", f"/api/imports?{query}")
    check(status == 404 and answer.get("error") == "NOT_FOUND" and
          registry_url in answer.get("message", ""),
          "unfollowing it again answers 404 naming the URL", f"{status} {answer}")
    status, answer = a.call("DELETE", "/api/imports")
    check(status == 400 and "url" in answer.get("message", ""),
          "DELETE /api/imports without ?url= answers 400", f"{status} {answer}")
    status, answer = a.call("POST", "/api/import", {"url": card_url, "follow": "yes"})
    check(status == 400 and answer.get("details", {}).get("field") == "follow",
          "POST /api/import with a follow that is not a boolean answers 400 naming it",
          f"{status} {answer}")
    a.stop()
    a.start()
    check(wait_for(lambda: has_skill(a, "plan-route", agent), 15, 0.2),
          "after another restart the card is imported again")
    check(not has_skill(a, WEATHER[1], WEATHER[0]), "and the unfollowed registry is not")


def corrupt_file(a):
    a.stop()
    path = os.path.join(a.data_dir, "imports")
    with open(path, "w") as f:
        f.write('{"format": "skillnode-imports", "version": 1, "sources": [{"url": 7}]}')
    a.start()
    aside = glob.glob(path + ".corrupt-*")
    check(len(aside) == 1 and not os.path.exists(path),
          "a corrupt imports file is set aside and the node starts", str(aside))
    check("sources[0]: no \"url\" string" in a.log_text(),
          "the node's log names the problem in the file", a.log_text()[-1500:])
    check(followed(a) == {}, "the node follows nothing then")


def main():
    require_binary()
    work = temp_dir("skillnode-import-follow-")
    source = Source(work)
    registry_url = source.url + "/reg"
    card_url = source.url + "/.well-known/agent-card.json"
    index_url = source.url + "/.well-known/agent-skills/index.json"
    a = Node("follow-a", ["--port", "0"], config=CONFIG).start()
    try:
        agent = first_imports(a, source, registry_url, card_url, index_url)
        refreshes(a, source, card_url, agent)
        restart(a, source, registry_url, card_url, agent)
        unfollow(a, registry_url, card_url, agent)
        corrupt_file(a)
        status, metrics, _ = a.get("/metrics")
        check(status == 200 and "skillnode_import_followed_sources 0" in metrics,
              "/metrics counts the followed sources")
    finally:
        a.stop()
    finish()


if __name__ == "__main__":
    main()
