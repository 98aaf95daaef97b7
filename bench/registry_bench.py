#!/usr/bin/env python3
"""registry_bench: the skill registry's HTTP API under load, and a node's memory with many
stored records.

Usage: python3 bench/registry_bench.py [BUILD_DIR] [--agents N] [--skills-per-agent N]
       [--seconds N] [--warmup N] [--connections N]
(BUILD_DIR defaults to build/release; `make bench` builds it and runs this.)

One standalone node, pinned to one core (taskset), gets AGENTS x SKILLS registrations
(default 1,000 x 20) over POST /api/skills. Each skill has 2 of 200 capabilities and 1 of 50
scenes, so it is stored under 6 DHT keys: 20,000 registrations are 120,000 stored records.
The skills of the first SCHEMA_AGENTS agents carry a descriptor with input and output schemas
and a description naming one of TOPICS x OBJECTS things it does ("Finds and ranks invoices in
spreadsheets"), indexed for the word search, and a quarter of all skills are reasoners. Then wrk
(Debian's package), on the other core, drives:
  - GET /health, the trivial route: the HTTP layer's own limit on this machine in this run;
  - POST /api/skills/search by capability, the capability drawn at random per request, with
    the node's cache as configured (answers cached for cache.ttl);
  - the same with "fresh": true (every request runs the whole chain: local, DHT stage);
  - GET /api/skills?capability=...&limit=20;
  - GET /api/v1/discovery/capabilities?agent=... for a random agent, without schemas, and
    with include_input_schema and include_output_schema for an agent whose skills have them;
  - word searches, two words of a description drawn at random per request (q): POST
    /api/skills/search with the cache as configured, GET /api/skills?q=&limit=20, and the
    search with "fresh": true (the local stage and a word search of the node's own keyword
    index);
  - MCP list_skills through POST /mcp (tools/call in one session), one client on one
    connection: with no arguments (the default page), with a two-word query, and with a
    capability.
Each runs for --warmup seconds (not counted) and then --seconds. It prints requests per second
and p99 latency for each, each rate as a share of the trivial
route's, and the node's RSS idle, after the registrations, and after the load. The figures are
for this machine in this run; compare them with each other, not with another machine's.
"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

from benchlib import cleanup, rss_kib, scratch, start_node

CAPABILITIES = 200
SCENES = 50
SCHEMA_AGENTS = 100
INPUT_SCHEMA = {"type": "object", "required": ["query"],
                "properties": {"query": {"type": "string", "description": "What to look for"},
                               "limit": {"type": "integer", "minimum": 1, "maximum": 100,
                                         "default": 10}}}
OUTPUT_SCHEMA = {"type": "object", "properties": {"items": {"type": "array"},
                                                  "score": {"type": "number", "minimum": 0}}}
# The word-search vocabulary of the descriptors: a description names one topic and one object.
TOPICS = ["invoices", "calendars", "contracts", "receipts", "tickets", "recipes", "reports",
          "emails", "meetings", "photos", "payments", "orders", "flights", "hotels", "lessons",
          "patients", "vehicles", "parcels", "songs", "articles"]
OBJECTS = ["spreadsheets", "databases", "archives", "folders", "inboxes", "warehouses",
           "notebooks", "dashboards", "catalogues", "ledgers"]
CONFIG = """
node:
  port: 0
  http: {listen: "127.0.0.1:0", maxConnections: 1024}
  log: {level: warn}
discovery:
  healthCheck: {heartbeatInterval: 600000, timeout: 3600000, unhealthyThreshold: 3}
"""

def start_pinned_node(binary):
    """The node under test, on core 0 (wrk takes core 1) when there are two cores."""
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") and (os.cpu_count() or 1) > 1 else []
    proc, url = start_node(binary, "node", CONFIG, prefix=pin)
    return proc, url[len("http://"):]


def rss_mib(pid):
    return rss_kib(pid) / 1024


def registrations(agents, per_agent):
    rng = random.Random(7)
    for a in range(agents):
        for j in range(per_agent):
            caps = rng.sample(range(CAPABILITIES), 2)
            body = {"agentId": f"agent-{a:04d}", "skillId": f"skill-{(a * per_agent + j) % 2000:04d}",
                    "version": f"{rng.randint(0, 3)}.{rng.randint(0, 9)}.{rng.randint(0, 9)}",
                    "skillType": "reasoner" if j % 4 == 0 else
                                 rng.choice(["tool-skill", "enterprise-skill", "integration-skill"]),
                    "endpoint": f"10.{a // 256}.{a % 256}.{j + 1}:8080",
                    "capabilities": [f"cap-{c:03d}" for c in caps],
                    "scenes": [f"scene-{rng.randrange(SCENES):02d}"]}
            if a < SCHEMA_AGENTS:
                # Every one of the 200 topic/object pairs, each in 10 of the 2,000 descriptions.
                pair = (a * per_agent + j) % (len(TOPICS) * len(OBJECTS))
                topic, thing = TOPICS[pair % len(TOPICS)], OBJECTS[pair // len(TOPICS)]
                body["descriptor"] = {"name": f"Skill {j} of agent {a}",
                                      "description": f"Finds and ranks {topic} in {thing}",
                                      "tags": ["bench", f"tag-{j % 5}"],
                                      "inputSchema": INPUT_SCHEMA, "outputSchema": OUTPUT_SCHEMA}
            yield body


def register_all(address, bodies, workers=8):
    host, port = address.rsplit(":", 1)
    bodies = list(bodies)
    failures = []
    lock = threading.Lock()

    def work(chunk):
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        for body in chunk:
            conn.request("POST", "/api/skills", json.dumps(body),
                         {"Content-Type": "application/json"})
            answer = conn.getresponse()
            answer.read()
            if answer.status not in (200, 201):
                with lock:
                    failures.append(answer.status)
        conn.close()

    threads = [threading.Thread(target=work, args=(bodies[i::workers],)) for i in range(workers)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(bodies), failures, time.monotonic() - started


LUA_SEARCH = """
math.randomseed(11)
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  local c = string.format("cap-%03d", math.random(0, MAXCAP))
  return wrk.format(nil, "/api/skills/search", nil,
    '{"capabilities": ["' .. c .. '"], "limit": 20EXTRA}')
end
"""
LUA_LIST = """
math.randomseed(13)
request = function()
  local c = string.format("cap-%03d", math.random(0, MAXCAP))
  return wrk.format("GET", "/api/skills?capability=" .. c .. "&limit=20")
end
"""


LUA_CAPABILITIES = """
math.randomseed(17)
request = function()
  local a = string.format("agent-%04d", math.random(0, MAXAGENT))
  return wrk.format("GET", "/api/v1/discovery/capabilities?agent=" .. a .. "EXTRA")
end
"""
# The descriptions' words, for the scripts that draw a query from them (WORDS in a script).
LUA_WORDS = "local topics = {%s}\nlocal objects = {%s}" % (
    ", ".join(f'"{w}"' for w in TOPICS), ", ".join(f'"{w}"' for w in OBJECTS))
LUA_WORDS_POST = """
math.randomseed(19)
WORDS
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  local q = topics[math.random(#topics)] .. " " .. objects[math.random(#objects)]
  return wrk.format(nil, "/api/skills/search", nil, '{"q": "' .. q .. '", "limit": 20EXTRA}')
end
"""
LUA_WORDS_GET = """
math.randomseed(23)
WORDS
request = function()
  local q = topics[math.random(#topics)] .. "+" .. objects[math.random(#objects)]
  return wrk.format("GET", "/api/skills?q=" .. q .. "&limit=20")
end
"""
# MCP list_skills through /mcp (tools/call), as an agent's one client asks: SESSION is the
# Mcp-Session-Id that mcp_session() opened; ARGS the tool's arguments.
LUA_MCP_LIST = """
math.randomseed(29)
WORDS
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["Mcp-Session-Id"] = "SESSION"
local id = 0
request = function()
  id = id + 1
  local args = ARGS
  return wrk.format(nil, "/mcp", nil, '{"jsonrpc": "2.0", "id": ' .. id ..
    ', "method": "tools/call", "params": {"name": "list_skills", "arguments": ' .. args .. '}}')
end
"""
LUA_HEALTH = """
request = function() return wrk.format("GET", "/health") end
"""


def mcp_session(address):
    """Opens an MCP session on the node (initialize, then notifications/initialized) and
    returns its Mcp-Session-Id."""
    host, port = address.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    conn.request("POST", "/mcp", json.dumps({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "registry_bench", "version": "1"}}}), headers)
    answer = conn.getresponse()
    answer.read()
    session = answer.getheader("Mcp-Session-Id")
    if answer.status != 200 or not session:
        sys.exit(f"MCP initialize answered {answer.status} without a session")
    headers["Mcp-Session-Id"] = session
    conn.request("POST", "/mcp", json.dumps({"jsonrpc": "2.0",
                                             "method": "notifications/initialized"}), headers)
    conn.getresponse().read()
    # One call first, so that what wrk times is a list of skills and not a refusal.
    conn.request("POST", "/mcp", json.dumps({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "list_skills", "arguments": {}}}), headers)
    answer = conn.getresponse()
    body = answer.read().decode()
    if answer.status != 200 or '"isError":true' in body.replace(" ", "") or "skills" not in body:
        sys.exit(f"MCP list_skills answered {answer.status}: {body[:300]}")
    conn.close()
    return session


def run_wrk(address, script, seconds, connections):
    path = os.path.join(scratch, f"script-{abs(hash(script))}.lua")
    with open(path, "w") as f:
        f.write(script)
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", path,
               f"http://{address}"]
    if shutil.which("taskset") and os.cpu_count() and os.cpu_count() > 1:
        command = ["taskset", "-c", "1"] + command
    out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rate, float(p99.group(1)) * scale, int(non2xx.group(1)) if non2xx else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build", nargs="?", default="build/release")
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--skills-per-agent", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (apt-get install wrk; `make bench` installs it)")
    binary = os.path.join(args.build, "node", "skillnode")
    proc, address = start_pinned_node(binary)
    time.sleep(1)
    idle = rss_mib(proc.pid)
    count, failures, took = register_all(address, registrations(args.agents,
                                                                args.skills_per_agent))
    conn = http.client.HTTPConnection(*address.rsplit(":", 1))
    conn.request("GET", "/api/node")
    info = json.loads(conn.getresponse().read())
    registered_rss = rss_mib(proc.pid)
    results = {}
    top = str(CAPABILITIES - 1)
    schemas = "&include_input_schema=true&include_output_schema=true"
    scripts = {
        "trivial GET /health": LUA_HEALTH,
        "search (cache)": LUA_SEARCH.replace("MAXCAP", top).replace("EXTRA", ""),
        "search (fresh)": LUA_SEARCH.replace("MAXCAP", top).replace("EXTRA", ', "fresh": true'),
        "list GET /api/skills": LUA_LIST.replace("MAXCAP", top),
        "capabilities": LUA_CAPABILITIES.replace("MAXAGENT", str(args.agents - 1))
                                        .replace("EXTRA", ""),
        "capabilities + schemas": LUA_CAPABILITIES
            .replace("MAXAGENT", str(min(args.agents, SCHEMA_AGENTS) - 1)).replace("EXTRA", schemas),
    }
    for name, script in (("words (cache)", LUA_WORDS_POST.replace("EXTRA", "")),
                         ("words GET /api/skills?q=", LUA_WORDS_GET),
                         ("words (fresh)", LUA_WORDS_POST.replace("EXTRA", ', "fresh": true'))):
        scripts[name] = script.replace("WORDS", LUA_WORDS)
    # MCP list_skills, one client (one connection): the whole list, a word query, a capability.
    session = mcp_session(address)
    mcp = LUA_MCP_LIST.replace("SESSION", session)
    for name, lua_args in (("mcp list_skills", "'{}'"),
                           ("mcp list_skills query", """'{"query": "' .. topics[math.random(#topics)]
                             .. ' ' .. objects[math.random(#objects)] .. '"}'"""),
                           ("mcp list_skills capability", """'{"capability": "' ..
                             string.format("cap-%03d", math.random(0, MAXCAP)) .. '"}'""")):
        scripts[name] = mcp.replace("ARGS", lua_args).replace("MAXCAP", top) \
                           .replace("WORDS", LUA_WORDS)
    for name, script in scripts.items():
        connections = 1 if name.startswith("mcp") else args.connections
        # A warm-up of the same workload first (not counted): the first request for each key
        # fills the caches and the capability snapshot; what is measured is the steady state.
        run_wrk(address, script, args.warmup, connections)
        results[name] = run_wrk(address, script, args.seconds, connections)
    loaded = rss_mib(proc.pid)
    print(f"registrations: {count} ({args.agents} agents x {args.skills_per_agent} skills) in "
          f"{took:.1f} s = {count / took:,.0f}/s over {8} connections, {len(failures)} refused")
    print(f"stored records: {info['store']['records']:,} under {info['store']['keys']:,} keys, "
          f"{info['store']['bytes'] / 1e6:.1f} MB of records")
    print(f"node pinned to one core; wrk: 1 thread, {args.connections} connections (MCP: one "
          f"client, 1), {args.seconds} s each, a random one of {CAPABILITIES} capabilities per "
          f"request")
    trivial = results["trivial GET /health"][0]
    for name, (rate, p99, errors) in results.items():
        print(f"{name:24s} {rate:10,.0f} requests/s   p99 {p99:7.2f} ms   "
              f"{rate / trivial:5.2f} of trivial   non-2xx {errors}")
    cached, fresh = results["search (cache)"][0], results["search (fresh)"][0]
    print(f"ratio cached / fresh search: {cached / fresh:.2f}")
    words_cached, words_fresh = results["words (cache)"][0], results["words (fresh)"][0]
    print(f"ratio cached / fresh word search: {words_cached / words_fresh:.2f}")
    print(f"RSS idle {idle:.1f} MiB; after registrations {registered_rss:.1f} MiB; "
          f"after the load {loaded:.1f} MiB")
    print(f"RSS per stored record: "
          f"{(registered_rss - idle) * 1024 * 1024 / max(1, info['store']['records']):.0f} bytes")
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=10)


if __name__ == "__main__":
    try:
        main()
    finally:
        cleanup()
