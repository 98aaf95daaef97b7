#!/usr/bin/env python3
"""[uv] skillnode's MCP server, used the way MCP clients use it (docs/mcp.md, docs/api.md
"MCP").

A node (tests/node/skillnode_harness.py) holds public, private and broken skills whose endpoint
is a provider process (tests/node/invoke/provider_server.py). Then:
  1. raw stdio: `skillnode mcp` fed hand-written JSON lines with subprocess: every JSON-RPC
     error, a line over the 4 MiB limit (answered, skipped, the process does not grow),
     logging/setLevel and the log notifications it lets through (lines before the answer),
     nothing but JSON-RPC on stdout, a clean exit 0 when stdin closes;
  2. raw /mcp: sessions, Origin, MCP-Protocol-Version (any supported one served, others 400),
     body and session limits, GET 405, DELETE, a bad token, log notifications as an SSE
     answer, with http.client;
  3. the official MCP TypeScript SDK client (mcp_client.mjs) over stdio and over /mcp, with
     setLoggingLevel and requests under another supported protocol version;
  4. LangChain's MCP adapters (langchain_client.mjs) over both;
  5. SKILL.md byte for byte (a separate step): the fixture folders in tests/fixtures/skills/
     registered with `skillnode register --skill-dir DIR`, then get_skill_info compared with
     each file, over both transports. It needs GET /api/skills/{id}/skill.md and
     `register --skill-dir` (issue 23, items 1-2); without them this step fails, named.
The npm packages (package.json, package-lock.json) are installed with `npm ci` into
$MCP_NPM_DIR (meson sets it inside the build directory; default: this folder), never into git.
The raw clients of steps 1 and 2 are in mcp_raw.py.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/mcp/mcp_test.py [--skip-skillmd]
"""
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import skillnode_harness  # noqa: E402
from mcp_raw import INIT, Http, Stdio, code_of, levels_of, request, sse_events  # noqa: E402
from skillnode_harness import (Node, check, finish, free_port, npm_install,  # noqa: E402
                               require_binary, run, temp_dir)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "skills")
NPM_FILES = ["package.json", "package-lock.json", "mcp_client.mjs", "langchain_client.mjs"]
MESSAGE_LIMIT = 4 * 1024 * 1024
# A skill's own input schema: it must never show up in a tool definition.
INPUT_SCHEMA = {"type": "object", "required": ["text"],
                "properties": {"text": {"type": "string", "maxLength": 100}}}
PUBLIC = [("upper", "Upper Case", "Upper-cases a text and counts its characters."),
          ("shout", "Shout", "Says the text loudly, in capitals.")]
PRIVATE = ("vault", "Vault", "Opens the private vault.")
BROKEN = ("broken", "Broken Tool", "A tool whose provider is down.")


def npm_ready():
    """The pinned MCP clients installed into $MCP_NPM_DIR; returns (node, that directory)."""
    work = os.path.abspath(os.environ.get("MCP_NPM_DIR") or HERE)
    return npm_install(HERE, work, NPM_FILES, "the pinned MCP clients"), work


def start_provider(token):
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "tests", "node", "invoke",
                                                          "provider_server.py"),
                             "--token", token], stdout=subprocess.PIPE, text=True)
    skillnode_harness._processes.append(proc)
    line = proc.stdout.readline()
    if not line.startswith("PORT "):
        raise RuntimeError(f"the provider did not start: {line!r}")
    return f"http://127.0.0.1:{int(line.split()[1])}"


def registration(skill_id, name, description, endpoint, access="public"):
    return {"agentId": "mcp-agent", "skillId": skill_id, "version": "1.0.0", "skillType": "tool",
            "endpoint": endpoint, "capabilities": ["text"],
            "descriptor": {"name": name, "description": description, "access": access,
                           "inputSchema": INPUT_SCHEMA}}


def raw_stdio(node):
    mcp = Stdio(node.url)
    answer = mcp.ask(request("tools/list"))
    check(code_of(answer) == -32600, "stdio: tools/list before initialize is -32600", str(answer))
    answer = mcp.ask(request("initialize", INIT))
    check(answer and answer["result"]["protocolVersion"] == "2025-06-18" and
          answer["result"]["capabilities"] == {"tools": {"listChanged": False}, "logging": {}},
          "stdio: initialize negotiates 2025-06-18 and declares tools and logging", str(answer))
    mcp.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}\n\n')
    answer = mcp.ask("this is not json")
    check(code_of(answer) == -32700 and answer["id"] is None,
          "stdio: a line that is not JSON is -32700 (after a notification got no answer)",
          str(answer))
    answer = mcp.ask(request("prompts/list", {}, rid="p"))
    check(code_of(answer) == -32601 and answer["id"] == "p", "stdio: an unknown method is -32601",
          str(answer))
    answer = mcp.ask({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": []})
    check(code_of(answer) == -32600, "stdio: params that are not an object are -32600",
          str(answer))
    answer = mcp.ask(request("tools/call", {"name": "get_skill_info", "arguments": {}}, rid=4))
    check(code_of(answer) == -32602, "stdio: a missing argument is -32602", str(answer))
    answer = mcp.ask('[{"jsonrpc": "2.0", "id": 5, "method": "ping"}]')
    check(code_of(answer) == -32600, "stdio: a batch under 2025-06-18 is -32600", str(answer))
    answer = mcp.ask(request("tools/list", rid=6))
    names = [t["name"] for t in answer["result"]["tools"]]
    check(names == ["list_skills", "get_skill_info", "run_skill"],
          "stdio: tools/list has exactly the three tools", str(names))
    before = mcp.peak_kib()
    chunk = b"x" * (1024 * 1024)
    mcp.send(b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"pad": "')
    for _ in range(48):
        mcp.send(chunk)
    mcp.send(b'"}}\n')
    answer = mcp.read()
    check(code_of(answer) == -32600 and str(MESSAGE_LIMIT) in answer["error"]["message"],
          "stdio: a 48 MiB line is answered -32600 naming the 4 MiB limit", str(answer)[:300])
    grown = mcp.peak_kib() - before
    check(grown < 24 * 1024, "stdio: the oversized line was never held whole",
          f"peak memory grew {grown} KiB")
    answer = mcp.ask(request("ping", rid=8))
    check(answer == {"jsonrpc": "2.0", "id": 8, "result": {}},
          "stdio: the next message is answered as usual", str(answer))
    answer = mcp.ask(request("tools/call", {"name": "list_skills", "arguments": {}}, rid=9))
    listed = json.loads(answer["result"]["content"][0]["text"])
    check(all(sorted(s) == ["description", "name"] for s in listed) and
          {s["name"] for s in listed} >= {p[1] for p in PUBLIC},
          "stdio: list_skills gives name and description only", str(listed))
    stdio_logging(mcp)
    mcp.proc.stdin.close()
    code = mcp.proc.wait(timeout=10)
    rest = mcp.proc.stdout.read()
    stderr = mcp.proc.stderr.read().decode()
    check(code == 0, "stdio: a closed stdin ends the server with status 0", str(code))
    check(rest == b"", "stdio: nothing but the answers on stdout", repr(rest[:200]))
    check("serving MCP on stdio" in stderr, "stdio: the log goes to stderr", stderr)


def stdio_logging(mcp):
    answer = mcp.ask(request("logging/setLevel", {"level": "loud"}, rid="l1"))
    check(code_of(answer) == -32602 and "'loud'" in answer["error"]["message"] and
          "emergency" in answer["error"]["message"],
          "stdio: an unknown logging level is -32602 naming it and the levels", str(answer))
    run_upper = request("tools/call", {"name": "run_skill", "arguments": {
        "name": PUBLIC[0][1], "input": {"text": "hi"}}}, rid="r1")
    notes, answer = mcp.ask_logged(run_upper)
    check(notes == [] and answer["result"]["isError"] is False,
          "stdio: no log notification before logging/setLevel", str(notes))
    answer = mcp.ask(request("logging/setLevel", {"level": "info"}, rid="l2"))
    check(answer == {"jsonrpc": "2.0", "id": "l2", "result": {}},
          "stdio: logging/setLevel info is answered {}", str(answer))
    notes, answer = mcp.ask_logged(run_upper)
    check(levels_of(notes) == ["info"] and notes[0]["params"]["logger"] == "run_skill" and
          answer["id"] == "r1" and answer["result"]["isError"] is False,
          "stdio: at level info a run sends one info line (not the debug one) before its answer",
          str(notes))
    notes, answer = mcp.ask_logged(request("tools/call", {"name": "run_skill", "arguments": {
        "name": BROKEN[1], "input": {"text": "hi"}}}, rid="r2"))
    check(levels_of(notes) == ["warning"] and BROKEN[1] in notes[0]["params"]["data"]["message"]
          and answer["result"]["isError"] is True,
          "stdio: a run whose provider is down sends a warning naming the skill", str(notes))


def http_logging(h, s):
    run_upper = request("tools/call", {"name": "run_skill", "arguments": {
        "name": PUBLIC[0][1], "input": {"text": "hi"}}}, rid=21)
    status, answer, headers = h.call("POST", request("logging/setLevel", {"level": "debug"},
                                                     rid=20), s)
    check(status == 200 and answer == {"jsonrpc": "2.0", "id": 20, "result": {}},
          "/mcp: logging/setLevel debug is answered {}", f"{status} {answer}")
    status, answer, headers = h.call("POST", run_upper, s)
    events = sse_events(answer if isinstance(answer, str) else "")
    check(status == 200 and headers.get("content-type", "").startswith("text/event-stream") and
          levels_of(events[:-1]) == ["debug", "info"] and events[-1].get("id") == 21 and
          events[-1]["result"]["isError"] is False,
          "/mcp: a run with log notifications is answered as an SSE stream: debug, info, answer",
          f"{status} {headers.get('content-type')} {answer}")
    status, answer, headers = h.call("POST", run_upper, dict(s, Accept="application/json"))
    check(status == 200 and headers.get("content-type", "").startswith("application/json") and
          answer["id"] == 21, "/mcp: a client that takes no event stream gets the answer alone",
          f"{status} {answer}")
    status, answer, _ = h.call("POST", request("logging/setLevel", {"level": "Debug"}, rid=22), s)
    check(status == 200 and code_of(answer) == -32602 and "'Debug'" in answer["error"]["message"],
          "/mcp: an unknown level is -32602 naming it", f"{status} {answer}")


def raw_http(node, token, sessions_max, body_max):
    h = Http(node)
    status, answer, session = h.open()
    check(status == 200 and session and re.fullmatch(r"[0-9a-f]{32}", session),
          "/mcp: initialize opens a session (Mcp-Session-Id)", f"{status} {answer}")
    s = {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18"}
    status, answer, _ = h.call("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"}, s)
    check(status == 202 and answer is None, "/mcp: a notification is answered 202 with no body",
          f"{status} {answer}")
    status, answer, headers = h.call("POST", request("tools/list", rid=2), s)
    check(status == 200 and headers.get("content-type", "").startswith("application/json") and
          len(answer["result"]["tools"]) == 3, "/mcp: tools/list is answered as application/json",
          f"{status} {answer}")
    status, answer, _ = h.call("POST", request("tools/list", rid=3))
    check(status == 400, "/mcp: a request without Mcp-Session-Id is 400", f"{status} {answer}")
    status, answer, _ = h.call("POST", request("tools/list", rid=4),
                               {"Mcp-Session-Id": "0" * 32})
    check(status == 404, "/mcp: an unknown session is 404", f"{status} {answer}")
    status, answer, _ = h.call("POST", request("tools/list", rid=5),
                               dict(s, **{"MCP-Protocol-Version": "1900-01-01"}))
    message = (answer or {}).get("error", {}).get("message", "") if isinstance(answer, dict) else ""
    check(status == 400 and "1900-01-01" in message and
          all(v in message for v in ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")),
          "/mcp: an unsupported MCP-Protocol-Version is 400 naming the supported versions",
          f"{status} {answer}")
    for other in ("2025-11-25", "2025-03-26", "2024-11-05"):
        status, answer, _ = h.call("POST", request("tools/list", rid=6),
                                   dict(s, **{"MCP-Protocol-Version": other}))
        check(status == 200 and len(answer["result"]["tools"]) == 3,
              f"/mcp: a supported version other than the session's ({other}) is served",
              f"{status} {answer}")
    status, answer, _ = h.call("POST", "{not json", s)
    check(status == 400 and code_of(answer) == -32700, "/mcp: a body that is not JSON is 400 "
          "with -32700", f"{status} {answer}")
    status, answer, _ = h.call("POST", request("nope/nope", rid=7), s)
    check(status == 200 and code_of(answer) == -32601, "/mcp: an unknown method is -32601",
          f"{status} {answer}")
    status, answer, _ = h.call("POST", request("initialize", INIT),
                               {"Origin": "http://evil.example"})
    check(status == 403, "/mcp: a foreign Origin is refused 403", f"{status} {answer}")
    status, answer, _ = h.call("POST", request("ping", rid=8),
                               dict(s, Origin=f"http://127.0.0.1:{h.port}"))
    check(status == 200, "/mcp: a loopback Origin is accepted", f"{status} {answer}")
    status, answer, headers = h.call("GET", None, s)
    check(status == 405 and "POST" in headers.get("allow", ""),
          "/mcp: GET is 405 (no server-initiated stream)", f"{status} {answer}")
    big = json.dumps(request("ping", {"pad": "x" * body_max}, rid=9))
    status, answer, _ = h.call("POST", big, s)
    check(status == 413, f"/mcp: a body over node.mcp.maxBodyBytes ({body_max}) is 413",
          f"{status} {answer}")
    status, answer, _ = h.call("POST", request("ping", rid=10),
                               dict(s, Authorization="Bearer skn_wrong"))
    check(status == 401, "/mcp: a bad bearer token is 401", f"{status} {answer}")
    status, answer, _ = h.call("POST", request("tools/call", {"name": "list_skills"}, rid=11),
                               dict(s, Authorization=f"Bearer {token}"))
    listed = json.loads(answer["result"]["content"][0]["text"]) if status == 200 else []
    check(PRIVATE[1] in [x["name"] for x in listed],
          "/mcp: the request's token shows the private skill", f"{status} {answer}")
    http_logging(h, s)
    status, answer, _ = h.call("DELETE", None, s)
    check(status == 204, "/mcp: DELETE ends the session", f"{status} {answer}")
    status, answer, _ = h.call("POST", request("ping", rid=12), s)
    check(status == 404, "/mcp: an ended session is 404", f"{status} {answer}")
    opened = [h.open()[2] for _ in range(sessions_max + 1)]
    status, _, _ = h.call("POST", request("ping", rid=13), {"Mcp-Session-Id": opened[0]})
    status_last, _, _ = h.call("POST", request("ping", rid=14), {"Mcp-Session-Id": opened[-1]})
    check(status == 404 and status_last == 200,
          f"/mcp: past node.mcp.maxSessions ({sessions_max}) the longest-idle session ends",
          f"{status} {status_last}")
    status, answer, _ = h.open("2024-11-05")
    check(answer["result"]["protocolVersion"] == "2024-11-05", "/mcp: 2024-11-05 is negotiated")
    status, answer, session = h.open("2025-03-26")
    s = {"Mcp-Session-Id": session}
    status, answer, _ = h.call("POST", [request("ping", rid=1), request("tools/list", rid=2)], s)
    check(status == 200 and isinstance(answer, list) and len(answer) == 2,
          "/mcp: a batch under 2025-03-26 is answered as a batch", f"{status} {answer}")


def run_js(node_bin, work, script, spec, timeout=60):
    done = subprocess.run([node_bin, os.path.join(work, script), json.dumps(spec)], cwd=work,
                          capture_output=True, text=True, timeout=timeout)
    for line in done.stdout.splitlines():
        if line.startswith(("ok - ", "FAIL - ")):
            check(line.startswith("ok - "), line[line.index(" - ") + 3:])
    check(done.returncode == 0, f"{script} ({spec.get('transport', 'both')}) ran clean",
          (done.stdout + done.stderr)[-3000:])


def front_matter_name(path):
    with open(path, encoding="utf-8-sig", newline="") as f:
        for line in f.read().splitlines()[1:]:
            if line.strip() == "---":
                break
            if line.startswith("name:"):
                return line[5:].strip().strip("\"'")
    return None


def skillmd_step(node, node_bin, work):
    """get_skill_info byte for byte against the fixture folders (needs items 1-2 of issue 23)."""
    folders = sorted(os.path.join(FIXTURES, d) for d in os.listdir(FIXTURES)
                     if os.path.isfile(os.path.join(FIXTURES, d, "SKILL.md"))) \
        if os.path.isdir(FIXTURES) else []
    if not check(folders, "skillmd step: tests/fixtures/skills/ holds SKILL.md fixture folders",
                 f"{FIXTURES} is missing (the SKILL.md folders branch adds it)"):
        return
    fixtures = []
    for folder in folders:
        done = run(["register", "--skill-dir", folder, "--http", node.http_address(),
                    "--agent", "mcp-fixtures", "--skill-version", "1.0.0", "--type", "tool-skill",
                    "--endpoint", "http://127.0.0.1:9/skill", "-C", "skillmd-fixture"])
        check(done.returncode == 0, f"skillmd step: skillnode register --skill-dir "
              f"{os.path.basename(folder)}", (done.stdout + done.stderr)[-500:])
        path = os.path.join(folder, "SKILL.md")
        fixtures.append({"name": front_matter_name(path), "file": path})
    for transport in ("stdio", "http"):
        binary = os.path.abspath(skillnode_harness.BINARY)
        run_js(node_bin, work, "mcp_client.mjs", {"transport": transport, "step": "skillmd",
                                                  "binary": binary, "node": node.url,
                                                  "fixtures": fixtures})


def main():
    require_binary()
    started = time.monotonic()
    node_bin, work = npm_ready()
    tokens_file = os.path.join(temp_dir("skillnode-mcp-tokens-"), "tokens")
    sessions_max, body_max = 4, 64 * 1024
    config = f"""
node:
  http: {{listen: "127.0.0.1:0"}}
  auth: {{tokensFile: "{tokens_file}"}}
  mcp: {{maxSessions: {sessions_max}, maxBodyBytes: {body_max}}}
discovery:
  healthCheck: {{timeout: 600000}}
"""
    node = Node("mcp", ["--port", "0"], config=config).start()
    added = run(["token", "add", "mcp", "--config", node.config_path])
    token = added.stdout.strip()
    check(added.returncode == 0 and token, "skillnode token add makes a token", added.stderr)
    provider = start_provider(token)
    closed = free_port()
    bodies = [registration(i, n, d, f"{provider}/skills/sync") for i, n, d in PUBLIC]
    bodies.append(registration(*PRIVATE, f"{provider}/skills/sync", "private"))
    bodies.append(registration(*BROKEN, f"http://127.0.0.1:{closed}/skills/sync"))
    for body in bodies:
        status, answer = node.call("POST", "/api/skills", body)
        check(status == 201, f"skill {body['skillId']} registers", f"{status} {answer}")

    raw_stdio(node)
    raw_http(node, token, sessions_max, body_max)
    spec = {"binary": os.path.abspath(skillnode_harness.BINARY), "node": node.url,
            "token": token, "step": "tools",
            "public": [{"name": n, "description": d} for _, n, d in PUBLIC],
            "private": {"name": PRIVATE[1], "description": PRIVATE[2]},
            "queries": [{"text": "loudly", "names": ["Shout"]},
                        {"text": "upper-casing texts", "names": ["Upper Case"]},
                        {"text": "counting capit", "names": []},
                        {"text": "text in capit", "names": ["Shout"]},
                        {"text": "xylophone", "names": []}],
            "run": {"name": "Upper Case", "broken": BROKEN[1], "input": {"text": "hello"},
                    "output": {"upper": "HELLO", "length": 5}}}
    for transport in ("stdio", "http"):
        run_js(node_bin, work, "mcp_client.mjs", dict(spec, transport=transport))
    run_js(node_bin, work, "langchain_client.mjs", spec)
    if "--skip-skillmd" not in sys.argv:
        skillmd_step(node, node_bin, work)
    code, _ = node.stop()
    check(code == 0, "the node shuts down cleanly after the MCP sessions", str(code))
    print(f"# took {time.monotonic() - started:.1f} s", flush=True)
    finish()


if __name__ == "__main__":
    main()
