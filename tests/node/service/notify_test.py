#!/usr/bin/env python3
"""[uv] The service manager's notification protocol (sd_notify), as systemd's Type=notify uses it.

The test plays the service manager: it listens on a NOTIFY_SOCKET of its own (a Unix datagram
socket) and starts real skillnode processes with NOTIFY_SOCKET and WATCHDOG_USEC set. It checks:
- READY=1 comes once, with a STATUS= line, and only when the HTTP API accepts connections and
  the DHT's UDP port is bound;
- WATCHDOG=1 comes every half WATCHDOG_USEC while the node runs;
- STATUS= follows the node's state: a contact joins, a skill registers;
- STOPPING=1 comes on SIGTERM, and the node exits 0;
- WATCHDOG_PID naming another process turns the pings off;
- a NOTIFY_SOCKET nobody listens on costs one warning, and the node serves as usual;
- with stderr as the journal's stream (JOURNAL_STREAM), every line starts with its syslog
  priority and carries no timestamp of its own.
Run: SKILLNODE=build/release/node/skillnode python3 tests/node/service/notify_test.py
"""
import errno
import os
import re
import signal
import socket
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from skillnode_harness import Node, check, finish, require_binary, temp_dir, wait_for  # noqa: E402

CONFIG = """
node:
  port: 0
  http: {listen: "127.0.0.1:0"}
"""
WATCHDOG_USEC = 1_000_000  # pings every 500 ms
# "About every half WATCHDOG_USEC": the median gap between pings must lie within these fractions
# of WATCHDOG_USEC. A bound, not a speed: a loaded machine (tests side by side with a compile on
# 2 cores) delays single pings, which the median ignores; the bounds still tell half from a
# ping every WATCHDOG_USEC (1.0, which systemd would already find late) and from a burst.
PING_GAP_MEDIAN_BOUNDS = (0.3, 0.75)
UDP_RE = re.compile(r"DHT on udp [0-9.]+:(\d+)")
# "<6>message": a priority, then no "2026-11-27 07:20:23.985" of our own.
JOURNAL_LINE = re.compile(r"^<[0-7]>(?!\d{4}-\d\d-\d\d )\S")

SKILL = {
    "agentId": "agent-notify",
    "skillId": "skill-notify-test",
    "version": "1.0.0",
    "skillType": "tool",
    "endpoint": "http://127.0.0.1:9/api",
    "capabilities": ["notify-test"],
    "scenes": ["test"],
    "descriptor": {"name": "Notify test", "description": "A registration to change the status"},
}


class Manager:
    """The service manager's end: a datagram socket that records (time, fields) per message."""

    def __init__(self, name):
        self.path = os.path.join(temp_dir("skillnode-notify-"), f"{name}.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.messages = []

    def env(self, **extra):
        env = dict(os.environ, NOTIFY_SOCKET=self.path)
        for key in ("WATCHDOG_USEC", "WATCHDOG_PID"):
            env.pop(key, None)
        env.update({k: str(v) for k, v in extra.items()})
        return env

    def receive(self, timeout):
        """Reads one message, or returns None after `timeout` seconds."""
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(4096)
        except socket.timeout:
            return None
        fields = dict(line.split("=", 1) for line in data.decode().split("\n") if "=" in line)
        self.messages.append((time.monotonic(), fields))
        return fields

    def until(self, predicate, timeout):
        """Reads until a message satisfies `predicate`; returns it, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            fields = self.receive(max(0.01, deadline - time.monotonic()))
            if fields is not None and predicate(fields):
                return fields
        return None

    def close(self):
        self.sock.close()


def udp_port_bound(port):
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.bind(("0.0.0.0", port))
        return False
    except OSError as e:
        return e.errno == errno.EADDRINUSE
    finally:
        probe.close()


def http_accepts(address):
    host, port = address.rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=1):
            return True
    except OSError:
        return False


def ready_and_watchdog():
    manager = Manager("a")
    a = Node("a", config=CONFIG, env=manager.env(WATCHDOG_USEC=WATCHDOG_USEC)).start(wait=False)
    ready = manager.until(lambda f: "READY" in f, 30)
    check(ready is not None and ready.get("READY") == "1", "READY=1 arrives", f"{manager.messages}")
    if ready is None:
        return None
    # READY=1 is sent after the log names the listeners, so the addresses can be read now.
    a.url = a._listening_url()
    udp = UDP_RE.search(a.log_text())
    check(a.url is not None and http_accepts(a.http_address()),
          "the HTTP API accepts connections when READY=1 arrives", a.url or "no address logged")
    check(udp is not None and udp_port_bound(int(udp.group(1))),
          "the DHT's UDP port is bound when READY=1 arrives", udp.group(0) if udp else "no port")
    check(ready.get("STATUS", "").startswith("standalone"),
          "READY=1 carries the status line (standalone, no contacts)", ready.get("STATUS"))

    # The pings: every half WATCHDOG_USEC, measured over three seconds.
    start = time.monotonic()
    while time.monotonic() - start < 3.0:
        manager.receive(0.5)
    pings = [t for t, f in manager.messages if f.get("WATCHDOG") == "1" and t >= start]
    gaps = [b - a_ for a_, b in zip(pings, pings[1:])]
    median_ms = statistics.median(gaps) * 1000 if gaps else 0
    low, high = (bound * WATCHDOG_USEC / 1000 for bound in PING_GAP_MEDIAN_BOUNDS)
    check(len(pings) >= 5 and low <= median_ms <= high,
          f"WATCHDOG=1 every half WATCHDOG_USEC ({len(pings)} pings in 3 s, median gap "
          f"{median_ms:.0f} ms against 500 ms, bounds {low:.0f}..{high:.0f} ms)")
    check(gaps and max(gaps) * 1_000_000 < WATCHDOG_USEC,
          "no gap between pings reaches WATCHDOG_USEC",
          f"largest {max(gaps) * 1000:.0f} ms" if gaps else "no pings")
    readies = [f for _, f in manager.messages if "READY" in f]
    check(len(readies) == 1, "READY=1 is sent once", f"{len(readies)} times")
    return manager, a


def status_follows_state(manager, a):
    b = Node("b", ["--port", "0", "--bootstrap", f"127.0.0.1:{a.udp_port()}"],
             config=CONFIG).start()
    joined = manager.until(lambda f: f.get("STATUS", "").startswith("1 contacts"), 10)
    check(joined is not None, "STATUS= changes when a contact joins", f"{manager.messages[-3:]}")
    status, _ = a.call("POST", "/api/skills", SKILL)
    check(status == 201, "a skill registers with the node", str(status))
    registered = manager.until(lambda f: "1 registered skills" in f.get("STATUS", ""), 10)
    check(registered is not None, "STATUS= counts the registered skill",
          f"{manager.messages[-3:]}")
    statuses = [f["STATUS"] for _, f in manager.messages if "STATUS" in f]
    repeats = [s for s, t in zip(statuses, statuses[1:]) if s == t]
    check(not repeats, "a STATUS= line is sent only when it changed", f"{repeats[:2]}")
    b.stop()


def stopping(manager, a):
    a.signal(signal.SIGTERM)
    stop = manager.until(lambda f: "STOPPING" in f, 10)
    check(stop is not None and stop.get("STOPPING") == "1", "STOPPING=1 arrives on SIGTERM",
          f"{manager.messages[-3:]}")
    check(stop is not None and "shutting down" in stop.get("STATUS", ""),
          "STOPPING=1 carries a status line saying why", f"{stop}")
    check(a.wait(10) == 0, "the node exits 0 after STOPPING=1", a.log_text()[-500:])
    manager.close()


def watchdog_for_another_pid():
    manager = Manager("c")
    env = manager.env(WATCHDOG_USEC=WATCHDOG_USEC, WATCHDOG_PID=os.getpid())
    c = Node("c", config=CONFIG, env=env).start(wait=False)
    ready = manager.until(lambda f: "READY" in f, 30)
    check(ready is not None, "with WATCHDOG_PID naming another process: READY=1 still arrives")
    extra = manager.until(lambda f: "WATCHDOG" in f, 1.0)
    check(extra is None, "... and no WATCHDOG=1 is sent", f"{extra}")
    c.stop()
    manager.close()


def nobody_listening_into_the_journal():
    path = os.path.join(temp_dir("skillnode-notify-"), "gone.sock")
    d = Node("d", config=CONFIG)
    open(d.log_path, "w").close()  # the journal's stream: stderr's device and inode
    log = os.stat(d.log_path)
    d.env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC=str(WATCHDOG_USEC),
                 JOURNAL_STREAM=f"{log.st_dev}:{log.st_ino}")
    d.start()
    status, _, _ = d.get("/health")
    check(status == 200, "with nobody on NOTIFY_SOCKET the node serves /health", str(status))
    # Three more pings must have been tried and failed: the first went with READY=1, before the
    # log line below; the watchdog timer then sends one every 500 ms. Nothing counts the failed
    # sends from outside, so the test waits for the time of three more pings after that line,
    # then for an answer from the node: its loop, which runs the watchdog timer, has had its
    # turns meanwhile. A load makes the wait longer, never too short.
    logged = wait_for(lambda: "watchdog pings every 500 ms" in d.log_text(), 10)
    check(logged, "... the node says it pings the watchdog every 500 ms", d.log_text()[-500:])
    since = time.monotonic()
    wait_for(lambda: time.monotonic() - since >= 3.2 * WATCHDOG_USEC / 2 / 1_000_000, 10)
    status, _, _ = d.get("/health")
    check(status == 200, "... and still serves /health after three pings' worth of failed sends",
          str(status))
    warnings = d.log_text().count("cannot notify the service manager")
    check(warnings == 1, "... and warns once, not every ping", f"{warnings} warnings")
    code, _ = d.stop()
    check(code == 0, "... and exits 0 on SIGTERM", str(code))
    lines = d.log_text().splitlines()
    unprefixed = [line for line in lines if not JOURNAL_LINE.match(line)]
    check(lines and not unprefixed, "journal lines: each starts with its priority, no timestamp",
          f"{unprefixed[:2]}")
    check(any(line.startswith("<4>cannot notify the service manager") for line in lines),
          "... a warning is <4>", f"{lines[:3]}")
    check(any(line.startswith("<6>HTTP API listening on") for line in lines),
          "... an info line is <6>", f"{lines[:3]}")


def main():
    require_binary()
    started = ready_and_watchdog()
    if started is not None:
        manager, a = started
        status_follows_state(manager, a)
        stopping(manager, a)
    watchdog_for_another_pid()
    nobody_listening_into_the_journal()
    finish()


if __name__ == "__main__":
    main()
