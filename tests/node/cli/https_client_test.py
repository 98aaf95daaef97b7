#!/usr/bin/env python3
"""[uv] The client subcommands against a node at an https:// address, with and without
--cacert.

A throw-away root CA (tests/node/test_pki.py) signs a server certificate for 127.0.0.1 (IP
subjectAltName); a foreign root signs nothing the server has.
1. `openssl s_server -WWW` stands in for a node: it serves api/node (a GET /api/node answer)
   and a watch event stream from a temporary directory over TLS. `status` with the right CA
   prints the node id; without --cacert or with the foreign CA it exits 1 with curl's
   certificate message; `--http ftp://x` and a missing --cacert file exit 2 naming the
   problem. `watch` prints the served events with the CA and exits 1 without it.
2. A real node with node.https: status, register, heartbeat, discover, invoke (the lookup;
   the provider is not there, so exit 13), mcp (list_skills) and unregister over https with
   --cacert, and each of them refused on the certificate without it.
Run: SKILLNODE=build/release/node/skillnode python3 tests/node/cli/https_client_test.py
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import skillnode_harness  # noqa: E402
from skillnode_harness import (Node, check, finish, require_binary, run, temp_dir,  # noqa: E402
                               wait_for)
from test_pki import Pki  # noqa: E402

NODE_ID = "5e" * 32
SCENE = "https-scene"
CERT_PROBLEM = "SSL certificate problem"  # curl's message
CERT_HINT = "give the CA that signed it with --cacert"  # ours after it
ACCEPT_RE = re.compile(r"^ACCEPT 127\.0\.0\.1:(\d+)$", re.MULTILINE)
HTTPS_RE = re.compile(r"HTTPS API listening on (https://\S+);")
# What GET /api/node answers (node/daemon/node_api.h), in short, by its former snake_case
# names (still sent as aliases).
NODE_INFO = {
    "id": NODE_ID, "version": "0.1.0", "network_id": 0, "addresses": ["127.0.0.1:6881"],
    "listen": ["0.0.0.0:6881"], "observed_address": None, "http": None, "https": None,
    "uptime_s": 3723, "data_dir": "/var/lib/skillnode",
    "routing_table": {"contacts": 3, "buckets": 1, "replacements": 0},
    "dht": {"enabled": True, "bootstrap_phase": "ready"},
}
WATCH_EVENTS = (f'event: ready\ndata: {{"scene": "{SCENE}"}}\n\n'
                'event: added\ndata: {"id": "served-skill", "agentId": "served-agent", '
                '"version": "1.0.0", "status": "HEALTHY", "endpoint": "http://127.0.0.1:1"}\n\n')
SKILL = ["--agent", "https-agent", "--skill", "https-skill"]
MCP_INIT = {"protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "https-test", "version": "1"}}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def start_s_server(cert, key):
    """openssl s_server -WWW on a free port of 127.0.0.1, serving files from a temporary
    directory (GET /a/b answers the file a/b); returns its https:// URL."""
    www = temp_dir("skillnode-https-www-")
    write(os.path.join(www, "api", "node"), json.dumps(NODE_INFO))
    write(os.path.join(www, "api", "v1", f"watch?scene={SCENE}"), WATCH_EVENTS)
    log_path = os.path.join(temp_dir("skillnode-https-log-"), "s_server.log")
    with open(log_path, "w") as log:
        proc = subprocess.Popen(["openssl", "s_server", "-WWW", "-accept", "127.0.0.1:0",
                                 "-cert", cert, "-key", key], cwd=www, stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT)
    skillnode_harness._processes.append(proc)

    def port():
        if proc.poll() is not None:
            raise RuntimeError(f"openssl s_server exited with {proc.returncode}")
        with open(log_path) as f:
            found = ACCEPT_RE.search(f.read())
        return found and found.group(1)

    listening = wait_for(port, 20)
    if not listening:
        raise RuntimeError("openssl s_server did not say where it listens")
    return f"https://127.0.0.1:{listening}"


def refused_on_certificate(done):
    return done.returncode == 1 and CERT_PROBLEM in done.stderr and CERT_HINT in done.stderr


def status_against_s_server(url, root, foreign, directory):
    done = run(["status", "--http", url, "--cacert", root])
    check(done.returncode == 0 and NODE_ID in done.stdout and f"skillnode at {url}" in done.stdout
          and "https" not in done.stdout.replace(url, ""),
          "status --http https://... --cacert CA prints the node id (no https line for null)",
          done.stdout + done.stderr)
    done = run(["status", "--http", url + "/", "--cacert", root, "--json"])
    check(done.returncode == 0 and json.loads(done.stdout or "{}").get("id") == NODE_ID,
          "status --json over https (a trailing slash is fine)", done.stdout + done.stderr)
    done = run(["status", "--http", url])
    check(refused_on_certificate(done),
          "status without --cacert: exit 1 with curl's certificate message and a hint",
          f"{done.returncode} {done.stderr.strip()}")
    done = run(["status", "--http", url, "--cacert", foreign])
    check(refused_on_certificate(done), "status with a foreign CA: exit 1, certificate refused",
          f"{done.returncode} {done.stderr.strip()}")
    done = run(["status", "--http", "ftp://x"])
    check(done.returncode == 2 and "--http: 'ftp://x': the scheme must be http:// or https://, "
          "not 'ftp://'" in done.stderr, "status --http ftp://x: exit 2 naming the scheme",
          f"{done.returncode} {done.stderr.strip()}")
    done = run(["status", "--http", url + "/api"])
    check(done.returncode == 2 and "no path" in done.stderr,
          "status --http with a path: exit 2 naming it", f"{done.returncode} {done.stderr.strip()}")
    missing = os.path.join(directory, "missing-ca.pem")
    done = run(["status", "--http", url, "--cacert", missing])
    check(done.returncode == 2 and "missing-ca.pem" in done.stderr,
          "status --cacert with a missing file: exit 2 naming it",
          f"{done.returncode} {done.stderr.strip()}")


def watch_against_s_server(url, root):
    done = run(["watch", "--http", url, "--cacert", root, "--scene", SCENE], timeout=20)
    check(done.returncode == 0 and "watching" in done.stdout and "served-skill" in done.stdout,
          "watch over https with --cacert prints the events", done.stdout + done.stderr)
    done = run(["watch", "--http", url, "--scene", SCENE], timeout=20)
    check(refused_on_certificate(done), "watch without --cacert: exit 1, certificate refused",
          f"{done.returncode} {done.stderr.strip()}")


def start_https_node(cert, key):
    """A node serving plain HTTP (for the harness) and HTTPS; returns it and its https URL."""
    node = Node("https-client", ["--port", "0"], config=f"""
node:
  http: {{listen: "127.0.0.1:0"}}
  https:
    listen: "127.0.0.1:0"
    certFile: "{cert}"
    keyFile: "{key}"
""").start()
    url = wait_for(lambda: (HTTPS_RE.findall(node.log_text()) or [None])[-1], 20)
    if not url:
        raise RuntimeError(f"the node did not listen on HTTPS; log:\n{node.log_text()}")
    return node, url


def mcp_list_skills(url, *extra):
    """`skillnode mcp` asked for list_skills; returns the tool result's text."""
    lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": MCP_INIT},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "list_skills", "arguments": {}}}]
    done = subprocess.run([skillnode_harness.BINARY, "mcp", "--http", url, "--timeout", "10000",
                           *extra], input="".join(json.dumps(line) + "\n" for line in lines),
                          capture_output=True, text=True, timeout=30)
    for line in done.stdout.splitlines():
        answer = json.loads(line)
        if answer.get("id") == 2:
            return " ".join(part.get("text", "") for part in answer["result"]["content"])
    return f"no answer (exit {done.returncode}): {done.stderr.strip()}"


def clients_against_node(url, root):
    ca = ["--cacert", root]
    done = run(["status", "--http", url] + ca)
    check(done.returncode == 0 and "node id" in done.stdout and
          re.search(r"^  https +" + re.escape(url) + "$", done.stdout, re.MULTILINE),
          "status against a real node's https listener shows its https URL",
          done.stdout + done.stderr)
    register = ["register", "--http", url] + SKILL + [
        "--skill-version", "1.0.0", "--type", "tool-skill", "--endpoint", "http://127.0.0.1:1",
        "--scene", SCENE, "--capability", "https-check"]
    done = run(register)
    check(refused_on_certificate(done), "register without --cacert: certificate refused",
          done.stderr.strip())
    done = run(register + ca)
    check(done.returncode == 0 and "SUCCESS" in done.stdout, "register over https with --cacert",
          done.stdout + done.stderr)
    heartbeat = ["heartbeat", "--http", url] + SKILL
    check(refused_on_certificate(run(heartbeat)), "heartbeat without --cacert: certificate refused")
    done = run(heartbeat + ca)
    check(done.returncode == 0 and "HEALTHY" in done.stdout, "heartbeat over https with --cacert",
          done.stdout + done.stderr)
    discover = ["discover", "--http", url, "--scene", SCENE]
    check(refused_on_certificate(run(discover)), "discover without --cacert: certificate refused")
    done = run(discover + ca)
    check(done.returncode == 0 and "https-skill" in done.stdout,
          "discover over https with --cacert finds the skill", done.stdout + done.stderr)
    invoke = ["invoke", "https-skill", "--input", "{}", "--http", url, "--timeout", "10000"]
    done = run(invoke)
    check(refused_on_certificate(done),
          "invoke without --cacert: the node's certificate is refused (exit 1)",
          f"{done.returncode} {done.stderr.strip()}")
    done = run(invoke + ca)
    check(done.returncode == 13 and CERT_PROBLEM not in done.stderr,
          "invoke --cacert finds the skill over https; its absent provider is exit 13",
          f"{done.returncode} {done.stderr.strip()}")
    text = mcp_list_skills(url)
    check(CERT_PROBLEM in text and CERT_HINT in text,
          "mcp without --cacert: list_skills says the certificate failed", text)
    text = mcp_list_skills(url, *ca)
    check("https-skill" in text, "mcp --cacert: list_skills over https lists the skill", text)
    unregister = ["unregister", "--http", url] + SKILL
    check(refused_on_certificate(run(unregister)),
          "unregister without --cacert: certificate refused")
    done = run(unregister + ca)
    check(done.returncode == 0 and "UNREGISTERED" in done.stdout,
          "unregister over https with --cacert", done.stdout + done.stderr)


def main():
    require_binary()
    directory = temp_dir("skillnode-https-client-")
    pki = Pki(os.path.join(directory, "pki"))
    cert, key = pki.server("server")
    root, foreign = pki.path("root.pem"), pki.path("foreign.pem")
    url = start_s_server(cert, key)
    status_against_s_server(url, root, foreign, directory)
    watch_against_s_server(url, root)
    node, node_url = start_https_node(cert, key)
    clients_against_node(node_url, root)
    code, _ = node.stop()
    check(code == 0, "the node exits 0 on SIGTERM", f"exit {code}")
    finish()


if __name__ == "__main__":
    main()
