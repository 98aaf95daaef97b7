#!/usr/bin/env python3
"""[uv] Configuration reload on SIGHUP (`systemctl reload skillnode`), through the real binary.

Node A is a standalone bootstrap node. Node B starts on a configuration file with no bootstrap
peers and token file T1, under a NOTIFY_SOCKET of the test's own. Then:
1. B's file changes: log level debug, bootstrap peer A, token file T2, and node.http (which
   needs a restart). On SIGHUP, B logs one line per key it reloaded and one for node.http,
   joins A, takes T2's token and refuses T1's, writes debug lines, and tells the service
   manager RELOADING=1 then READY=1.
2. A file that does not parse, then one whose token file is malformed: each SIGHUP is refused
   with the error, and B keeps T2, its contacts and its level.
3. /metrics counts both outcomes; SIGTERM still exits 0.
Run: SKILLNODE=build/release/node/skillnode python3 tests/node/service/reload_test.py
"""
import os
import signal
import socket
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from skillnode_harness import (Node, check, finish, require_binary, run, temp_dir,  # noqa: E402
                               wait_for)


def config_text(tokens_file, level="info", peers=(), max_connections=256, extra=""):
    peer_list = "[" + ", ".join(f'"{p}"' for p in peers) + "]"
    return f"""
node:
  port: 0
  log: {{level: {level}}}
  http: {{listen: "127.0.0.1:0", maxConnections: {max_connections}}}
  auth: {{tokensFile: "{tokens_file}"}}
discovery:
  dht:
    bootstrapNodes: {peer_list}
{extra}"""


def add_token(config_path, name):
    added = run(["token", "add", name, "--config", config_path])
    if added.returncode != 0:
        raise RuntimeError(f"token add failed: {added.stderr}")
    return added.stdout.strip()


def status_with(node, token):
    status, _, _ = node.get("/.well-known/skill-sharing",
                            headers={"Authorization": f"Bearer {token}"})
    return status


def reloads(node, outcome):
    _, body, _ = node.get("/metrics")
    for line in body.splitlines():
        if line.startswith(f'skillnode_config_reloads_total{{outcome="{outcome}"}}'):
            return float(line.rsplit(" ", 1)[1])
    return None


class NotifySocket:
    def __init__(self):
        self.path = os.path.join(temp_dir("skillnode-reload-"), "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.settimeout(0.2)
        self.messages = []

    def drain(self):
        while True:
            try:
                self.messages.append(self.sock.recv(4096).decode())
            except socket.timeout:
                return self.messages


def write(path, text):
    with open(path + ".new", "w") as f:
        f.write(text)
    os.replace(path + ".new", path)


def main():
    require_binary()
    work = temp_dir("skillnode-reload-")
    t1, t2 = os.path.join(work, "tokens1"), os.path.join(work, "tokens2")
    config_path = os.path.join(work, "b.yaml")
    write(config_path, config_text(t1))
    token1 = add_token(config_path, "one")
    write(config_path, config_text(t2))
    token2 = add_token(config_path, "two")
    write(config_path, config_text(t1))

    a = Node("a", ["--port", "0", "--http", "127.0.0.1:0"]).start()
    peer = f"127.0.0.1:{a.udp_port()}"
    notify = NotifySocket()
    b = Node("b", ["--config", config_path],
             env=dict(os.environ, NOTIFY_SOCKET=notify.path)).start()
    check(status_with(b, token1) == 200 and status_with(b, token2) == 401,
          "before the reload: T1's token authenticates, T2's does not")
    check(b.contacts() == 0, "before the reload: B has no contacts")
    notify.drain()

    # 1. A good change.
    write(config_path, config_text(t2, level="debug", peers=[peer], max_connections=128))
    b.signal(signal.SIGHUP)
    log_has = lambda text: text in b.log_text()  # noqa: E731
    check(wait_for(lambda: log_has("configuration reload: node.http changed; it needs a restart"),
                   10), "node.http is reported as waiting for a restart", b.log_text()[-800:])
    for key in ("node.log.level", "node.auth.tokensFile", "discovery.dht.bootstrapNodes"):
        check(log_has(f"configuration reload: {key} reloaded"), f"{key}: one line, reloaded")
    check(wait_for(lambda: b.contacts() > 0, 10), "B joins A through the new bootstrap peer")
    check(status_with(b, token2) == 200 and status_with(b, token1) == 401,
          "after the reload: T2's token authenticates and T1's is refused")
    check(wait_for(lambda: " debug " in b.log_text(), 10), "B now writes debug lines")
    messages = notify.drain()
    reloading = [i for i, m in enumerate(messages) if "RELOADING=1" in m]
    ready = [i for i, m in enumerate(messages) if "READY=1" in m]
    check(reloading and ready and ready[-1] > reloading[0],
          "the service manager is told RELOADING=1, then READY=1", f"{messages}")
    check(reloads(b, "applied") == 1, "skillnode_config_reloads_total{outcome=applied} is 1")

    # 2. Bad changes are refused whole; the running configuration stays.
    log_size = len(b.log_text())
    write(config_path, config_text(t1, level="error") + "    replicationFactor: 0\n")
    b.signal(signal.SIGHUP)
    refused = wait_for(lambda: "configuration reload refused" in b.log_text()[log_size:], 10)
    tail = b.log_text()[log_size:]
    check(refused and "discovery.dht.replicationFactor" in tail and
          "the running configuration stays" in tail,
          "a configuration that does not parse is refused with the key at fault", tail[-600:])

    bad_tokens = os.path.join(work, "tokens-bad")
    with open(bad_tokens, "w") as f:
        f.write("not a token line\n")
    os.chmod(bad_tokens, 0o600)
    log_size = len(b.log_text())
    write(config_path, config_text(bad_tokens, level="error", peers=[peer]))
    b.signal(signal.SIGHUP)
    refused = wait_for(lambda: "configuration reload refused" in b.log_text()[log_size:], 10)
    tail = b.log_text()[log_size:]
    check(refused and "node.auth.tokensFile" in tail and bad_tokens in tail,
          "a token file that cannot be read refuses the whole reload, naming the file",
          tail[-600:])
    check(status_with(b, token2) == 200 and status_with(b, token1) == 401,
          "after the refusals T2's token still authenticates")
    # A reload runs in one turn of the node's loop, checking every part before any applies, so
    # the log after the refusal and after the requests just answered holds all it will log.
    tail = b.log_text()[log_size:]
    check("configuration reload: node.log.level reloaded" not in tail,
          "... so not even the valid keys of that file (the log level) are applied")
    check(b.contacts() > 0, "... B keeps its contacts")
    status, _, _ = b.get("/health")
    check(status == 200, "... and serves /health")
    check(reloads(b, "refused") == 2 and reloads(b, "applied") == 1,
          "skillnode_config_reloads_total counts 1 applied and 2 refused")
    code, _ = b.stop()
    check(code == 0, "B exits 0 on SIGTERM after the reloads", str(code))
    a.stop()
    finish()


if __name__ == "__main__":
    main()
