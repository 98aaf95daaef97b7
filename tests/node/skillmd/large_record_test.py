#!/usr/bin/env python3
"""[uv] Records larger than a datagram between real skillnode processes on 127.0.0.1.

Six nodes join through the first. Node A registers a SKILL.md folder whose description is
1,000 characters (CJK and ASCII, 2,500 bytes: valid under the Agent Skills specification, and
far over the 960 bytes that travel inline), and, through POST /api/skills, a skill whose
descriptor has a description of 1,024 characters and examples that are text and
{name, input, description} objects. Every other node finds both through the DHT with
GET /api/skills?capability=...&fresh=true: the description whole, byte for byte, and the
examples in the form they were registered in. A sent references and the other nodes pulled
the encodings (skillnode_store_references_total, skillnode_store_record_pulls_total), and no
node refused a STORE.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/skillmd/large_record_test.py
"""
import io
import json
import os
import sys
import tarfile
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from skillnode_harness import Node, check, finish, require_binary, wait_for  # noqa: E402

NODES = 6
JOIN_TIMEOUT_S = 60
FIND_TIMEOUT_S = 30
# Registrations must outlive the test without heartbeats.
CONFIG = """
node:
  http: {listen: "127.0.0.1:0"}
discovery:
  healthCheck:
    heartbeatInterval: 60000
    timeout: 600000
"""
CAPABILITY = "large-record-test"
# 1,000 characters: 750 CJK (3 bytes each) and 250 ASCII; 2,500 bytes of UTF-8.
FOLDER_DESCRIPTION = ("漢字の説明文" * 125) + ("Use it when a record is large. " * 8 + "ab")[:250]
DESCRIPTOR_DESCRIPTION = "技" * 1024
EXAMPLES = ["find the sales team",
            {"name": "by department", "input": {"dept": "sales", "depth": 2},
             "description": "Lists the people of one department."},
            {"input": [1, 2, 3]}]


def skill_md_tar():
    """A tar with SKILL.md at its top, as a client packs a folder."""
    text = ("---\nname: large-record\ndescription: " + FOLDER_DESCRIPTION + "\n"
            "license: Apache-2.0\ncompatibility: Requires skillnode\n"
            "metadata:\n  author: tests\n---\n# Large record\n\nA skill with a long description.\n")
    data = text.encode("utf-8")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        info = tarfile.TarInfo("SKILL.md")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def post_folder(node, query, body):
    url = node.url + "/api/skills/folder?" + urllib.parse.urlencode(query)
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/x-tar"})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def start_cluster():
    first = Node("large-0", ["--port", "0"], config=CONFIG).start()
    seed = f"127.0.0.1:{first.udp_port()}"
    nodes = [first] + [Node(f"large-{i}", ["--port", "0", "--bootstrap", seed],
                            config=CONFIG).start() for i in range(1, NODES)]
    joined = wait_for(lambda: all(n.contacts() >= NODES - 1 for n in nodes), JOIN_TIMEOUT_S,
                      interval=0.2)
    check(joined, f"all {NODES} nodes know each other",
          str([n.contacts() for n in nodes]))
    return nodes


def register(node):
    assert len(FOLDER_DESCRIPTION) == 1000 and len(FOLDER_DESCRIPTION.encode("utf-8")) == 2500
    status, answer = post_folder(node, {"agentId": "large-agent", "version": "1.0.0",
                                        "skillType": "tool-skill",
                                        "endpoint": "http://127.0.0.1:9/skill",
                                        "capabilities": CAPABILITY}, skill_md_tar())
    check(status == 201, "a SKILL.md folder with a 1,000-character description registers",
          f"{status} {str(answer)[:300]}")
    body = {"agentId": "large-agent", "skillId": "large-descriptor", "version": "1.0.0",
            "skillType": "tool-skill", "endpoint": "http://127.0.0.1:9/other",
            "capabilities": [CAPABILITY],
            "descriptor": {"name": "Large descriptor", "description": DESCRIPTOR_DESCRIPTION,
                           "examples": EXAMPLES}}
    status, answer = node.call("POST", "/api/skills", body)
    check(status == 201, "a descriptor with 1,024 characters and object examples registers",
          f"{status} {str(answer)[:300]}")


def found_whole(node):
    """The two skills as `node` finds them through the network, or None."""
    status, answer = node.get_json(
        f"/api/skills?capability={CAPABILITY}&fresh=true&lan=false")
    if status != 200:
        return None
    skills = {s.get("skillId"): s for s in answer.get("skills", [])}
    folder, descriptor = skills.get("large-record"), skills.get("large-descriptor")
    if folder is None or descriptor is None:
        return None
    return folder, descriptor, answer.get("sources", [])


def counter(metrics, sample):
    """The value of one sample line of a Prometheus text, 0 when absent."""
    for line in metrics.splitlines():
        if line.startswith(sample + " "):
            return float(line.split()[-1])
    return 0.0


def main():
    require_binary()
    nodes = start_cluster()
    register(nodes[0])
    for node in nodes[1:]:
        got = []
        found = wait_for(lambda node=node: got.append(found_whole(node)) or got[-1] is not None,
                         FIND_TIMEOUT_S, interval=0.5)
        if not check(found, f"{node.name} finds both skills through the network"):
            continue
        folder, descriptor, sources = got[-1]
        check(folder["description"] == FOLDER_DESCRIPTION,
              f"{node.name}: the SKILL.md's 1,000-character description comes back whole",
              f"{len(folder['description'])} characters")
        check(descriptor["description"] == DESCRIPTOR_DESCRIPTION,
              f"{node.name}: the 1,024-character description comes back whole")
        check(descriptor.get("examples") == EXAMPLES,
              f"{node.name}: the examples come back as text and objects, in order",
              json.dumps(descriptor.get("examples"))[:300])
        check(folder.get("source") != "local" and "dht" in sources,
              f"{node.name}: found in the DHT, not locally", f"{folder.get('source')} {sources}")
    metrics = [node.get("/metrics")[1] for node in nodes]
    pulled = sum(counter(text, 'skillnode_store_record_pulls_total{result="pulled"}')
                 for text in metrics)
    failed = sum(counter(text, 'skillnode_store_record_pulls_total{result="failed"}')
                 for text in metrics)
    sent = counter(metrics[0], 'skillnode_store_references_total{direction="sent"}')
    check(sent > 0 and pulled > 0 and failed == 0,
          f"A sent references ({sent:g}) and the others pulled the bytes ({pulled:g} pulls, "
          f"{failed:g} failed)")
    check(not any("pulls_full" in text or 'result="bad_record"' in text or
                  'result="bad_signature"' in text for text in metrics),
          "no node refused a large record's STORE")
    finish()


if __name__ == "__main__":
    main()
