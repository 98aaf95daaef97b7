#!/usr/bin/env python3
"""[uv] The skillnode command line: --help, --check-config, refused configurations, keygen,
status, JSON logs, corrupt saved state, start failures, and the embedded default.
Run: SKILLNODE=build/daemon/node/skillnode python3 tests/node/cli/cli_test.py
"""
import json
import os
import re
import socket
import stat
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from skillnode_harness import (Node, check, finish, require_binary, run, temp_dir)

GOOD = """
node:
  port: 0
  http: {listen: "127.0.0.1:0"}
discovery:
  dht:
    bootstrapNodes:
      - host: dht1.example.net
        port: 6881
      - 10.0.0.1:6881
    replicationFactor: 3
"""

# (file text, the message the refusal must contain)
BAD = [
    ("discovery:\n  dht:\n    replicationFactor: 0\n",
     "discovery.dht.replicationFactor: must be between 1 and 20, got 0"),
    ("discovery:\n  dht:\n    replicationFactr: 3\n",
     "discovery.dht.replicationFactr: unknown key"),
    ("node:\n  port: many\n", "node.port: expected an integer, got 'many'"),
    ("discovery:\n  udp:\n    enabled: maybe\n",
     "discovery.udp.enabled: expected true or false, got 'maybe'"),
    ("discovery:\n  dht:\n    bootstrapNodes:\n      - {host: 'no such host!', port: 6881}\n",
     "discovery.dht.bootstrapNodes[0].host: "),
    ("discovery:\n  dht:\n    bootstrapNodes: ['dht1.example.net:0']\n",
     "discovery.dht.bootstrapNodes[0]: "),
    ("node:\n  http: {listen: 'localhost'}\n", "node.http.listen: expected ADDRESS:PORT"),
    ("node: [\n", "line "),
]


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def help_is_complete():
    top = run(["--help"])
    check(top.returncode == 0 and all(s in top.stdout for s in ("run", "status", "keygen")),
          "skillnode --help lists run, status and keygen")
    expected = {
        "run": ["--config", "--check-config", "--port", "--http", "--data-dir", "--bootstrap",
                "--network-id", "--log-level", "--log-format"],
        "status": ["--http", "--config", "--json", "--timeout"],
        "keygen": ["--out", "--data-dir", "--force"],
    }
    for command, flags in expected.items():
        out = run([command, "--help"])
        missing = [f for f in flags if f not in out.stdout]
        check(out.returncode == 0 and not missing, f"skillnode {command} --help lists every flag",
              f"missing {missing}")
    bad = run(["run", "--no-such-flag"])
    check(bad.returncode == 2, "an unknown flag exits with status 2")
    version = run(["--version"])
    check(version.returncode == 0 and "skillnode" in version.stdout, "--version prints a version")


def check_config(directory):
    good = write(directory, "good.yaml", GOOD)
    out = run(["run", "--check-config", good])
    check(out.returncode == 0 and "configuration is valid" in out.stdout,
          "--check-config accepts a file in the seed's shape", out.stderr)
    for index, (text, message) in enumerate(BAD):
        path = write(directory, f"bad{index}.yaml", text)
        out = run(["run", "--check-config", path])
        check(out.returncode == 2 and message in out.stderr,
              f"--check-config refuses ({message.strip()})", out.stderr.strip())
    path = write(directory, "bad-run.yaml", BAD[0][0])
    out = run(["run", "--config", path], timeout=10)
    check(out.returncode == 2 and BAD[0][1] in out.stderr and "listening" not in out.stderr,
          "run --config with a bad file exits 2 before starting")
    out = run(["run", "--check-config", os.path.join(directory, "missing.yaml")])
    check(out.returncode == 2 and "missing.yaml does not exist" in out.stderr,
          "--check-config names a missing file")
    for flags, message in ((["--port", "70000"], "--port"),
                           (["--http", "nowhere"], "--http: expected ADDRESS:PORT"),
                           (["--bootstrap", "bad host:1"], "--bootstrap: expected HOST:PORT"),
                           (["--log-level", "loud"], "--log-level")):
        out = run(["run", "--check-config", good] + flags)
        check(out.returncode == 2 and message in out.stderr,
              f"a bad flag is refused: {' '.join(flags)}", out.stderr.strip())


def keygen_and_status(directory):
    data = os.path.join(directory, "keyed")
    out = run(["keygen", "--data-dir", data])
    node_id = out.stdout.strip()
    path = os.path.join(data, "identity")
    check(out.returncode == 0 and re.fullmatch(r"[0-9a-f]{64}", node_id),
          "keygen prints a 64-hex node id")
    check(stat.S_IMODE(os.stat(path).st_mode) == 0o600, "keygen writes the identity with mode 0600")
    again = run(["keygen", "--data-dir", data])
    check(again.returncode == 1 and "--force" in again.stderr,
          "keygen refuses to replace an identity without --force")
    node = Node("keyed", ["--port", "0", "--http", "127.0.0.1:0"], data_dir=data).start()
    check(node.info()["id"] == node_id, "a node started on that data directory has that id")
    out = run(["status", "--http", node.http_address()])
    check(out.returncode == 0 and node_id in out.stdout and "contacts" in out.stdout,
          "status prints the node's id and routing table", out.stdout + out.stderr)
    out = run(["status", "--http", node.http_address(), "--json"])
    check(out.returncode == 0 and json.loads(out.stdout)["id"] == node_id,
          "status --json prints the node's JSON")
    node.stop()
    forced = run(["keygen", "--data-dir", data, "--force"])
    check(forced.returncode == 0 and forced.stdout.strip() != node_id,
          "keygen --force replaces the identity")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        unused = s.getsockname()[1]
    out = run(["status", "--http", f"127.0.0.1:{unused}", "--timeout", "2000"])
    check(out.returncode == 1 and "cannot reach a node" in out.stderr,
          "status says so when no node answers")


def json_logs():
    node = Node("json", ["--port", "0", "--http", "127.0.0.1:0", "--log-format", "json"]).start()
    node.stop()
    lines = [line for line in node.log_text().splitlines() if line.strip()]
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except json.JSONDecodeError:
            parsed.append(None)
    check(lines and all(p and {"ts", "level", "msg"} <= set(p) for p in parsed),
          f"--log-format json: all {len(lines)} lines are JSON objects with ts, level, msg")
    check(any(p and p["msg"].startswith("HTTP API listening on") for p in parsed),
          "--log-format json: the listening line is there")


def corrupt_state_and_start_failures(directory):
    data = os.path.join(directory, "corrupt")
    os.makedirs(data, mode=0o700)
    write(data, "contacts", "skillnode-contacts v1\nnetwork 0\ngarbage\n")
    write(data, "identity", "not an identity\n")
    os.chmod(os.path.join(data, "identity"), 0o600)
    node = Node("corrupt", ["--port", "0", "--http", "127.0.0.1:0"], data_dir=data).start()
    names = os.listdir(data)
    check(any(n.startswith("contacts.corrupt-") for n in names)
          and any(n.startswith("identity.corrupt-") for n in names),
          "corrupt saved state is set aside as *.corrupt-<time>", str(names))
    log = node.log_text()
    check("saved contacts are corrupt" in log and "identity file is corrupt" in log,
          "corrupt saved state is reported in the log")
    taken = node.http_address()
    second = run(["run", "--data-dir", os.path.join(directory, "second"), "--port", "0",
                  "--http", taken], timeout=15)
    check(second.returncode == 1 and "cannot listen on " + taken in second.stderr,
          "a taken HTTP port: exit status 1 naming the address", second.stderr.strip())
    code, _ = node.stop()
    check(code == 0, "the node with corrupt saved state ran and stopped cleanly")
    os.chmod(os.path.join(data, "identity"), 0o644)
    refused = run(["run", "--data-dir", data, "--port", "0", "--http", "127.0.0.1:0"], timeout=15)
    check(refused.returncode == 1 and "chmod 600" in refused.stderr,
          "an identity others can read is refused with the fix")


def embedded_default(directory):
    """`skillnode run` with no flags (as `make run` does), HOME pointing at a temp dir."""
    for port, kind in ((7070, socket.SOCK_STREAM), (6881, socket.SOCK_DGRAM)):
        with socket.socket(socket.AF_INET, kind) as s:
            try:
                s.bind(("127.0.0.1" if kind == socket.SOCK_STREAM else "0.0.0.0", port))
            except OSError:
                print(f"note: port {port} is in use here; the embedded-default check is skipped")
                return
    env = dict(os.environ, HOME=directory)
    env.pop("XDG_DATA_HOME", None)
    node = Node("default", data_dir=os.path.join(directory, ".local/share/skillnode"), env=env,
                pass_data_dir=False)
    try:
        node.start(timeout=15)
    except RuntimeError as error:
        check(False, "skillnode run with no flags starts", str(error))
        return
    check(node.url == "http://127.0.0.1:7070",
          "skillnode run with no flags: 'HTTP API listening on http://127.0.0.1:7070'")
    if node.url:
        info = node.info()
        check(info["listen"][0] == "0.0.0.0:6881" and info["data_dir"] == node.data_dir,
              "the embedded default: DHT on UDP 6881, data in ~/.local/share/skillnode")
        check(info["dht"]["bootstrapPhase"] == "standalone", "the embedded default is standalone")
        code, _ = node.stop()
        check(code == 0, "the default node stops cleanly")


def main():
    require_binary()
    directory = temp_dir()
    help_is_complete()
    check_config(directory)
    keygen_and_status(directory)
    json_logs()
    corrupt_state_and_start_failures(directory)
    embedded_default(directory)
    finish()


if __name__ == "__main__":
    main()
