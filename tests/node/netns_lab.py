"""Hosts in network namespaces on one bridge, for the [netns] tests.

A Lab makes a bridge namespace and `hosts` host namespaces, each with an eth0 on a
10.<octet>.<n>.0/24 subnet that only it uses (and a default route on eth0, so that a program
sending to a multicast group without choosing an interface reaches the bridge), and removes all
of it at exit, also on failure. Nothing it makes touches the machine's own interfaces: the
bridge lives in its own namespace.

The kernel's ARP cache is one table for every namespace, and past net.ipv4.neigh.default.
gc_thresh3 (1,024 by default) it refuses new entries ("neighbor table overflow"): 40 hosts
that each learn the others' addresses need about 1,600, and the hosts that came last could
reach nobody. A Lab raises the three thresholds to what its hosts need, when they are lower,
and puts the old values back at teardown.

LabNodes is what the tests of skillnode nodes on a Lab share: its setup (build_for_nodes), the
nodes started, the checks that failed, and their end (the nodes stopped cleanly, their logs
shown when a check failed, the lab removed).
"""
import atexit
import json
import os
import shutil
import subprocess

from skillnode_harness import check, finish, require_binary, skip, temp_dir


def sh(*args, check_rc=True, input_text=None):
    result = subprocess.run(list(args), capture_output=True, text=True, input=input_text)
    if check_rc and result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {result.stderr.strip()}")
    return result


def require_namespaces(tag):
    """Skips the test (exit 77) with the reason when namespaces cannot be made here."""
    if os.geteuid() != 0:
        skip("network namespaces need root (run the [netns] tests as root)")
    probe = sh("ip", "netns", "add", f"snprobe-{tag}", check_rc=False)
    if probe.returncode != 0:
        skip(f"cannot create network namespaces here: {probe.stderr.strip()}")
    sh("ip", "netns", "del", f"snprobe-{tag}", check_rc=False)


NEIGH_SYSCTL = "/proc/sys/net/ipv4/neigh/default/gc_thresh{}"


def raise_arp_cache(entries):
    """Raises the kernel's ARP cache thresholds to hold `entries` (gc_thresh3; thresh1 and 2 a
    quarter and a half of it) when they are lower; returns the old values to restore, or {}."""
    old = {}
    for level, wanted in ((1, entries // 4), (2, entries // 2), (3, entries)):
        path = NEIGH_SYSCTL.format(level)
        with open(path) as f:
            current = int(f.read())
        if current < wanted:
            old[path] = current
    # Upwards from 3 to 1 and back downwards from 1 to 3, so that thresh1 <= thresh2 <= thresh3
    # holds at every step.
    for level, wanted in ((3, entries), (2, entries // 2), (1, entries // 4)):
        path = NEIGH_SYSCTL.format(level)
        if path in old:
            with open(path, "w") as f:
                f.write(str(wanted))
    return old


def restore_arp_cache(old):
    for level in (1, 2, 3):
        path = NEIGH_SYSCTL.format(level)
        if path in old:
            with open(path, "w") as f:
                f.write(str(old[path]))


class Lab:
    def __init__(self, prefix, hosts, octet):
        self.tag = str(os.getpid() % 100000)
        self.prefix = prefix
        self.subnet = f"10.{octet}.{os.getpid() % 250}"
        self.bridge_ns = f"{prefix}b-{self.tag}"
        self.hosts = hosts
        self.namespaces = []
        atexit.register(self.teardown)

    def ns(self, i):
        return f"{self.prefix}{i}-{self.tag}"

    def address(self, i):
        return f"{self.subnet}.{i + 1}"

    def _make(self, name):
        sh("ip", "netns", "add", name)
        self.namespaces.append(name)
        sh("ip", "-n", name, "link", "set", "lo", "up")

    def build(self):
        # Each host may learn every other's address, next to what the machine itself holds.
        self.arp_cache_restore = raise_arp_cache(1024 + 2 * self.hosts * self.hosts)
        self._make(self.bridge_ns)
        sh("ip", "-n", self.bridge_ns, "link", "add", "br0", "type", "bridge")
        sh("ip", "-n", self.bridge_ns, "link", "set", "br0", "up")
        for i in range(self.hosts):
            ns = self.ns(i)
            self._make(ns)
            sh("ip", "link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name",
               f"p{i}", "netns", self.bridge_ns)
            sh("ip", "-n", self.bridge_ns, "link", "set", f"p{i}", "master", "br0")
            sh("ip", "-n", self.bridge_ns, "link", "set", f"p{i}", "up")
            sh("ip", "-n", ns, "addr", "add", f"{self.address(i)}/24", "dev", "eth0")
            sh("ip", "-n", ns, "link", "set", "eth0", "up")
            sh("ip", "-n", ns, "route", "add", "default", "dev", "eth0")
        return self

    def run(self, i, *args, input_text=None):
        """Runs a command inside host i; returns CompletedProcess."""
        return sh("ip", "netns", "exec", self.ns(i), *args, check_rc=False, input_text=input_text)

    def run_bridge(self, *args, input_text=None):
        """Runs a command in the bridge's namespace (nftables rules on br0); CompletedProcess."""
        return sh("ip", "netns", "exec", self.bridge_ns, *args, check_rc=False,
                  input_text=input_text)

    def prefix_of(self, i):
        return ["ip", "netns", "exec", self.ns(i)]

    def fetch(self, i, url, method="GET", body=None, max_time=30):
        """(status, body bytes, headers with lower-case names) of a request made with curl
        inside host i; status 0 when no answer came."""
        work = temp_dir("skillnode-lab-curl-")
        headers_path, body_path = os.path.join(work, "headers"), os.path.join(work, "body")
        args = ["curl", "-sS", "-m", str(max_time), "-X", method, "-D", headers_path, "-o",
                body_path]
        if body is not None:
            args += ["-H", "Content-Type: application/json", "--data-binary", json.dumps(body)]
        subprocess.run(self.prefix_of(i) + args + [url], capture_output=True,
                       timeout=max_time + 15)
        status, headers, answer = 0, {}, b""
        if os.path.exists(headers_path):
            with open(headers_path, "rb") as f:
                for line in f.read().decode("latin-1").split("\r\n"):
                    if line.startswith("HTTP/"):
                        status, headers = int(line.split()[1]), {}
                    elif ":" in line:
                        name, value = line.split(":", 1)
                        headers[name.strip().lower()] = value.strip()
        if os.path.exists(body_path):
            with open(body_path, "rb") as f:
                answer = f.read()
        shutil.rmtree(work, ignore_errors=True)
        return status, answer, headers

    def curl_json(self, i, url, method="GET", body=None):
        """(HTTP status, parsed JSON or None) of a request made from inside host i."""
        args = ["curl", "-s", "-m", "10", "-o", "-", "-w", "\n%{http_code}", "-X", method]
        if body is not None:
            args += ["-H", "Content-Type: application/json", "--data-binary", json.dumps(body)]
        result = self.run(i, *args, url)
        if result.returncode != 0:
            return 0, None
        text, _, code = result.stdout.rpartition("\n")
        try:
            return int(code), json.loads(text) if text else None
        except (ValueError, json.JSONDecodeError):
            return int(code or 0), None

    def teardown(self):
        for ns in reversed(self.namespaces):
            sh("ip", "netns", "del", ns, check_rc=False)
        self.namespaces.clear()
        restore_arp_cache(getattr(self, "arp_cache_restore", {}))
        self.arp_cache_restore = {}


class LabNodes:
    """The skillnode nodes a test starts in a Lab's hosts, and the checks that failed."""

    def __init__(self, lab, log_tail_lines):
        self.lab = lab
        self.log_tail_lines = log_tail_lines
        self.nodes = []
        self.failures = []

    def build_for_nodes(self, tools=("curl",)):
        """Skips (exit 77) without the skillnode binary or where namespaces cannot be made, fails
        when one of `tools` is not installed, else builds the lab."""
        require_binary()
        require_namespaces(self.lab.tag)
        for tool in tools:
            if shutil.which(tool) is None:
                check(False, f"{tool} is installed")
                finish()
        self.lab.build()

    def expect(self, condition, what, detail=""):
        """check(), remembering failures so the node logs can be shown at the end."""
        if not check(condition, what, detail):
            self.failures.append(what)
        return condition

    def stop_nodes(self):
        """SIGTERM to every node: each must exit with status 0, with no sanitizer report."""
        for node in self.nodes:
            code, _ = node.stop()
            self.expect(code == 0, f"{node.name}: SIGTERM exits with status 0", f"status {code}")
            reports = [line for line in node.log_text().splitlines()
                       if "runtime error:" in line or "Sanitizer" in line]
            self.expect(not reports, f"{node.name}: no sanitizer report in its log",
                        "; ".join(reports[:5]))

    def show_logs(self):
        for node in self.nodes:
            lines = node.log_text().splitlines()
            print(f"--- {node.name} log, last {self.log_tail_lines} of {len(lines)} lines ---",
                  flush=True)
            print("\n".join(lines[-self.log_tail_lines:]), flush=True)

    def finish(self):
        """Shows the node logs when a check failed, removes the lab, and ends the test."""
        if self.failures:
            self.show_logs()
        self.lab.teardown()
        finish()
