"""Three home routers in network namespaces, for the [netns] reachability test
(nat_lab_test.py).

    public bridge 10.S.0.0/24      host "pub" (.1) and the routers' wan sides: "eim" (.254),
                                   "rnd" (.253), "eim2" (.252)
    private nets 192.168.S.0/24,   each router's lan side (.1) and the host behind it (.2),
    S+1 and S+2                    whose default route is the router

Each router masquerades the traffic of the host behind it and drops every packet from the wan
side that no flow of its own asked for, to that host or to itself (nftables, forward and input
policy drop, conntrack). "eim" and "eim2" keep a flow's source port where they can (plain
masquerade: the mapping does not depend on the destination); "rnd" draws a new port for every
flow (masquerade random,fully-random).

Everything the lab makes is removed at exit, also on failure.
"""
import atexit
import json
import os
import signal
import subprocess
import threading

from netns_lab import sh
from skillnode_harness import temp_dir

# The routers: "eim" and "eim2" keep a flow's source port where they can (plain masquerade: the
# mapping does not depend on the destination), "rnd" draws a new one for every flow.
ROUTERS = {"eim": "", "rnd": "random,fully-random", "eim2": ""}
NATTED = tuple(f"behind-{router}" for router in ROUTERS)
# A router drops whatever comes unasked to its own address as well (a home router answers
# nothing on its wan side): a datagram it took in there would leave a conntrack flow behind whose
# reply tuple is the one the host's own flow to that peer needs, and masquerade would give that
# flow another port, which a hole punch cannot survive.
ROUTER_RULES = """
table ip nat {{
  chain outbound {{
    type nat hook postrouting priority 100;
    oifname "wan" masquerade {how}
  }}
}}
table ip filter {{
  chain forwarding {{
    type filter hook forward priority 0; policy drop;
    ct state established,related accept
    iifname "lan" oifname "wan" accept
  }}
  chain input {{
    type filter hook input priority 0; policy drop;
    ct state established,related accept
    iifname {{ "lan", "lo" }} accept
  }}
}}
"""


class NatLab:
    """The public bridge, host "pub", three routers and a host behind each."""

    def __init__(self):
        self.tag = str(os.getpid() % 100000)
        octet = os.getpid() % 200 + 20
        self.public = f"10.{octet}.0"
        self.wan = {"eim": f"{self.public}.254", "rnd": f"{self.public}.253",
                    "eim2": f"{self.public}.252"}
        self.lan = {"eim": f"192.168.{octet}", "rnd": f"192.168.{octet + 1}",
                    "eim2": f"192.168.{octet + 2}"}
        self.namespaces = []
        atexit.register(self.teardown)

    def ns(self, role):
        return f"snnat{role}-{self.tag}"

    def prefix_of(self, role):
        return ["ip", "netns", "exec", self.ns(role)]

    def _make(self, role):
        sh("ip", "netns", "add", self.ns(role))
        self.namespaces.append(self.ns(role))
        sh("ip", "-n", self.ns(role), "link", "set", "lo", "up")

    def build(self):
        for role in ("sw", "pub", *ROUTERS, *(f"behind-{router}" for router in ROUTERS)):
            self._make(role)
        sw = self.ns("sw")
        sh("ip", "-n", sw, "link", "add", "br0", "type", "bridge")
        sh("ip", "-n", sw, "link", "set", "br0", "up")
        # pub and each router's wan side on the bridge.
        for role, iface, address in (("pub", "eth0", f"{self.public}.1"),
                                     *((router, "wan", self.wan[router]) for router in ROUTERS)):
            port = f"p{role}{self.tag}"[:15]
            sh("ip", "link", "add", iface, "netns", self.ns(role), "type", "veth", "peer", "name",
               port, "netns", sw)
            sh("ip", "-n", sw, "link", "set", port, "master", "br0")
            sh("ip", "-n", sw, "link", "set", port, "up")
            sh("ip", "-n", self.ns(role), "addr", "add", f"{address}/24", "dev", iface)
            sh("ip", "-n", self.ns(role), "link", "set", iface, "up")
        # Each router's lan side and the host behind it.
        for router, how in ROUTERS.items():
            behind = self.ns(f"behind-{router}")
            lan = self.lan[router]
            sh("ip", "-n", self.ns(router), "link", "add", "lan", "type", "veth", "peer", "name",
               "eth0", "netns", behind)
            sh("ip", "-n", self.ns(router), "addr", "add", f"{lan}.1/24", "dev", "lan")
            sh("ip", "-n", self.ns(router), "link", "set", "lan", "up")
            sh("ip", "-n", behind, "addr", "add", f"{lan}.2/24", "dev", "eth0")
            sh("ip", "-n", behind, "link", "set", "eth0", "up")
            sh("ip", "-n", behind, "route", "add", "default", "via", f"{lan}.1")
            sh("ip", "netns", "exec", self.ns(router), "sysctl", "-qw", "net.ipv4.ip_forward=1")
            sh("ip", "netns", "exec", self.ns(router), "nft", "-f", "-",
               input_text=ROUTER_RULES.format(how=how))

        return self

    def api(self, role, path, port, body=None):
        """GET `path` (POST `body` as JSON when given) from the node's API inside its host."""
        send = [] if body is None else ["-X", "POST", "-H", "Content-Type: application/json",
                                        "--data-binary", json.dumps(body)]
        result = sh(*self.prefix_of(role), "curl", "-s", "-m", "5", *send,
                    f"http://127.0.0.1:{port}{path}", check_rc=False)
        if result.returncode != 0:
            return None
        if path == "/metrics":
            return result.stdout
        try:
            return json.loads(result.stdout)
        except json.JSONDecodeError:
            return None

    def get_bytes(self, role, api_port, path):
        """(status, body bytes, headers with lower-case names) of GET path on a node, by curl
        inside its host."""
        work = temp_dir("skillnode-nat-get-")
        body_file, head_file = os.path.join(work, "body"), os.path.join(work, "head")
        result = sh(*self.prefix_of(role), "curl", "-s", "-m", "30", "-o", body_file, "-D",
                    head_file, "-w", "%{http_code}", f"http://127.0.0.1:{api_port}{path}", check_rc=False)
        headers = {}
        body = b""
        if os.path.exists(head_file):
            with open(head_file, encoding="latin-1") as f:
                for line in f.read().splitlines():
                    name, sep, value = line.partition(":")
                    if sep:
                        headers[name.strip().lower()] = value.strip()
        if os.path.exists(body_file):
            with open(body_file, "rb") as f:
                body = f.read()
        status = int(result.stdout.strip() or 0) if result.stdout.strip().isdigit() else 0
        return status, body, headers

    def watch(self, role, capability):
        """GET /api/v1/watch?capability=C on the node in `role`'s host: a Watch."""
        return Watch(self.prefix_of(role), capability)

    def teardown(self):
        for ns in reversed(self.namespaces):
            for pid in sh("ip", "netns", "pids", ns, check_rc=False).stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
            sh("ip", "netns", "del", ns, check_rc=False)
        self.namespaces.clear()

    def set_udp_timeout(self, seconds, stream_seconds):
        """Every router forgets a UDP flow `seconds` after its last packet (`stream_seconds`
        once it was answered both ways; Linux's defaults are 30 and 120)."""
        for router in ROUTERS:
            sh(*self.prefix_of(router), "sysctl", "-qw",
               f"net.netfilter.nf_conntrack_udp_timeout={seconds}",
               f"net.netfilter.nf_conntrack_udp_timeout_stream={stream_seconds}")


class Watch:
    """GET /api/v1/watch?capability=C on a node, by curl inside its host (`prefix`); its events
    collected."""

    def __init__(self, prefix, capability):
        self.lines = []
        self.proc = subprocess.Popen(
            [*prefix, "curl", "-sN", "-m", "120",
             f"http://127.0.0.1:7070/api/v1/watch?capability={capability}"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def saw(self, event, text=""):
        for i, line in enumerate(self.lines):
            if line == f"event: {event}" and any(text in later for later in self.lines[i + 1:i + 3]):
                return True
        return False

    def close(self):
        self.proc.kill()
        self.proc.wait()
