"""The two clusters cluster_bench.py runs side by side: N skillnode processes driven over
their HTTP API, and N OpenDHT `dhtnode` processes driven over their stdin, each with the same
put, get and stop operations and the counters the report needs."""
import hashlib
import http.client
import json
import os
import queue
import re
import signal
import subprocess
import threading
import time

from benchlib import processes, scratch

# Started at once after the first node: a join storm of all N through one node is not what is
# measured.
START_BATCH = 16
OP_TIMEOUT_S = 30.0
# The lookup's k on each side: skillnode's bucket size, OpenDHT's target nodes.
SKILLNODE_K = 20
OPENDHT_K = 8
HTTP_IDLE_RECONNECT_S = 20.0  # skillnode closes kept-alive connections idle for 30 s

def reap(procs, timeout=10):
    """Waits for processes told to stop; kills those still running after `timeout` s each."""
    for proc in procs:
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_ready(items, ready, what, timeout=30):
    deadline = time.monotonic() + timeout
    pending = list(items)
    while pending and time.monotonic() < deadline:
        pending = [item for item in pending if not ready(item)]
        if pending:
            time.sleep(0.05)
    if pending:
        raise RuntimeError(f"{len(pending)} {what} did not start within {timeout} s")


# skillnode's own counters, summed over the nodes, per put and per get (where the work goes).
COUNTERS = {"skillnode_datagrams_sent_total": "datagrams sent",
            "skillnode_store_gets_total": "DHT gets (FIND_VALUE lookups)",
            "skillnode_lookups_started_total": "lookups",
            "skillnode_find_value_served_total": "FIND_VALUE answered",
            'skillnode_store_requests_total{result="accepted"}': "STOREs accepted",
            "skillnode_listen_pushes_sent_total": "listen pushes"}


# No skill behind the benchmark's registrations sends heartbeats: with the default health
# check (heartbeats every 5 s, UNHEALTHY after 3 missed, unpublished after 30 s) every
# registration would be published again as UNHEALTHY, and then removed, while the gets run.
# OpenDHT's values have no health. As in registry_bench.py, the health check is out of the way.
SKILLNODE_CONFIG = """
discovery:
  healthCheck: {heartbeatInterval: 600000, timeout: 3600000, unhealthyThreshold: 3}
"""


class SkillnodeCluster:
    name = "skillnode"
    k = SKILLNODE_K

    def __init__(self, binary, n, network_id):
        self.binary = binary
        self.n = n
        self.network_id = network_id
        self.procs, self.logs, self.addresses, self.ids, self.conns, self.used = \
            [], [], [], [], [], []

    def _spawn(self, i, bootstrap):
        data = os.path.join(scratch, f"sn{self.n}-{i}")
        log = open(data + ".log", "w+")
        config = os.path.join(scratch, "skillnode.yaml")
        if not os.path.exists(config):
            with open(config, "w") as f:
                f.write(SKILLNODE_CONFIG)
        args = [self.binary, "run", "--config", config, "--port", "0", "--http", "127.0.0.1:0",
                "--no-lan", "--no-port-mapping", "--network-id", str(self.network_id), "--data-dir", data,
                "--log-level", "info"]
        if bootstrap:
            args += ["-b", bootstrap]
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=log)
        processes.append(proc)
        self.procs.append(proc)
        self.logs.append(log)
        self.addresses.append(None)

    def _ready(self, i):
        if self.addresses[i] is None:
            if self.procs[i].poll() is not None:
                raise RuntimeError(f"skillnode {i} exited with {self.procs[i].returncode}")
            self.logs[i].seek(0)
            m = re.search(r"HTTP API listening on http://(\S+)", self.logs[i].read())
            if m:
                self.addresses[i] = m.group(1)
        return self.addresses[i] is not None

    def start(self):
        self._spawn(0, None)
        wait_ready([0], self._ready, "skillnode processes")
        self.conns.append(None)
        self.used.append(0.0)
        info = self.info(0)
        seed = "127.0.0.1:" + info["listen"][0].rsplit(":", 1)[1]
        for first in range(1, self.n, START_BATCH):
            batch = range(first, min(self.n, first + START_BATCH))
            for i in batch:
                self._spawn(i, seed)
                self.conns.append(None)
                self.used.append(0.0)
            wait_ready(batch, self._ready, "skillnode processes")
        self.ids = [self.info(i)["id"] for i in range(self.n)]

    def _call(self, i, method, path, body=None):
        """(status, parsed answer, round trip in ms) over node i's kept-alive connection."""
        for attempt in range(2):
            conn = self.conns[i]
            if conn is None or time.monotonic() - self.used[i] > HTTP_IDLE_RECONNECT_S:
                if conn is not None:
                    conn.close()
                host, port = self.addresses[i].rsplit(":", 1)
                conn = self.conns[i] = http.client.HTTPConnection(host, int(port),
                                                                  timeout=OP_TIMEOUT_S)
                conn.connect()  # not timed: the connection is kept alive between requests
            data = json.dumps(body) if body is not None else None
            headers = {"Content-Type": "application/json"} if data else {}
            try:
                started = time.perf_counter()
                conn.request(method, path, data, headers)
                answer = conn.getresponse()
                text = answer.read()
                took_ms = (time.perf_counter() - started) * 1000
            except (http.client.HTTPException, OSError):
                conn.close()
                self.conns[i] = None
                if attempt == 1:
                    raise
                continue
            self.used[i] = time.monotonic()
            try:
                parsed = json.loads(text) if text else {}
            except ValueError:
                parsed = {}
            return answer.status, parsed, took_ms

    def info(self, i):
        return self._call(i, "GET", "/api/node")[1]

    def counters(self):
        """Sums of COUNTERS over every node's /metrics."""
        totals = dict.fromkeys(COUNTERS, 0.0)
        for i in range(self.n):
            self._call(i, "GET", "/health")  # (re)opens the connection if it was idle
            self.conns[i].request("GET", "/metrics")
            for line in self.conns[i].getresponse().read().decode().splitlines():
                name, _, value = line.rpartition(" ")
                if name in totals:
                    totals[name] += float(value)
        return totals

    def table_sizes(self):
        return [self.info(i)["routing_table"]["contacts"] for i in range(self.n)]

    def pids(self):
        return [p.pid for p in self.procs]

    @staticmethod
    def key_of(op, seed):
        return f"bench-{seed}-{op}"

    @staticmethod
    def dht_key(capability):
        return hashlib.sha256(("capability:" + capability).encode()).hexdigest()

    def put(self, node, op, seed):
        """(ok, node's own ms or None, round trip ms)."""
        body = {"agentId": "bench-agent", "skillId": f"bench-skill-{op}", "version": "1.0.0",
                "skillType": "tool-skill", "endpoint": "127.0.0.1:9000",
                "capabilities": [self.key_of(op, seed)]}
        try:
            status, _, took = self._call(node, "POST", "/api/skills", body)
        except (http.client.HTTPException, OSError):
            return False, None, None
        return status == 201, None, took

    def get(self, node, op, seed):
        """(ok, node's own ms, round trip ms, first value ms or None, why it failed)."""
        query = {"capabilities": [self.key_of(op, seed)], "fresh": True}
        try:
            status, answer, took = self._call(node, "POST", "/api/skills/search", query)
        except (http.client.HTTPException, OSError) as e:
            return False, None, None, None, f"HTTP: {e!r}"
        found = status == 200 and any(s.get("skillId") == f"bench-skill-{op}" and
                                      s.get("source") == "dht" for s in answer.get("skills", []))
        stages = answer.get("stages") or answer.get("details", {}).get("stages", [])
        dht = [s for s in stages if s.get("stage") == "dht"]
        why = None if found else f"HTTP {status}, {json.dumps(answer)[:300]}"
        return found, dht[0].get("ms") if dht else None, took, None, why

    def lookup(self, node, key_hex):
        """(ok, node's duration_ms, round trip ms) of GET /api/dht/lookup."""
        try:
            status, answer, took = self._call(node, "GET", "/api/dht/lookup?key=" + key_hex)
        except (http.client.HTTPException, OSError):
            return False, None, None
        return status == 200 and bool(answer.get("closest")), answer.get("duration_ms"), took

    def stop(self):
        for conn in self.conns:
            if conn is not None:
                conn.close()
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        reap(self.procs)
        for log in self.logs:
            log.close()


DURATION_RE = r"([\d.]+) (ns|us|ms|s|min|h)\b"
UNIT_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1000.0, "min": 60000.0, "h": 3600000.0}


def to_ms(number, unit):
    return float(number) * UNIT_MS[unit]


class OpenDhtCluster:
    name = "OpenDHT"
    k = OPENDHT_K

    def __init__(self, n, network_id):
        self.n = n
        self.network_id = network_id
        self.procs, self.lines, self.ids, self.ports = [], [], [], []

    def _spawn(self, bootstrap):
        args = ["dhtnode", "-n", str(self.network_id), "-p", "0"]
        if bootstrap:
            args += ["-b", bootstrap]
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, bufsize=1)
        processes.append(proc)
        lines = queue.Queue()
        threading.Thread(target=self._read, args=(proc, lines), daemon=True).start()
        self.procs.append(proc)
        self.lines.append(lines)
        self.ids.append(None)
        self.ports.append(None)

    @staticmethod
    def _read(proc, lines):
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def _ready(self, i):
        while self.ids[i] is None:
            try:
                line = self.lines[i].get_nowait()
            except queue.Empty:
                return False
            if line is None:
                raise RuntimeError(f"dhtnode {i} exited with {self.procs[i].poll()}")
            m = re.search(r"OpenDHT node ([0-9a-f]{40}) running on port (\d+)", line)
            if m:
                self.ids[i], self.ports[i] = m.group(1), int(m.group(2))
        return True

    def start(self):
        self._spawn(None)
        wait_ready([0], self._ready, "dhtnode processes")
        seed = f"127.0.0.1:{self.ports[0]}"
        for first in range(1, self.n, START_BATCH):
            batch = range(first, min(self.n, first + START_BATCH))
            for _ in batch:
                self._spawn(seed)
            wait_ready(batch, self._ready, "dhtnode processes")

    def _drain(self, i):
        while True:
            try:
                self.lines[i].get_nowait()
            except queue.Empty:
                return

    def _send(self, i, command):
        self._drain(i)
        self.procs[i].stdin.write(command + "\n")
        self.procs[i].stdin.flush()

    def _next_line(self, i, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        try:
            return self.lines[i].get(timeout=remaining)
        except queue.Empty:
            return None

    def table_sizes(self):
        sizes = []
        for i in range(self.n):
            self._send(i, "ll")
            deadline = time.monotonic() + 5
            known = 0
            while True:
                line = self._next_line(i, deadline)
                if line is None:
                    break
                m = re.search(r"Known nodes: (\d+) good, (\d+) dubious", line)
                if m:  # the IPv4 block comes first
                    known = int(m.group(1)) + int(m.group(2))
                    break
            sizes.append(known)
        return sizes

    def pids(self):
        return [p.pid for p in self.procs]

    @staticmethod
    def dht_key(op_key):
        return op_key

    @staticmethod
    def key_of(op, seed):
        return hashlib.sha1(f"bench-{seed}-{op}".encode()).hexdigest()

    def put(self, node, op, seed):
        started = time.perf_counter()
        self._send(node, f"p {self.key_of(op, seed)} value-{seed}-{op}")
        deadline = time.monotonic() + OP_TIMEOUT_S
        while True:
            line = self._next_line(node, deadline)
            if line is None:
                return False, None, None
            m = re.search(r"Put: (\w+), took " + DURATION_RE, line)
            if m:
                took = (time.perf_counter() - started) * 1000
                return m.group(1) == "success", to_ms(m.group(2), m.group(3)), took

    def get(self, node, op, seed):
        value = f'"value-{seed}-{op}"'
        started = time.perf_counter()
        self._send(node, f"g {self.key_of(op, seed)}")
        deadline = time.monotonic() + OP_TIMEOUT_S
        found, first_ms = False, None
        while True:
            line = self._next_line(node, deadline)
            if line is None:
                return False, None, None, first_ms, f"no answer within {OP_TIMEOUT_S:.0f} s"
            m = re.search(r"Get: found \d+ value\(s\) after " + DURATION_RE, line)
            if m and first_ms is None:
                first_ms = to_ms(m.group(1), m.group(2))
            if value in line and "data" in line:
                found = True
            m = re.search(r"Get: (completed|failure), took " + DURATION_RE, line)
            if m:
                took = (time.perf_counter() - started) * 1000
                ok = found and m.group(1) == "completed"
                why = None if ok else (f"get {m.group(1)} after {m.group(2)} {m.group(3)}, "
                                       f"{'the value found' if found else 'no value found'}")
                return ok, to_ms(m.group(2), m.group(3)), took, first_ms, why

    def stop(self):
        for proc in self.procs:
            if proc.poll() is None:
                try:
                    proc.stdin.write("x\n")
                    proc.stdin.flush()
                    proc.stdin.close()
                except OSError:
                    pass
        reap(self.procs)
