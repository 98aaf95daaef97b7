#!/usr/bin/env python3
"""[uv] A private skill stays on its node; the registry query covers the network.

Two skillnode processes on 127.0.0.1, B joined through A. A public and a private skill of one
capability type register with A. From B the public one is found (search, /skills?type=, its
descriptor URL served by B through the DHT), the private one is not: not by capability, not
by skill id, not in B's DHT store scanned whole, not even with a valid token of B's, since it
never left A. A itself shows it only with its own token.
Run: SKILLNODE=build/release/node/skillnode python3 tests/node/auth/access_network_test.py
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import Node, check, finish, require_binary, run, temp_dir, wait_for

CTYPE = "net-api"
CAPABILITY = "net-cap"


def skill(skill_id, access):
    return {"agentId": "agent-net", "skillId": skill_id, "version": "3.1.0", "skillType": "tool",
            "endpoint": "http://127.0.0.1:9/" + skill_id, "capabilities": [CAPABILITY],
            "scenes": ["net-scene"],
            "descriptor": {"name": skill_id, "description": f"{access} on A",
                           "capabilityType": CTYPE, "access": access}}


def node_config(tokens_file):
    return f"""
node:
  http: {{listen: "127.0.0.1:0"}}
  auth: {{tokensFile: "{tokens_file}"}}
"""


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def ids_of(answer, key="skills", field="skillId"):
    return sorted(s[field] for s in (answer or {}).get(key, []))


def main():
    require_binary()
    files = temp_dir("skillnode-net-tokens-")
    a = Node("a", ["--port", "0"], config=node_config(os.path.join(files, "a"))).start()
    b = Node("b", ["--port", "0", "--bootstrap", f"127.0.0.1:{a.udp_port()}"],
             config=node_config(os.path.join(files, "b"))).start()
    check(wait_for(lambda: a.contacts() >= 1 and b.contacts() >= 1, 30, 0.1),
          "the two nodes know each other")
    token_a = run(["token", "add", "a", "--config", a.config_path]).stdout.strip()
    token_b = run(["token", "add", "b", "--config", b.config_path]).stdout.strip()
    for skill_id, access in (("net-public", "public"), ("net-private", "private")):
        status, answer = a.call("POST", "/api/skills", skill(skill_id, access))
        check(status == 201, f"the {access} skill registers with A", f"{status} {answer}")

    def found_on_b():
        status, answer = b.call("POST", "/api/skills/search",
                                {"capabilities": [CAPABILITY], "fresh": True},
                                headers=bearer(token_b))
        return ids_of(answer) if status == 200 else []
    check(wait_for(lambda: found_on_b() == ["net-public"], 10, 0.1),
          "B finds A's public skill by capability, and only it, even with B's token",
          str(found_on_b()))
    status, answer = b.call("POST", "/api/skills/search", {"skillId": "net-private",
                                                           "fresh": True},
                            headers=bearer(token_b))
    check(status == 404, "B does not find the private skill by its id", f"{status} {answer}")
    # B's whole store, scanned: a query with no DHT key reads every record B holds.
    status, answer = b.get_json("/api/skills?type=tool&fresh=true&limit=1000",
                                headers=bearer(token_b))
    check(status == 200 and "net-private" not in json.dumps(answer) and
          "net-public" in json.dumps(answer),
          "B's DHT store, scanned whole, holds the public skill and not the private one",
          str(answer)[:400])
    status, body, _ = b.get("/api/skills?fresh=true&limit=1000", headers=bearer(token_b))
    check(status == 200 and "net-private" not in body, "B's full listing has no private skill",
          body[:300])

    # The registry query for the whole network, from B.
    def registry_query():
        return b.get_json(f"/skills?type={CTYPE}", headers=bearer(token_b))
    wait_for(lambda: (registry_query()[1] or {}).get("total") == 1, 10, 0.1)
    status, answer = registry_query()
    entries = (answer or {}).get("skills", [])
    check(status == 200 and [e["id"] for e in entries] == ["agent-net.net-public-v3"],
          f"/skills?type={CTYPE} on B finds A's public skill, not the private one", str(answer))
    if entries:
        url = entries[0]["descriptor_url"]
        check(url.startswith(b.url + "/skills/"), "its descriptor_url points at B", url)
        status, descriptor = b.get_json(url[len(b.url):])
        a_id = a.info()["id"]
        check(status == 200 and descriptor["skillId"] == "net-public" and
              descriptor["provider"]["nodeId"] == a_id and descriptor["capabilityType"] == CTYPE,
              "B serves that descriptor, found through the DHT, naming A as the provider",
              f"{status} {descriptor}")
    status, answer = b.get_json("/skills/agent-net.net-private-v3/descriptor.json",
                                headers=bearer(token_b))
    check(status == 404, "B has no descriptor for A's private skill", f"{status} {answer}")

    # On A, the private skill is there for A's token only.
    status, answer = a.get_json(f"/skills?type={CTYPE}", headers=bearer(token_a))
    check([e["id"] for e in answer.get("skills", [])] ==
          ["agent-net.net-private-v3", "agent-net.net-public-v3"] or
          sorted(e["id"] for e in answer.get("skills", [])) ==
          ["agent-net.net-private-v3", "agent-net.net-public-v3"],
          "A answers /skills?type= with its private skill for A's token", str(answer))
    status, answer = a.get_json(f"/skills?type={CTYPE}", headers=bearer(token_b))
    check(status == 401, "B's token is not A's: A answers 401", str(status))
    status, answer = a.get_json(f"/.well-known/skill-sharing?type={CTYPE}")
    check([e["id"] for e in answer["skills"]] == ["agent-net.net-public-v3"],
          "A's anonymous index shows the public skill only", str(answer))
    finish()


if __name__ == "__main__":
    main()
