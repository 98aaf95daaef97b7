#!/usr/bin/env python3
"""[uv] Skill invocation (docs/invocation.md): `skillnode invoke` and POST /api/skills/{id}/invoke
against a real provider process (provider_server.py) that speaks the protocol and fails in every
way on request.

Skills whose endpoint is the provider register with one node (public, restricted, private, two
providers of one skill, a host:port endpoint, an endpoint nobody listens on), with inputSchema
and outputSchema. The real binary then invokes them along every success path (202 + polling +
result, 200 at once, a Location header, the default URLs, --agent, @FILE input, progress lines
on a terminal) and every failure path, each with its own exit status; then the HTTP route does
the same with urllib (and curl once), including its limit on invocations at once.
Run: SKILLNODE=build/release/node/skillnode python3 tests/node/invoke/invoke_test.py
"""
import json
import os
import pty
import shutil
import subprocess
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
import skillnode_harness
from skillnode_harness import (Node, check, finish, free_port, require_binary, run, temp_dir,
                               wait_for)

HERE = os.path.dirname(os.path.abspath(__file__))
INPUT_SCHEMA = {"type": "object", "required": ["text"], "additionalProperties": False,
                "properties": {"text": {"type": "string", "maxLength": 100},
                               "mode": {"type": "string"}, "sleep": {"type": "number"},
                               "bytes": {"type": "integer"}}}
OUTPUT_SCHEMA = {"type": "object", "required": ["upper", "length"],
                 "properties": {"upper": {"type": "string"}, "length": {"type": "integer"}}}
HELLO = {"upper": "HELLO", "length": 5}
# `skillnode invoke --timeout 1500` against a provider that sleeps 20 s must give up at its
# deadline: the run may take the 1.5 s plus the CLI's start, the lookup through the node and a
# loaded machine's delays (tests side by side with a compile on 2 cores). A bound, not a speed:
# 10 s is far above 1.5 s and still half of what a run that waits for the provider takes.
TIMEOUT_KEPT_BOUND_S = 10.0
# Exit statuses of `skillnode invoke` (docs/invocation.md).
EXIT = {"ok": 0, "node": 1, "usage": 2, "not_found": 3, "input_invalid": 4, "unauthorized": 5,
        "provider_4xx": 6, "provider_5xx": 7, "timeout": 8, "protocol": 9, "too_large": 10,
        "execution_failed": 11, "output_invalid": 12, "connect": 13, "not_invocable": 14}


def skill(agent, skill_id, endpoint, access="public"):
    return {"agentId": agent, "skillId": skill_id, "version": "1.0.0", "skillType": "tool",
            "endpoint": endpoint, "capabilities": ["upper-casing"],
            "descriptor": {"name": skill_id.title(), "description": "upper-cases text",
                           "access": access, "inputSchema": INPUT_SCHEMA,
                           "outputSchema": OUTPUT_SCHEMA}}


class Provider:
    """provider_server.py in its own process."""

    def __init__(self, token):
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "provider_server.py"),
                                      "--token", token], stdout=subprocess.PIPE, text=True)
        skillnode_harness._processes.append(self.proc)
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"the provider did not start: {line!r}")
        self.url = f"http://127.0.0.1:{int(line.split()[1])}"

    def requests(self):
        """What reached it as a provider (not as a stand-in node)."""
        with urllib.request.urlopen(self.url + "/_requests", timeout=5) as answer:
            return [r for r in json.loads(answer.read())
                    if r["path"].startswith(("/skills/", "/executions/"))]


class Invoke:
    """Runs `skillnode invoke` against the node at `url`."""

    def __init__(self, url, token):
        self.url, self.token = url, token

    def __call__(self, skill_id, value, *extra, token=None, stderr_tty=False):
        text = value if isinstance(value, str) else json.dumps(value)
        args = ["invoke", skill_id, "--input", text, "--http", self.url] + list(extra)
        if token:
            args += ["--token", token]
        env = {k: v for k, v in os.environ.items() if k != "SKILLNODE_TOKEN"}
        if not stderr_tty:
            started = time.monotonic()
            done = subprocess.run([skillnode_harness.BINARY] + args, capture_output=True,
                                  text=True, timeout=60, env=env)
            done.seconds = time.monotonic() - started
            return done
        main, secondary = pty.openpty()
        proc = subprocess.Popen([skillnode_harness.BINARY] + args, stdout=subprocess.PIPE,
                                stderr=secondary, text=True, env=env)
        os.close(secondary)
        stderr = b""
        try:
            while chunk := os.read(main, 4096):
                stderr += chunk
        except OSError:  # EIO: every writer of the terminal has closed it
            pass
        stdout = proc.stdout.read()
        proc.wait(timeout=60)
        os.close(main)
        return subprocess.CompletedProcess(args, proc.returncode, stdout, stderr.decode())


def output_of(done):
    try:
        return json.loads(done.stdout)
    except ValueError:
        return None


def expect(done, kind, what, stderr_has=""):
    check(done.returncode == EXIT[kind] and stderr_has in done.stderr,
          f"{what}: exit {EXIT[kind]} ({kind})",
          f"exit {done.returncode}, stderr {done.stderr!r}, stdout {done.stdout[:300]!r}")


def cli_successes(invoke, provider):
    done = invoke("upper", {"text": "hello"}, "--wait")
    check(done.returncode == 0 and output_of(done) == HELLO,
          "202 + polling + result: the output is printed as JSON", done.stdout + done.stderr)
    posts = [r for r in provider.requests() if r["method"] == "POST"]
    check(posts and json.loads(posts[-1]["body"]) == {"input": {"text": "hello"}} and
          posts[-1]["authorization"] is None,
          "the provider got {\"input\": ...} and no Authorization header without --token",
          str(posts[-1:]))
    done = invoke("upper", {"text": "hello"})
    out = output_of(done) or {}
    check(done.returncode == 0 and out.get("status") == "accepted" and out.get("execution_id")
          and out.get("status_url", "").startswith(provider.url) and "output" not in out,
          "without --wait it ends after 202 with the execution id and its URLs", done.stdout)
    for mode in ("location", "bare"):
        done = invoke("upper", {"text": "hello", "mode": mode}, "--wait", "--json")
        out = output_of(done) or {}
        check(done.returncode == 0 and out.get("output") == HELLO and out.get("polls", 0) >= 3,
              f"{mode}: the status URL from {'Location' if mode == 'location' else 'defaults'}"
              " is polled until completed", done.stdout + done.stderr)
    done = invoke("upper", {"text": "hello", "mode": "retry"}, "--wait", "--json")
    out = output_of(done) or {}
    check(done.returncode == 0 and out.get("output") == HELLO and out.get("elapsed_ms", 0) >= 2900,
          "Retry-After: 1 is honoured (3 polls take 3 s, not 0.7 s)", done.stdout + done.stderr)
    done = invoke("echo", {"text": "hello"}, "--agent", "agent-b", "--json")
    out = output_of(done) or {}
    check(done.returncode == 0 and out.get("output") == HELLO and
          out.get("execution_id") == "sync-1" and out.get("agentId") == "agent-b",
          "--agent agent-b picks the provider that answers 200 at once", done.stdout)
    done = invoke("echo", {"text": "hello"}, "--agent", "agent-a", "--wait", "--json")
    out = output_of(done) or {}
    check(done.returncode == 0 and out.get("agentId") == "agent-a" and out.get("polls", 0) >= 3,
          "--agent agent-a picks the one that answers 202", done.stdout)
    done = invoke("echo", {"text": "hello"}, "--wait")
    check(done.returncode == 0 and output_of(done) == HELLO,
          "without --agent one of the two providers is taken", done.stdout + done.stderr)
    path = os.path.join(temp_dir("skillnode-invoke-input-"), "input.json")
    with open(path, "w") as f:
        json.dump({"text": "hello"}, f)
    done = invoke("upper", "@" + path, "--wait")
    check(done.returncode == 0 and output_of(done) == HELLO, "--input @FILE reads the input",
          done.stdout + done.stderr)


def cli_access(invoke, provider, token):
    before = len(provider.requests())
    done = invoke("guarded", {"text": "hello"}, "--wait")
    expect(done, "unauthorized", "a restricted skill without --token fails at once", "restricted")
    check(len(provider.requests()) == before, "and nothing reached the provider")
    done = invoke("guarded", {"text": "hello"}, "--wait", token=token)
    check(done.returncode == 0 and output_of(done) == HELLO and
          provider.requests()[-1]["authorization"] == f"Bearer {token}",
          "a restricted skill with --token is invoked with the bearer token", done.stderr)
    done = invoke("secret", {"text": "hello"}, "--wait")
    expect(done, "not_found", "a private skill without --token is not found (never shown)",
           "--token")
    done = invoke("secret", {"text": "hello"}, "--wait", token=token)
    check(done.returncode == 0 and output_of(done) == HELLO,
          "a private skill with --token is found and invoked", done.stderr)
    expect(invoke("secret", {"text": "hello"}, token="skn_bad"), "unauthorized",
           "a token the node does not know", "refused")
    expect(invoke("upper", {"text": "hello", "mode": "auth"}, "--wait"), "unauthorized",
           "the provider answers 401", "401")
    expect(invoke("upper", {"text": "hello", "mode": "forbidden"}), "unauthorized",
           "the provider answers 403", "403")


def cli_schemas(invoke, provider, node):
    """Checks against the schemas the node's GET /api/skills/{id} shows (discovery::SkillJson's
    inputSchema and outputSchema)."""
    status, shown = node.get_json("/api/skills/upper")
    first = (shown or {}).get("providers", [{}])[0]
    if not check(first.get("inputSchema") == INPUT_SCHEMA and
                 first.get("outputSchema") == OUTPUT_SCHEMA,
                 "GET /api/skills/{id} shows each provider's inputSchema and outputSchema",
                 str(shown)):
        # The provider stands in for the node so that the CLI's schema checks still run.
        entry = dict(skill("agent-a", "upper", f"{provider.url}/skills/async"))
        entry.update(id="upper", access="public", inputSchema=INPUT_SCHEMA,
                     outputSchema=OUTPUT_SCHEMA)
        with urllib.request.urlopen(urllib.request.Request(
                provider.url + "/_skills", data=json.dumps({"id": "upper", "providers": [entry]})
                .encode(), method="POST"), timeout=5):
            pass
        invoke = Invoke(provider.url, invoke.token)
    before = len(provider.requests())
    done = invoke("upper", {"text": 5, "colour": "red"})
    expect(done, "input_invalid", "an input violating inputSchema", "/text")
    check("additionalProperties" in done.stderr and len(provider.requests()) == before,
          "every violation is named with its pointer, and nothing was sent", done.stderr)
    done = invoke("upper", {"text": 5}, "--json")
    out = output_of(done) or {}
    check(out.get("error", {}).get("kind") == "input_invalid" and
          out["error"]["violations"][0]["pointer"] == "/text",
          "--json prints the error with its violations", done.stdout)
    expect(invoke("upper", {"text": "a", "mode": "big"}, "--max-body", "4194304"),
           "output_invalid", "--max-body raises the bound (the big output then violates "
           "outputSchema)", "(the whole document)")
    expect(invoke("upper", {"text": "a", "mode": "badoutput"}), "output_invalid",
           "an output violating outputSchema", "/upper")


def cli_failures(invoke, provider):
    expect(invoke("upper", "{not json"), "input_invalid", "an input that is not JSON", "JSON")
    expect(invoke("upper", "@/nonexistent/input.json"), "usage", "an unreadable @FILE")
    expect(invoke("no-such-skill", {"text": "a"}), "not_found", "an unknown skill", "no-such")
    expect(invoke("echo", {"text": "a"}, "--agent", "agent-z"), "not_found",
           "--agent naming no provider", "agent-a")
    expect(invoke("legacy", {"text": "a"}), "not_invocable", "a host:port endpoint",
           "127.0.0.1:9999")
    expect(invoke("gone", {"text": "a"}), "connect", "an endpoint nobody listens on")
    expect(invoke("upper", {"text": "a", "mode": "4xx"}), "provider_4xx", "the provider's 422",
           "422")
    expect(invoke("upper", {"text": "a", "mode": "5xx"}), "provider_5xx", "the provider's 503",
           "overloaded")
    expect(invoke("upper", {"text": "a", "mode": "status-5xx"}, "--wait"), "provider_5xx",
           "a status request answered 500", "500")
    done = invoke("upper", {"text": "a", "mode": "slow", "sleep": 20}, "--timeout", "1500")
    expect(done, "timeout", "a provider slower than --timeout", "deadline")
    check(done.seconds < TIMEOUT_KEPT_BOUND_S,
          f"the timeout is kept (under {TIMEOUT_KEPT_BOUND_S} s, the provider takes 20 s)",
          f"{done.seconds:.1f} s")
    expect(invoke("upper", {"text": "a", "mode": "never"}, "--wait", "--timeout", "1200"),
           "timeout", "an execution that never completes", "running")
    expect(invoke("upper", {"text": "a", "mode": "badjson"}), "protocol", "invalid JSON",
           "not valid JSON")
    expect(invoke("upper", {"text": "a", "mode": "noid"}), "protocol", "a 202 without an id",
           "execution_id")
    expect(invoke("upper", {"text": "a", "mode": "foreign"}, "--wait"), "protocol",
           "a status URL on another origin", "origin")
    expect(invoke("upper", {"text": "a", "mode": "drop"}), "protocol",
           "a connection closed without an answer")
    expect(invoke("upper", {"text": "a", "mode": "big"}), "too_large",
           "an answer over the default bound", "1048576")
    expect(invoke("upper", {"text": "a", "mode": "failed"}, "--wait"), "execution_failed",
           "a failed execution", "out of memory")
    done = run(["invoke", "upper", "--input", "{}", "--http", f"127.0.0.1:{free_port()}"])
    expect(done, "node", "no node at --http", "cannot reach")
    done = run(["invoke", "upper", "--input", "{}", "--node", f"127.0.0.1:{free_port()}"])
    check(done.returncode != 0 and "--node is now --http" in done.stderr
          and "cannot reach" in done.stderr,
          "the flag's old name --node still works, with a warning", done.stderr[-400:])
    done = run(["invoke", "--help"])
    check(done.returncode == 0 and "14  the skill's endpoint" in done.stdout and
          "13  connection" in done.stdout, "--help lists the exit statuses", done.stdout[-400:])


def cli_progress(invoke):
    done = invoke("upper", {"text": "hello"}, "--wait", stderr_tty=True)
    check(done.returncode == 0 and output_of(done) == HELLO and "accepted" in done.stderr and
          "running 50% (poll 2)" in done.stderr,
          "on a terminal, progress lines go to stderr while polling", done.stderr)
    done = invoke("upper", {"text": "hello"}, "--wait")
    check("running" not in done.stderr, "not on a terminal: no progress lines", done.stderr)


def route(node, skill_id, body, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return node.call("POST", f"/api/skills/{skill_id}/invoke", body, timeout=15,
                     headers=headers)


def route_checks(node, provider, token):
    status, answer = route(node, "upper", {"input": {"text": "hello"}})
    check(status == 200 and answer["status"] == "completed" and answer["output"] == HELLO and
          answer["execution_id"], "the route waits by default and answers 200 with the output",
          str(answer))
    status, answer = route(node, "upper", {"input": {"text": "hello"}, "wait": False})
    check(status == 202 and answer["status"] == "accepted" and answer["status_url"],
          "wait: false answers 202 with the execution", str(answer))
    status, answer = route(node, "echo", {"input": {"text": "hello"}, "agentId": "agent-b"})
    check(status == 200 and answer["agentId"] == "agent-b", "agentId picks the provider",
          str(answer))
    status, answer = route(node, "guarded", {"input": {"text": "hello"}})
    check(status == 401, "a restricted skill without a token: 401", f"{status} {answer}")
    status, answer = route(node, "guarded", {"input": {"text": "hello"}}, token)
    check(status == 200 and answer["output"] == HELLO and
          provider.requests()[-1]["authorization"] == f"Bearer {token}",
          "with a token it is invoked, the token forwarded to the provider", str(answer))
    status, answer = route(node, "secret", {"input": {"text": "hello"}})
    check(status == 404 and answer["error"] == "DISC_002",
          "a private skill without a token: 404 as if absent", f"{status} {answer}")
    status, answer = route(node, "secret", {"input": {"text": "hello"}}, token)
    check(status == 200 and answer["output"] == HELLO, "a private skill with a token: 200",
          str(answer))
    cases = [
        ("upper", {"text": 5}, 400, "INVOKE_INPUT_INVALID"),
        ("no-such-skill", {"text": "a"}, 404, "DISC_002"),
        ("legacy", {"text": "a"}, 422, "INVOKE_NOT_INVOCABLE"),
        ("gone", {"text": "a"}, 502, "INVOKE_CONNECT"),
        ("upper", {"text": "a", "mode": "auth"}, 401, "INVOKE_UNAUTHORIZED"),
        ("upper", {"text": "a", "mode": "4xx"}, 502, "INVOKE_PROVIDER_4XX"),
        ("upper", {"text": "a", "mode": "5xx"}, 502, "INVOKE_PROVIDER_5XX"),
        ("upper", {"text": "a", "mode": "badjson"}, 502, "INVOKE_PROTOCOL"),
        ("upper", {"text": "a", "mode": "big"}, 502, "INVOKE_TOO_LARGE"),
        ("upper", {"text": "a", "mode": "failed"}, 502, "INVOKE_EXECUTION_FAILED"),
        ("upper", {"text": "a", "mode": "badoutput"}, 502, "INVOKE_OUTPUT_INVALID"),
        ("upper", {"text": "a", "mode": "never"}, 504, "INVOKE_TIMEOUT"),
    ]
    for skill_id, value, want_status, code in cases:
        timeout_ms = 1000 if value.get("mode") == "never" else 6000
        status, answer = route(node, skill_id, {"input": value, "timeoutMs": timeout_ms})
        check(status == want_status and (answer or {}).get("error") == code,
              f"route: {skill_id} {value}: {want_status} {code}", f"{status} {answer}")
        if code == "INVOKE_INPUT_INVALID":
            check(answer["details"]["violations"][0]["pointer"] == "/text",
                  "the violations are in the details with their pointers", str(answer))
    for body, field in (({"input": {}, "timeoutMs": 10 ** 9}, "timeoutMs"),
                        ({"input": {}, "colour": 1}, "colour"), ({"wait": True}, "input")):
        status, answer = route(node, "upper", body)
        check(status == 400 and answer["details"]["field"] == field,
              f"route: a bad {field} is refused naming it", f"{status} {answer}")
    if shutil.which("curl"):
        curl = subprocess.run(["curl", "-sS", "-X", "POST", "-H", "Content-Type: application/json",
                               "-d", '{"input": {"text": "hello"}}',
                               f"{node.url}/api/skills/upper/invoke"],
                              capture_output=True, text=True, timeout=30)
        check(curl.returncode == 0 and json.loads(curl.stdout or "{}").get("output") == HELLO,
              "curl invokes through the route", curl.stdout + curl.stderr)
    _, metrics, _ = node.get("/metrics")
    check('skillnode_invocations_total{outcome="completed"}' in metrics and
          'skillnode_invocations_total{outcome="timeout"} 1' in metrics,
          "/metrics counts invocations by outcome",
          [m for m in metrics.splitlines() if "invocation" in m])


def route_limit(node):
    answers = []

    def hold():
        answers.append(route(node, "upper", {"input": {"text": "a", "mode": "never"},
                                             "timeoutMs": 4000}))

    threads = [threading.Thread(target=hold) for _ in range(32)]
    for thread in threads:
        thread.start()
    running = wait_for(lambda: (node.info() or {}).get("invoke", {}).get("running") == 32, 10)
    check(running, "32 invocations run at once")
    status, answer = route(node, "upper", {"input": {"text": "a"}})
    check(status == 503 and answer["error"] == "INVOKE_BUSY",
          "the 33rd is answered 503 INVOKE_BUSY", f"{status} {answer}")
    for thread in threads:
        thread.join(timeout=30)
    check(len(answers) == 32 and all(s == 504 for s, _ in answers),
          "the 32 end at their deadline with 504", str([s for s, _ in answers]))
    status, answer = route(node, "upper", {"input": {"text": "hello"}})
    check(status == 200, "then invocations run again", f"{status} {answer}")


def main():
    require_binary()
    tokens_file = os.path.join(temp_dir("skillnode-invoke-tokens-"), "tokens")
    config = f"""
node:
  http: {{listen: "127.0.0.1:0", responseTimeout: 8000}}
  auth: {{tokensFile: "{tokens_file}"}}
discovery:
  # The skills send no heartbeats: they must outlive the whole test (about 25 s alone, more
  # under load) rather than expire after the default 30 s.
  healthCheck: {{timeout: 600000}}
"""
    node = Node("invoke", ["--port", "0"], config=config).start()
    added = run(["token", "add", "invoker", "--config", node.config_path])
    token = added.stdout.strip()
    check(added.returncode == 0 and token, "skillnode token add makes a token", added.stderr)
    provider = Provider(token)
    closed = free_port()  # nothing listens there
    for body in [
            skill("agent-a", "upper", f"{provider.url}/skills/async"),
            skill("agent-a", "echo", f"{provider.url}/skills/async"),
            skill("agent-b", "echo", f"{provider.url}/skills/sync"),
            skill("agent-a", "guarded", f"{provider.url}/skills/auth", "restricted"),
            skill("agent-a", "secret", f"{provider.url}/skills/auth", "private"),
            skill("agent-a", "gone", f"http://127.0.0.1:{closed}/skills/async"),
            skill("agent-a", "legacy", "127.0.0.1:9999")]:
        status, answer = node.call("POST", "/api/skills", body)
        check(status == 201, f"{body['agentId']}'s skill {body['skillId']} registers",
              f"{status} {answer}")
    invoke = Invoke(node.url, token)
    cli_successes(invoke, provider)
    cli_access(invoke, provider, token)
    cli_schemas(invoke, provider, node)
    cli_failures(invoke, provider)
    cli_progress(invoke)
    route_checks(node, provider, token)
    route_limit(node)
    code, _ = node.stop()
    check(code == 0, "the node shuts down cleanly after the invocations", str(code))
    finish()


if __name__ == "__main__":
    main()
