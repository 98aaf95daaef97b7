#!/usr/bin/env python3
"""[uv] Word search across 8 skillnode processes on 127.0.0.1 through the DHT's keyword index
(issue 47; docs/search.md, docs/protocol.md "Keyword index").

2,000 skills with real descriptions (an action on a kind of document, in a domain, with its
capability and tags) are registered, 250 on each of 8 nodes; every node publishes each skill's
terms as signed pointers into the keyword index. No node holds every record, so a word search
must read the index and fetch records from other nodes. On a node a skill is not registered
on:
1. a word search finds it first (`GET /api/skills?q=`), and a phrase of words carried by a
   dozen skills finds every one of them and no other (every word must match);
2. a typo in one word and the last word cut short still find it;
3. once it is unregistered on its node, it stops appearing: its tombstone replaces the
   record, and the index's pointer leads only to that tombstone;
4. words no skill has find nothing (404 DISC_002 on POST, an empty list on GET).
Run: SKILLNODE=build/daemon/node/skillnode python3 tests/node/cluster/word_search_cluster_test.py
"""
import os
import random
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import Node, check, finish, require_binary, wait_for

NODES = 8
SKILLS = 2000
JOIN_TIMEOUT_S = 60
# Registrations publish a record and up to 32 term pointers each; on a loaded 2-core machine
# 2,000 of them settle in well under this.
PUBLISH_TIMEOUT_S = 240
# Heartbeats an hour apart: the 2,000 registrations stay live (and published) without a client
# sending them, for as long as the test runs. Each node publishes the index of its 250 skills
# (about 5,000 pointers) at 100 a second rather than the default 20, so that the test takes a
# minute, not four. The 8 nodes share one source address, 127.0.0.1, where a network would
# give each its own, so the per-IP request limit (500/s by default, meant for one peer per
# address) is raised to the global one: otherwise the 7 peers' publishing together is dropped
# as one flooding source.
CONFIG = """
node:
  http: {listen: "127.0.0.1:0"}
  kademlia:
    rateLimit: {perIp: 20000, perIpBurst: 40000}
discovery:
  dht: {indexJobsPerSecond: 100}
  healthCheck: {heartbeatInterval: 3600000, timeout: 3600000, unhealthyThreshold: 3}
"""

ACTIONS = [("summarize", "Summarizes"), ("translate", "Translates"), ("convert", "Converts"),
           ("extract", "Extracts the tables of"), ("search", "Searches"),
           ("classify", "Classifies"), ("sign", "Signs"), ("validate", "Validates"),
           ("compress", "Compresses"), ("schedule", "Schedules"), ("monitor", "Monitors"),
           ("redact", "Redacts")]
OBJECTS = ["PDF documents", "spreadsheets", "invoices", "emails", "meeting notes", "images",
           "audio recordings", "contracts", "source code", "web pages", "calendar events",
           "chat messages", "log files", "receipts", "slides", "subtitles"]
DOMAINS = ["for legal teams", "for finance", "in Japanese", "in German", "for customer support",
           "for hospital records", "on Feishu", "on Slack", "for research papers", "on GitHub",
           "for sales pipelines", "for school homework", "in Chinese", "for travel agencies"]
# One skill of its own words, to be found exactly.
NEEDLE = {"agentId": "agent-needle", "skillId": "feishu-calendar-booking", "version": "1.0.0",
          "skillType": "tool-skill", "endpoint": "http://127.0.0.1:9/needle",
          "capabilities": ["calendar-write"],
          "descriptor": {"name": "Feishu Calendar Booking",
                         "description": "Books meeting rooms and creates events in a Feishu "
                                        "calendar for a whole team.",
                         "tags": ["feishu", "calendar", "rooms"]}}


def skill_of(i):
    rng = random.Random(i)
    verb, text = rng.choice(ACTIONS)
    obj = rng.choice(OBJECTS)
    domain = rng.choice(DOMAINS)
    return {"agentId": f"agent-{i % NODES}", "skillId": f"skill-{i:04d}", "version": "1.0.0",
            "skillType": "tool-skill", "endpoint": f"http://127.0.0.1:9/skill/{i}",
            "capabilities": [f"{verb}-{obj.split()[0].lower()}"],
            "descriptor": {"name": f"{verb.title()} {obj}",
                           "description": f"{text} {obj} {domain}, quickly and privately.",
                           "tags": [verb, obj.split()[-1].lower()]}}


def search(node, q):
    """(status, [skill ids in rank order]) of GET /api/skills?q= (fresh: no cache)."""
    status, answer = node.get_json(
        "/api/skills?" + urllib.parse.urlencode({"q": q, "fresh": "true", "limit": 50}),
        timeout=20)
    return status, [s["id"] for s in (answer or {}).get("skills", [])] if status == 200 else []


def main():
    require_binary()
    seed = Node("n0", ["--port", "0"], config=CONFIG).start()
    nodes = [seed] + [Node(f"n{i}", ["--port", "0", "--bootstrap",
                                     f"127.0.0.1:{seed.udp_port()}"], config=CONFIG).start()
                      for i in range(1, NODES)]
    check(wait_for(lambda: all(n.contacts() >= NODES - 1 for n in nodes), JOIN_TIMEOUT_S),
          f"{NODES} nodes know each other")

    started = time.monotonic()
    for i in range(SKILLS):
        status, answer = nodes[i % NODES].call("POST", "/api/skills", skill_of(i), timeout=20)
        if status not in (200, 201):
            check(False, f"skill {i} registers", f"{status} {answer}")
    status, answer = nodes[2].call("POST", "/api/skills", NEEDLE)
    check(status in (200, 201), "the needle skill registers on n2", f"{status} {answer}")
    print(f"registered {SKILLS + 1} skills in {time.monotonic() - started:.1f} s", flush=True)

    asker = nodes[6]
    found = wait_for(lambda: search(asker, "feishu calendar booking")[1][:1] ==
                     ["feishu-calendar-booking"], PUBLISH_TIMEOUT_S, interval=2)
    check(found, "a word search on n6 finds the skill registered on n2, first",
          str(search(asker, "feishu calendar booking")))

    for q, what in [("feishu calender booking", "a typo in one word"),
                    ("feishu calendar boo", "the last word cut short"),
                    ("booking rooms on feishu", "other words of it, in another order")]:
        status, ids = search(asker, q)
        check(status == 200 and "feishu-calendar-booking" in ids[:3],
              f"{what} finds it: q={q!r}", f"{status} {ids[:5]}")

    expected = {f"skill-{i:04d}" for i in range(SKILLS)
                if skill_of(i)["descriptor"]["description"].startswith("Translates invoices")}
    # Each node publishes its 250 skills' pointers (about 15 each) a few lookups at a time: the
    # index fills for a while after the last registration returned.
    asked = time.monotonic()
    wait_for(lambda: set(search(nodes[3], "translating invoices")[1]) == expected,
             PUBLISH_TIMEOUT_S, interval=5)
    print(f"the phrase found its skills {time.monotonic() - started:.0f} s after the first "
          f"registration ({time.monotonic() - asked:.0f} s of waiting)", flush=True)
    status, ids = search(nodes[3], "translating invoices")
    check(status == 200 and expected and set(ids) == expected,
          f"a phrase carried by {len(expected)} of 2,000 skills finds every one of them, and only"
          f" them", f"{status} missing {sorted(expected - set(ids))[:5]} of {len(expected)}, "
          f"others {sorted(set(ids) - expected)[:5]}")

    status, ids = search(asker, "xylophone quokka")
    check(status == 200 and ids == [], "words no skill has find nothing", f"{status} {ids}")

    status, answer = nodes[2].call("DELETE", "/api/skills/feishu-calendar-booking?agentId="
                                   "agent-needle")
    check(status in (200, 204), "the needle skill is unregistered on n2", f"{status} {answer}")
    gone = wait_for(lambda: "feishu-calendar-booking" not in search(asker, "feishu calendar "
                                                                           "booking")[1],
                    60, interval=2)
    check(gone, "once unregistered it stops appearing in n6's word search",
          str(search(asker, "feishu calendar booking")))
    for n in nodes:
        n.stop()
    finish()


if __name__ == "__main__":
    main()
