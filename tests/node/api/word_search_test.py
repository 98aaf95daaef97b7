#!/usr/bin/env python3
"""[uv] The word search's surfaces (issue 47; docs/api.md "q, the word search") on real nodes.

Node A holds registrations with real descriptions; node B, which only knows A through the DHT,
is asked. q on GET /api/skills and POST /api/skills/search: every word must match, in any
inflection ("summarising pdfs" finds "Summarize PDF"), the last also as a prefix; q with a
capability filter; q on the capability endpoint, alone and with capability=; `skillnode
discover --query`; and every refusal of a bad q (too long, too many words, not UTF-8, not a
string) is a 400 naming q. MCP list_skills' query is driven by the MCP SDK in tests/node/mcp/.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/api/word_search_test.py
"""
import json
import os
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import Node, check, finish, require_binary, run, wait_for

CAPABILITIES_PATH = "/api/v1/discovery/capabilities"
# (skill id, name, description, capability, tags)
SKILLS = [
    ("pdf-summary", "Summarize PDF",
     "Reads a PDF document and writes what it says as five short bullet points.",
     "document-summary", ["pdf"]),
    ("pdf-merge", "Merge PDF files",
     "Joins several PDF documents into one file, in the order given.", "document-edit", ["pdf"]),
    ("word-summary", "Summarise Word documents",
     "Summarises a Word document in one paragraph of plain text.", "document-summary", ["docx"]),
    ("feishu-calendar", "Feishu Calendar",
     "Creates, moves and lists the events of a Feishu calendar.", "calendar-write", []),
    ("jp-translate", "Translate Japanese",
     "Translates Japanese text into English, keeping names and honorifics.", "translate", []),
    ("image-resize", "Resize Images",
     "Resizes and crops images to the sizes a web page needs.", "image-edit", ["web"]),
]


def registration(skill_id, name, description, capability, tags):
    return {"agentId": f"words-agent-{capability}", "skillId": skill_id, "version": "1.0.0",
            "skillType": "tool-skill", "endpoint": f"http://127.0.0.1:9/{skill_id}",
            "capabilities": [capability], "scenes": ["office"],
            "descriptor": {"name": name, "description": description, "tags": tags}}


def get_ids(node, **params):
    """(status, sorted skill ids, answer) of GET /api/skills with `params` (fresh: no cache)."""
    query = urllib.parse.urlencode(dict(params, fresh="true"))
    status, answer = node.get_json(f"/api/skills?{query}")
    ids = sorted(s["id"] for s in (answer or {}).get("skills", [])) if status == 200 else None
    return status, ids, answer


def post_ids(node, body):
    status, answer = node.call("POST", "/api/skills/search", dict(body, fresh=True))
    ids = sorted(s["id"] for s in (answer or {}).get("skills", [])) if status == 200 else None
    return status, ids, answer


def check_get(b):
    for q, expected in [("summarising pdfs", ["pdf-summary"]),
                        ("pdf", ["pdf-merge", "pdf-summary"]),
                        ("PDF documents", ["pdf-merge", "pdf-summary"]),
                        ("summ", ["pdf-summary", "word-summary"]),  # the last word as a prefix
                        ("translating japanese", ["jp-translate"]),
                        ("feishu calendar events", ["feishu-calendar"]),
                        ("calendar pdf", []),  # every word must match
                        ("xylophone", [])]:
        status, ids, answer = get_ids(b, q=q)
        check(status == 200 and ids == expected, f"GET /api/skills?q={q} finds {expected}",
              f"{status} {ids} {json.dumps(answer)[:300]}")
    status, ids, answer = get_ids(b, q="summ", capability="document-summary", keyword="word")
    check(status == 200 and ids == ["word-summary"],
          "GET q combines with capability and keyword filters", f"{status} {ids}")
    status, ids, _ = get_ids(b, q="pdf", capability="document-edit")
    check(status == 200 and ids == ["pdf-merge"], "GET q=pdf&capability=document-edit",
          f"{status} {ids}")
    status, ids, answer = get_ids(b, q="   ", capability="translate")
    check(status == 200 and ids == ["jp-translate"], "a q of white space filters nothing",
          f"{status} {ids}")


def check_post(b):
    for body, expected, what in [
            ({"q": "summarising pdfs"}, ["pdf-summary"], "q alone"),
            ({"q": "summarise", "capabilities": ["document-summary"]},
             ["pdf-summary", "word-summary"], "q with a capability"),
            ({"q": "document", "capabilities": ["document-summary"], "scenes": ["office"],
              "types": ["tool-skill"], "version": ">=1.0.0"},
             ["pdf-summary", "word-summary"], "q with capability, scene, type and version"),
            ({"q": "resizing web images", "skillId": "image-resize"}, ["image-resize"],
             "q with a skill id"),
            ({"q": None, "capabilities": ["translate"]}, ["jp-translate"], "q null")]:
        status, ids, answer = post_ids(b, body)
        check(status == 200 and ids == expected,
              f"POST /api/skills/search {what} finds {expected}", f"{status} {ids} {answer}")
    status, answer = b.call("POST", "/api/skills/search", {"q": "xylophone", "fresh": True})
    check(status == 404 and (answer or {}).get("error") == "DISC_002",
          "POST with a q of nothing is the search's 404 DISC_002", f"{status} {answer}")


def check_refusals(b):
    too_long = "a" * 257
    too_many = " ".join(["word"] * 17)
    for target, what in [(f"/api/skills?q={too_long}", "257 bytes"),
                         (f"/api/skills?q={urllib.parse.quote(too_many)}", "17 words"),
                         ("/api/skills?q=pdf%C0%AF&capability=x", "not UTF-8")]:
        status, answer = b.get_json(target)
        details = (answer or {}).get("details", {})
        check(status == 400 and details.get("field") == "q",
              f"GET q of {what} is a 400 naming q", f"{status} {answer}")
    for q, what in [(too_long, "257 bytes"), (too_many, "17 words"), (42, "a number"),
                    (["pdf"], "an array")]:
        status, answer = b.call("POST", "/api/skills/search", {"q": q, "capabilities": ["x"]})
        details = (answer or {}).get("details", {})
        check(status == 400 and details.get("field") == "q",
              f"POST q of {what} is a 400 naming q", f"{status} {answer}")
    status, answer = b.call("POST", "/api/skills/search", '{"q": "pdf \\udc80"}')
    check(status == 400, "POST q with a lone surrogate escape is a 400", f"{status} {answer}")
    for target, what in [(f"{CAPABILITIES_PATH}?q={too_long}", "257 bytes"),
                         (f"{CAPABILITIES_PATH}?q=pdf%C0%AF", "not UTF-8")]:
        status, answer = b.get_json(target)
        details = (answer or {}).get("details", {})
        check(status == 400 and (answer or {}).get("error") == "invalid_parameter" and
              details.get("parameter") == "q",
              f"capability endpoint: q of {what} is a 400 invalid_parameter naming q",
              f"{status} {answer}")
    status, answer = b.get_json(f"{CAPABILITIES_PATH}?colour=red")
    check(status == 400 and "q" in (answer or {}).get("details", {}).get("allowed", []),
          "capability endpoint: an unknown parameter's allowed list names q", f"{status} {answer}")


def capability_skill_ids(node, **params):
    query = urllib.parse.urlencode(params)
    status, answer = node.get_json(f"{CAPABILITIES_PATH}?{query}")
    ids = sorted(skill["id"] for agent in (answer or {}).get("capabilities", [])
                 for skill in agent.get("skills", [])) if status == 200 else None
    return status, ids, answer


def check_capabilities(b):
    status, ids, answer = capability_skill_ids(b, q="translating japanese")
    check(status == 200 and ids == ["jp-translate"],
          "capability endpoint: q= finds the skill through the network", f"{status} {answer}")
    status, ids, answer = capability_skill_ids(b, q="pdf", capability="document-edit")
    check(status == 200 and ids == ["pdf-merge"], "capability endpoint: q= with capability=",
          f"{status} {answer}")
    status, ids, answer = capability_skill_ids(b, q="xylophone")
    check(status == 200 and ids == [] and answer.get("total_agents") == 0,
          "capability endpoint: a q of nothing is an empty answer", f"{status} {answer}")


def check_cli(b):
    done = run(["discover", "--http", b.http_address(), "--query", "summarising pdfs", "--json"])
    answer = json.loads(done.stdout) if done.returncode == 0 else {}
    ids = sorted(s["id"] for s in answer.get("skills", []))
    check(ids == ["pdf-summary"], "skillnode discover --query searches by words",
          done.stdout[-300:] + done.stderr[-300:])
    done = run(["discover", "--http", b.http_address(), "-q", "pdf", "-C", "document-edit"])
    check(done.returncode == 0 and "pdf-merge" in done.stdout and "pdf-summary" not in done.stdout,
          "skillnode discover -q with --capability", done.stdout + done.stderr)


def main():
    require_binary()
    a = Node("words-a", ["--port", "0"]).start()
    b = Node("words-b", ["--port", "0", "--bootstrap", f"127.0.0.1:{a.udp_port()}",
                         "--http", "127.0.0.1:0"]).start()
    check(wait_for(lambda: a.contacts() >= 1 and b.contacts() >= 1, 30, 0.1),
          "nodes A and B know each other")
    for skill in SKILLS:
        status, answer = a.call("POST", "/api/skills", registration(*skill))
        check(status == 201, f"{skill[0]} registers with node A", f"{status} {answer}")
    check(wait_for(lambda: get_ids(b, q="resize images")[1] == ["image-resize"], 20, 0.2),
          "node B finds a skill registered with node A by words of its name")
    check_get(b)
    check_post(b)
    check_refusals(b)
    check_capabilities(b)
    check_cli(b)
    for node in (a, b):
        code, _ = node.stop()
        check(code == 0, f"{node.name} shuts down cleanly", str(code))
    finish()


if __name__ == "__main__":
    main()
