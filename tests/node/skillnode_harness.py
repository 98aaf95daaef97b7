"""Helpers for tests that run real skillnode processes (tests/node/*_test.py).

Every process and temporary directory a test makes is registered here and removed at exit,
also when the test fails, raises or is interrupted (SIGINT/SIGTERM). Checks print one line
each ("ok - ..." or "FAIL - ...") so the log says what was checked; finish() exits 1 if any
failed. Waiting is always polling with a deadline, never a fixed sleep.

Every Node's exit status is checked: finish() stops the nodes still running with SIGTERM, and
a node that ended with another status than the one it expects (0 unless the test says
otherwise with expect_exit) fails the test, even when every other check passed, so that a
crash, a sanitizer report or a shutdown that fails cannot hide. A node killed with kill9() is
not checked.
"""
import atexit
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

BINARY = os.environ.get("SKILLNODE", "")
_processes = []
_dirs = []
_failures = []
_nodes = []  # every Node started, for the exit-status check in finish()

LISTEN_RE = re.compile(r"HTTP API listening on (http://\S+)")

# How long a node may take from SIGTERM to its exit, in a test: a bound on behaviour, not a
# measure of speed. The shutdown steps get kShutdownStepsBudget (1.2 s, node/daemon.h); then the
# node saves its routing table, closes its handles and runs its loop dry (milliseconds), and a
# sanitizer build's LeakSanitizer scans the heap at exit (0.2 to 0.7 s in all, measured, for a
# sanitizer build's nodes in node-http, node-cluster and node-registry). On a loaded 2-core
# machine (tests side by side with a compile) all of it may take several times as long: 8 s is
# 4 times the budget plus that 0.7 s. It still tells a shutdown that keeps its budget from one
# that does not: a step waits on peers (unpublishing: a lookup, then stores; each unanswered
# request costs rpc_timeout, 1 s, and a lookup asks several rounds of peers) or on a callback
# that may never come, and without the budget the node would wait for it (Node.stop() gives up
# after 10 s).
SHUTDOWN_BOUND_S = 8.0


def check(condition, what, detail=""):
    """Records and prints one check."""
    if condition:
        print(f"ok - {what}", flush=True)
    else:
        print(f"FAIL - {what}" + (f": {detail}" if detail else ""), flush=True)
        _failures.append(what)
    return condition


def check_exits():
    """Ends every node still running with SIGTERM and checks how each node ended (the module
    docstring says why). finish() calls it; a test may call it earlier."""
    for node in _nodes:  # all at once: the nodes shut down side by side
        if (node.proc is not None and not node.settled and not node.terminating
                and node.proc.poll() is None):
            node.signal(signal.SIGTERM)  # one only: a second one exits at once (128 + 15)
    problems = [problem for node in _nodes for problem in node.settle_exit()]
    if _nodes:
        check(not problems, f"every node ended with the status it expects ({len(_nodes)} nodes)",
              "; ".join(problems))


def finish():
    check_exits()
    cleanup()
    print(f"{'FAILED' if _failures else 'PASSED'}: {len(_failures)} failed check(s)", flush=True)
    sys.exit(1 if _failures else 0)


def skip(reason):
    print(f"SKIP: {reason}", flush=True)
    cleanup()
    sys.exit(77)  # meson's "skipped"


def require_binary():
    if not BINARY or not os.access(BINARY, os.X_OK):
        print(f"SKILLNODE must name the skillnode binary (got {BINARY!r})", flush=True)
        sys.exit(1)


def track(proc):
    """Registers a process started outside Node, so that it is killed at exit too."""
    _processes.append(proc)
    return proc


def temp_dir(prefix="skillnode-test-"):
    path = tempfile.mkdtemp(prefix=prefix)
    _dirs.append(path)
    return path


def cleanup():
    for proc in _processes:
        if proc.poll() is None:
            try:
                proc.kill()
            except OSError:
                pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
    _processes.clear()
    for path in _dirs:
        if os.path.isdir(path):
            shutil.rmtree(path, ignore_errors=True)
        elif os.path.exists(path):
            os.remove(path)
    _dirs.clear()


def _on_signal(signum, _frame):
    cleanup()
    sys.exit(128 + signum)


atexit.register(cleanup)
signal.signal(signal.SIGTERM, _on_signal)
signal.signal(signal.SIGINT, _on_signal)


def wait_for(predicate, timeout, interval=0.05):
    """Polls `predicate` until it returns something truthy or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)


def run(args, env=None, timeout=30, prefix=None):
    """Runs a skillnode command to completion; returns CompletedProcess (text)."""
    command = (prefix or []) + [BINARY] + args
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)


def http_get(url, timeout=5, headers=None):
    """(status, body text, headers) of GET url; status 0 when unreachable."""
    try:
        request = urllib.request.Request(url, headers=headers or {})
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), dict(error.headers)
    except (urllib.error.URLError, OSError):
        return 0, "", {}


def http_call(method, url, body=None, timeout=5, headers=None):
    """(status, parsed JSON or None) of one request with an optional JSON body (a dict, or a
    str sent as it is) and extra headers; status 0 when unreachable."""
    data = None
    headers = dict(headers or {})
    if body is not None:
        data = (body if isinstance(body, str) else json.dumps(body)).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            status, text = answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    except (urllib.error.URLError, OSError):
        return 0, None
    try:
        return status, json.loads(text) if text else None
    except json.JSONDecodeError:
        return status, None


class Node:
    """One skillnode process with its own data directory and log file."""

    def __init__(self, name, args=(), data_dir=None, config=None, prefix=None, env=None,
                 pass_data_dir=True, lan=False, port_mapping=False):
        """pass_data_dir=False runs without --data-dir (the default directory is then used;
        `data_dir` should name it). lan=False adds --no-lan: a test on this host's own network
        must not multicast or advertise (DNS-SD) onto the machine's real network; LAN tests
        run in namespaces. port_mapping=False adds --no-port-mapping: a test node never asks the
        machine's router for a mapping (the NAT lab's nodes do, behind their own routers)."""
        self.name = name
        self.data_dir = data_dir or temp_dir(f"skillnode-{name}-")
        self.pass_data_dir = pass_data_dir
        self.log_path = os.path.join(temp_dir(f"skillnode-log-{name}-"), "stderr.log")
        self.args = list(args)
        self.config_path = None
        if config is not None:
            self.config_path = os.path.join(self.data_dir + ".config.yaml")
            with open(self.config_path, "w") as f:
                f.write(config)
            _dirs.append(self.config_path)
        self.prefix = prefix or []
        self.lan = lan
        self.port_mapping = port_mapping
        self.env = env
        self.proc = None
        self.url = None
        self.expected_exit = (0,)  # the statuses the current process may end with; None: any
        self.settled = False  # the current process's end is accounted for (checked or killed)
        self.terminating = False  # the current process has had its SIGTERM
        self.exit_problems = []

    def expect_exit(self, *codes):
        """The statuses this node's running process (or, before start(), its next one) may end
        with; none given: any. Back to 0 once that process has ended."""
        self.expected_exit = codes or None
        return self

    def settle_exit(self):
        """Checks how the current process ended (SIGTERM first if it still runs); returns the
        problems found, also kept in exit_problems. Called before a restart and by finish()."""
        if self.proc is None or self.settled:
            return list(self.exit_problems)
        code = self.proc.poll()
        if code is None and self.terminating:
            code = self.wait(15)
        elif code is None:
            code, _ = self.stop(timeout=15)
        expected = self.expected_exit
        if expected is not None and code not in expected:
            self.exit_problems.append(
                f"{self.name} (pid {self.proc.pid}) ended with {code}, not "
                f"{' or '.join(map(str, expected))}; its log ends:\n{self.log_text()[-1500:]}")
        self.settled = True
        self.expected_exit = (0,)
        return list(self.exit_problems)

    def start(self, wait=True, timeout=30):
        if self.proc is not None:
            self.settle_exit()
        self.settled = False
        self.terminating = False
        if self not in _nodes:
            _nodes.append(self)
        command = self.prefix + [BINARY, "run"]
        if self.pass_data_dir:
            command += ["--data-dir", self.data_dir]
        command += self.args
        if not self.lan:
            command += ["--no-lan"]
        if not self.port_mapping:
            command += ["--no-port-mapping"]
        if self.config_path:
            command += ["--config", self.config_path]
        self.log = open(self.log_path, "a")
        # A restart appends to the same log: only this process's lines name its address.
        self.log_start = self.log.tell()
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=self.log,
                                     env=self.env)
        _processes.append(self.proc)
        if wait:
            self.url = wait_for(self._listening_url, timeout)
            if not self.url:
                raise RuntimeError(f"{self.name} did not start; log:\n{self.log_text()}")
        return self

    def _listening_url(self):
        if self.proc.poll() is not None:
            raise RuntimeError(f"{self.name} exited with {self.proc.returncode}; log:\n"
                               f"{self.log_text()}")
        with open(self.log_path, "rb") as f:
            f.seek(self.log_start)
            matches = LISTEN_RE.findall(f.read().decode(errors="replace"))
        return matches[-1] if matches else None

    def log_text(self):
        try:
            with open(self.log_path) as f:
                return f.read()
        except OSError:
            return ""

    def get(self, path, timeout=5, headers=None):
        return http_get(self.url + path, timeout, headers)

    def saved_contact_ids(self):
        """The node ids in the node's saved contacts file (after its two header lines)."""
        try:
            with open(os.path.join(self.data_dir, "contacts")) as f:
                return {line.split()[0] for line in f.read().splitlines()[2:] if line.strip()}
        except OSError:
            return set()

    def get_json(self, path, timeout=5, headers=None):
        status, body, _ = self.get(path, timeout, headers)
        try:
            return status, json.loads(body) if body else None
        except json.JSONDecodeError:
            return status, None

    def call(self, method, path, body=None, timeout=5, headers=None):
        return http_call(method, self.url + path, body, timeout, headers)

    def info(self):
        status, info = self.get_json("/api/node")
        return info if status == 200 else None

    def contacts(self):
        info = self.info()
        return info["routingTable"]["contacts"] if info else -1

    def udp_port(self):
        return int(self.info()["listen"][0].rsplit(":", 1)[1])

    def http_address(self):
        return self.url[len("http://"):]

    def signal(self, signum):
        if signum == signal.SIGTERM:
            self.terminating = True
        self.proc.send_signal(signum)

    def wait(self, timeout):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, timeout=10):
        """SIGTERM; returns (exit status or None, seconds taken)."""
        start = time.monotonic()
        self.signal(signal.SIGTERM)
        code = self.wait(timeout)
        return code, time.monotonic() - start

    def kill9(self):
        self.settled = True
        self.proc.kill()
        self.proc.wait(timeout=10)


def npm_install(source, work, files, what):
    """Copies `files` (package.json, package-lock.json and any scripts that need the packages)
    from `source` to `work` and installs the pinned packages there with `npm ci`, again only
    when the lockfile changed. Skips the test when node or npm is missing. Returns the node
    executable."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        skip("node and npm are needed (make deps installs them: .ci/install-deps)")
    os.makedirs(work, exist_ok=True)
    if os.path.abspath(work) != os.path.abspath(source):
        for name in files:
            shutil.copyfile(os.path.join(source, name), os.path.join(work, name))
    with open(os.path.join(source, "package-lock.json"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    stamp = os.path.join(work, "node_modules", ".skillnode-lock-sha256")
    if not os.path.exists(stamp) or open(stamp).read() != digest:
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=work,
                              capture_output=True, text=True, timeout=600)
        if not check(done.returncode == 0, f"npm ci installs {what}", done.stderr[-2000:]):
            finish()
        with open(stamp, "w") as f:
            f.write(digest)
    return node


def free_port(kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


METRIC_SAMPLE = re.compile(
    r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*",?)*\})? '
    r'(-?[0-9.e+-]+|\+Inf|-Inf|NaN)$')


def metrics_problems(text):
    """Problems with a Prometheus text page (empty list: valid)."""
    problems, types, done, current = [], {}, set(), None
    for line in text.splitlines():
        if line.startswith("# HELP "):
            continue
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            if name in types:
                problems.append(f"second TYPE for {name}")
            types[name] = kind
            continue
        m = METRIC_SAMPLE.match(line)
        if not m:
            problems.append(f"malformed line: {line!r}")
            continue
        family = m.group(1)
        for suffix in ("_bucket", "_sum", "_count"):
            base = family[:-len(suffix)]
            if family.endswith(suffix) and types.get(base) == "histogram":
                family = base
        if family not in types:
            problems.append(f"no TYPE for {family}")
        if family != current:
            if family in done:
                problems.append(f"samples of {family} are not together")
            if current:
                done.add(current)
            current = family
    return problems
