#!/usr/bin/env python3
"""[uv] GET /api/v1/discovery/capabilities (docs/api.md "Capability discovery") on real nodes.

Node A holds the registrations: agents with reasoners (skillType "reasoner") and skills, one
private skill, one skill turned DEGRADED by a heartbeat. Every parameter and alias is asked
for; each format is parsed (JSON with json, XML with xml.etree.ElementTree, compact); every
400 answers {"error": "invalid_parameter", "message", "details": {parameter, provided,
allowed}}; pagination, totals and has_more; include flags; health mapping; the private skill
is hidden without a token and shown with one; a registration and an unregistration are seen on
the very next call; capability= finds a skill registered on node B through the DHT; /metrics
carries the endpoint's families.
Run: SKILLNODE=build/release/node/skillnode python3 tests/node/api/capabilities_test.py
"""
import json
import os
import sys
import urllib.parse
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import (Node, check, finish, metrics_problems, require_binary, run,
                               temp_dir, wait_for)

PATH = "/api/v1/discovery/capabilities"
NET_CAPABILITY = "caps-net-cap"
CONFIG = """
node:
  http: {{listen: "127.0.0.1:0"}}
  auth: {{tokensFile: "{tokens}"}}
discovery:
  healthCheck: {{heartbeatInterval: 60000, timeout: 600000, unhealthyThreshold: 3}}
"""
INPUT_SCHEMA = {"type": "object",
                "properties": {"query": {"type": "string", "description": "Research <query>"},
                               "depth": {"type": "integer", "minimum": 1, "maximum": 5,
                                         "default": 3}},
                "required": ["query"]}


def registration(agent, skill_id, skill_type, tags, access="public", version="1.0.0",
                 capabilities=("caps-local",), schema=False):
    descriptor = {"name": skill_id.replace("_", " ").title(), "description": f"{skill_id} & co",
                  "tags": list(tags), "access": access}
    if schema:
        descriptor["inputSchema"] = INPUT_SCHEMA
        descriptor["outputSchema"] = {"type": "object", "properties": {
            "confidence": {"type": "number", "minimum": 0, "maximum": 1}}}
        descriptor["examples"] = [json.dumps({"input": {"query": "quantum", "depth": 3}})]
    return {"agentId": agent, "skillId": skill_id, "version": version, "skillType": skill_type,
            "endpoint": f"127.0.0.1:9/{skill_id}", "capabilities": list(capabilities),
            "descriptor": descriptor}


SKILLS = [
    registration("agent-research", "deep_research", "reasoner", ["research", "ml", "synthesis"],
                 version="2.3.1", schema=True),
    registration("agent-research", "web_search", "tool", ["web", "search", "data"]),
    registration("agent-web", "web_scraper", "tool", ["web", "mlops"]),
    registration("agent-web", "summarise", "reasoner", ["nlp"], version="0.9.0"),
    registration("agent-health", "flaky_tool", "tool", ["ops"]),
    registration("agent-secret", "secret_plan", "reasoner", ["ml"], access="private"),
]


def get(node, query="", token=None):
    """(status, text, headers) of the endpoint with a query string (dict or str)."""
    if isinstance(query, dict):
        query = urllib.parse.urlencode(query)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return node.get(PATH + ("?" + query if query else ""), headers=headers)


def get_json(node, query="", token=None):
    status, text, _ = get(node, query, token)
    try:
        return status, json.loads(text)
    except json.JSONDecodeError:
        return status, None


def agent_ids(answer):
    return [agent["agent_id"] for agent in answer["capabilities"]]


def item_ids(answer, kind):
    return sorted(item["id"] for agent in answer["capabilities"] for item in agent[kind])


def check_default_json(node):
    status, answer = get_json(node)
    check(status == 200, "no parameters: 200", str(status))
    check(agent_ids(answer) == ["agent-health", "agent-research", "agent-web"],
          "agents are every agentId with a public registration, sorted", str(agent_ids(answer)))
    check((answer["total_agents"], answer["total_reasoners"], answer["total_skills"]) == (3, 2, 3),
          "totals: 3 agents, 2 reasoners, 3 skills", str(answer))
    check(answer["pagination"] == {"limit": 100, "offset": 0, "has_more": False},
          "default pagination: limit 100, offset 0, no more", str(answer["pagination"]))
    check(answer["discovered_at"].endswith("Z") and "T" in answer["discovered_at"],
          "discovered_at is RFC 3339 UTC", answer["discovered_at"])
    research = answer["capabilities"][1]
    check(research["version"] == "2.3.1" and research["health_status"] == "active" and
          research["deployment_type"] == "long_running" and
          research["base_url"] == "http://127.0.0.1:9" and research["last_heartbeat"].endswith("Z"),
          "an agent carries version, health, deployment type, base_url and last_heartbeat",
          str(research))
    reasoner = research["reasoners"][0]
    check(reasoner["id"] == "deep_research" and
          reasoner["invocation_target"] == "agent-research:deep_research" and
          reasoner["tags"] == ["research", "ml", "synthesis"] and
          reasoner["description"] == "deep_research & co" and reasoner["source"] == "local" and
          "input_schema" not in reasoner and "examples" not in reasoner,
          "a reasoner: id, target {agent}:{id}, tags, description, source; no schemas by default",
          str(reasoner))
    check(research["skills"][0]["invocation_target"] == "agent-research:skill:web_search",
          "a skill's target is {agent}:skill:{id}", str(research["skills"]))


def check_filters(node):
    cases = [
        ({"agent": "agent-web"}, ["agent-web"], "agent="),
        ({"node_id": "agent-web"}, ["agent-web"], "node_id= (alias of agent)"),
        ({"agent_ids": "agent-web,agent-research,nobody"}, ["agent-research", "agent-web"],
         "agent_ids= (comma-separated)"),
        ({"node_ids": "agent-health"}, ["agent-health"], "node_ids= (alias of agent_ids)"),
        ({"reasoner": "*research*", "skill": "none"}, ["agent-research"], "reasoner=*x* contains"),
        ({"skill": "web_*", "reasoner": "none"}, ["agent-research", "agent-web"], "skill=x* prefix"),
        ({"skill": "*scraper", "reasoner": "none"}, ["agent-web"], "skill=*x suffix"),
        ({"skill": "WEB_SEARCH", "reasoner": "none"}, ["agent-research"],
         "skill= exact, case-insensitive"),
        ({"tags": "ml*"}, ["agent-research", "agent-web"], "tags=x* (ml, mlops)"),
        ({"tags": "nlp,*ops"}, ["agent-health", "agent-web"], "tags= any of several patterns"),
        ({"tags": "*"}, ["agent-health", "agent-research", "agent-web"], "tags=* matches all"),
        ({"reasoner": ""}, ["agent-health", "agent-research", "agent-web"],
         "an empty pattern matches all"),
    ]
    for query, expected, what in cases:
        status, answer = get_json(node, query)
        check(status == 200 and agent_ids(answer) == expected, f"filter {what}",
              f"{status} {answer and agent_ids(answer)}")
    status, answer = get_json(node, {"reasoner": "deep_*"})
    check(item_ids(answer, "reasoners") == ["deep_research"] and
          item_ids(answer, "skills") == ["flaky_tool", "web_scraper", "web_search"],
          "reasoner= filters reasoners only, skills stay", str(answer))
    status, answer = get_json(node, {"tags": "web", "agent": "agent-web"})
    check(item_ids(answer, "skills") == ["web_scraper"] and answer["total_reasoners"] == 0,
          "filters are ANDed (agent and tag)", str(answer))


def check_include_flags(node):
    status, answer = get_json(node, {"agent": "agent-research", "include_input_schema": "true",
                                     "include_output_schema": "1", "include_examples": "YES",
                                     "include_descriptions": "no"})
    reasoner = answer["capabilities"][0]["reasoners"][0]
    check(reasoner.get("input_schema") == INPUT_SCHEMA,
          "include_input_schema=true: the schema as a JSON object", str(reasoner))
    check(reasoner.get("output_schema", {}).get("properties", {}).get("confidence") ==
          {"type": "number", "minimum": 0, "maximum": 1}, "include_output_schema=1", str(reasoner))
    check(reasoner.get("examples") == [{"input": {"query": "quantum", "depth": 3}}],
          "include_examples=YES: examples as JSON values", str(reasoner))
    check("description" not in reasoner, "include_descriptions=no drops descriptions",
          str(reasoner))


def check_formats(node):
    status, text, headers = get(node, {"format": "xml", "include_input_schema": "true"})
    try:
        root = ElementTree.fromstring(text.encode())
    except ElementTree.ParseError as error:
        check(False, "format=xml parses as XML", f"{error}: {text[:300]}")
        return
    check(status == 200 and "xml" in headers.get("Content-Type", ""),
          "format=xml: 200 with an XML content type", str(headers))
    summary = root.find("summary")
    check(root.tag == "discovery" and root.get("discovered_at") and
          summary.get("total_agents") == "3" and summary.get("total_reasoners") == "2",
          "XML: <discovery discovered_at> with a <summary> of the totals", text[:300])
    agent = root.find("capabilities/agent[@id='agent-research']")
    reasoner = agent.find("reasoners/reasoner")
    check(agent.get("health_status") == "active" and
          reasoner.get("target") == "agent-research:deep_research" and
          [t.text for t in reasoner.findall("tags/tag")] == ["research", "ml", "synthesis"] and
          reasoner.find("description").text == "deep_research & co",
          "XML: agent attributes, reasoner target, tags and escaped description", text[:600])
    fields = {f.get("name"): f for f in reasoner.findall("input_schema/field")}
    check(fields["query"].get("required") == "true" and fields["query"].text == "Research <query>"
          and fields["depth"].get("min") == "1" and fields["depth"].get("max") == "5" and
          fields["depth"].get("default") == "3" and fields["depth"].get("type") == "integer",
          "XML: schema properties as <field> with required, min, max, default, description",
          str({k: (v.attrib, v.text) for k, v in fields.items()}))
    check(agent.find("skills/skill").get("target") == "agent-research:skill:web_search",
          "XML: skills with their target", text[:300])
    status, answer = get_json(node, {"format": "compact"})
    check(status == 200 and sorted(r["id"] for r in answer["reasoners"]) ==
          ["deep_research", "summarise"] and len(answer["skills"]) == 3 and
          answer["reasoners"][0].keys() >= {"id", "agent_id", "target", "tags"} and
          "description" not in answer["reasoners"][0],
          "format=compact: flat reasoners and skills with agent_id, target and tags", str(answer))
    status, answer = get_json(node, {"format": "compact", "include_descriptions": "true"})
    check("description" in answer["skills"][0], "compact with include_descriptions=true",
          str(answer["skills"][0]))


def check_pagination(node):
    pages = []
    for offset in range(4):
        status, answer = get_json(node, {"limit": "1", "offset": str(offset)})
        pages.append((agent_ids(answer), answer["pagination"]["has_more"], answer["total_agents"]))
    check(pages == [(["agent-health"], True, 3), (["agent-research"], True, 3),
                    (["agent-web"], False, 3), ([], False, 3)],
          "limit=1 pages through agents in order; totals stay; has_more until the last", str(pages))
    status, answer = get_json(node, {"limit": "0"})
    check(status == 200 and answer["capabilities"] == [] and answer["total_skills"] == 3 and
          answer["pagination"]["has_more"], "limit=0: no agents, totals only", str(answer))
    status, answer = get_json(node, {"limit": "500"})
    check(status == 200 and len(answer["capabilities"]) == 3, "limit=500 is allowed", str(status))


def check_errors(node):
    cases = [("format=yaml", "format", "yaml", ["json", "xml", "compact"]),
             ("limit=501", "limit", "501", None), ("limit=-1", "limit", "-1", None),
             ("limit=abc", "limit", "abc", None), ("offset=x", "offset", "x", None),
             ("health_status=bad", "health_status", "bad", ["active", "inactive", "degraded"]),
             ("include_examples=maybe", "include_examples", "maybe", None),
             ("include_input_schema=2", "include_input_schema", "2", None),
             ("reasoner=a*b", "reasoner", "a*b", None),
             ("colour=blue", "colour", "blue", None)]
    for query, parameter, provided, allowed in cases:
        status, answer = get_json(node, query)
        details = (answer or {}).get("details", {})
        ok = (status == 400 and answer["error"] == "invalid_parameter" and answer["message"] and
              details.get("parameter") == parameter and details.get("provided") == provided and
              isinstance(details.get("allowed"), list) and
              (allowed is None or details["allowed"] == allowed))
        check(ok, f"{query}: 400 invalid_parameter naming {parameter}", f"{status} {answer}")
    status, answer = get_json(node, "colour=blue")
    check("node_ids" in answer["details"]["allowed"] and "format" in answer["details"]["allowed"],
          "an unknown parameter's allowed lists the known parameters", str(answer))
    status, answer = get_json(node, "agent_ids=" + ",".join(f"a{i}" for i in range(101)))
    check(status == 400, "more than 100 agent ids: 400", str(status))
    status, _ = get_json(node, "skill=%zz")
    check(status == 400, "a malformed percent-escape: 400", str(status))
    status, answer = get_json(node)
    check(status == 200 and answer["total_agents"] == 3, "the node still answers after bad input",
          str(status))


def check_health(node):
    status, answer = node.call("POST", "/api/skills/flaky_tool/heartbeat",
                               {"agentId": "agent-health", "status": "DEGRADED"})
    check(status == 200, "a DEGRADED heartbeat is accepted", f"{status} {answer}")
    status, answer = get_json(node, {"health_status": "degraded"})
    check(agent_ids(answer) == ["agent-health"] and
          answer["capabilities"][0]["health_status"] == "degraded",
          "health_status=degraded finds the DEGRADED agent at once (the cache was dropped)",
          str(answer))
    status, answer = get_json(node, {"health_status": "active"})
    check(agent_ids(answer) == ["agent-research", "agent-web"], "health_status=active",
          str(agent_ids(answer)))
    node.call("POST", "/api/skills/flaky_tool/heartbeat",
              {"agentId": "agent-health", "status": "MAINTENANCE"})
    status, answer = get_json(node, {"health_status": "inactive"})
    check(agent_ids(answer) == ["agent-health"], "MAINTENANCE maps to inactive", str(answer))


def check_access(node, token):
    status, text, _ = get(node)
    check("secret_plan" not in text and "agent-secret" not in text,
          "without a token the private skill and its agent are absent", text[:200])
    status, text, _ = get(node, {"format": "xml"})
    check("secret_plan" not in text, "without a token XML holds no private skill")
    status, answer = get_json(node, token=token)
    check(status == 200 and "agent-secret" in agent_ids(answer) and answer["total_reasoners"] == 3,
          "with a token the private skill is shown and counted", str(answer and agent_ids(answer)))
    status, _ = get_json(node, token="skn_wrong")
    check(status == 401, "a bad token is answered 401", str(status))


def check_changes(node):
    get_json(node)  # the snapshot is cached now
    body = registration("agent-new", "fresh_skill", "tool", ["new"])
    status, _ = node.call("POST", "/api/skills", body)
    status, answer = get_json(node, {"agent": "agent-new"})
    check(agent_ids(answer) == ["agent-new"], "a registration is visible on the very next call",
          str(answer))
    body["descriptor"]["tags"] = ["renamed"]
    node.call("POST", "/api/skills", body)
    status, answer = get_json(node, {"tags": "renamed"})
    check(agent_ids(answer) == ["agent-new"], "an update is visible on the very next call",
          str(answer))
    status, _ = node.call("DELETE", "/api/skills/fresh_skill?agentId=agent-new")
    status, answer = get_json(node, {"agent": "agent-new"})
    check(status == 200 and agent_ids(answer) == [],
          "an unregistration disappears on the very next call", str(answer))


def check_network(a, b):
    body = registration("agent-remote", "remote_skill", "tool", ["far"],
                        capabilities=(NET_CAPABILITY,))
    status, answer = b.call("POST", "/api/skills", body)
    check(status == 201, "a skill registers on node B", f"{status} {answer}")
    status, answer = get_json(a)
    check("agent-remote" not in agent_ids(answer),
          "without capability= node A lists only what it knows itself", str(agent_ids(answer)))

    def found():
        status, answer = get_json(a, {"capability": NET_CAPABILITY})
        if status != 200 or agent_ids(answer) != ["agent-remote"]:
            return None
        return answer
    answer = wait_for(found, 10, 0.2)
    check(answer is not None, "capability= on A finds B's skill through the DHT",
          str(get_json(a, {"capability": NET_CAPABILITY})))
    if answer:
        source = answer["capabilities"][0]["skills"][0]["source"]
        check(source in ("dht", "cache"), "its source says the network found it", source)
    status, answer = get_json(a, {"capability": NET_CAPABILITY, "scene": "no-such-scene"})
    check(status == 200 and answer["total_agents"] == 0, "capability= and scene= are ANDed",
          f"{status} {answer}")
    status, answer = get_json(a, {"capability": "caps-local", "format": "compact"})
    check(status == 200 and len(answer["skills"]) == 3 and
          all(s["source"] == "local" for s in answer["skills"]),
          "capability= also finds this node's own skills (source local)", str(answer))


def check_metrics(node):
    status, text, _ = node.get("/metrics")
    problems = metrics_problems(text)
    check(status == 200 and not problems, "/metrics is valid", str(problems[:3]))
    prefix = "skillnode_discovery_capabilities_"
    for line in [f'{prefix}requests_total{{format="json",status="success"}}',
                 f'{prefix}requests_total{{format="xml",status="success"}}',
                 f'{prefix}requests_total{{format="unknown",status="error"}}',
                 f'{prefix}request_duration_seconds_bucket{{format="compact",le="+Inf"}}',
                 f'{prefix}cache_hits_total', f'{prefix}cache_misses_total',
                 f'{prefix}cache_size_bytes', f'{prefix}filter_usage_total{{filter_type="tag"}}',
                 f'{prefix}filter_usage_total{{filter_type="health"}}']:
        value = next((l.rsplit(" ", 1)[1] for l in text.splitlines() if l.startswith(line + " ")),
                     None)
        check(value is not None and float(value) > 0, f"/metrics: {line} > 0", str(value))


def main():
    require_binary()
    tokens = os.path.join(temp_dir("skillnode-tokens-"), "tokens")
    config = CONFIG.format(tokens=tokens)
    a = Node("caps-a", ["--port", "0"], config=config).start()
    b = Node("caps-b", ["--port", "0", "--bootstrap", f"127.0.0.1:{a.udp_port()}",
                        "--http", "127.0.0.1:0"]).start()
    check(wait_for(lambda: a.contacts() >= 1 and b.contacts() >= 1, 30, 0.1),
          "nodes A and B know each other")
    for body in SKILLS:
        status, answer = a.call("POST", "/api/skills", body)
        check(status == 201, f"{body['skillId']} ({body['skillType']}) registers",
              f"{status} {answer}")
    token = run(["token", "add", "caps", "--config", a.config_path]).stdout.strip()
    check(token.startswith("skn_"), "a token is made for node A", token)

    check_default_json(a)
    check_filters(a)
    check_include_flags(a)
    check_formats(a)
    check_pagination(a)
    check_errors(a)
    check_access(a, token)
    check_changes(a)
    check_health(a)
    check_network(a, b)
    check_metrics(a)
    finish()


if __name__ == "__main__":
    main()
