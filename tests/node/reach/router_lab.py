"""A home router in network namespaces, for the [netns] tests of nodes behind a NAT.

    public bridge 11.S.0.0/24      "pub" (11.S.0.1) and the router's wan side (11.S.0.254)
    private net 192.168.S.0/24     the router's lan side (.1) and "prv" (.2), whose default
                                   route is the router

The router masquerades prv's traffic and drops every unsolicited packet from the wan side
(nftables, forward policy drop), except the ports that Debian's miniupnpd maps on request
(UPnP IGD and NAT-PMP on the lan side), so a node in prv is reachable from pub only through a
mapping it asked for. The public side is 11.S.0.0/24 because miniupnpd 2.3.1 refuses to map
ports when its wan address is private or otherwise reserved; the namespaces have no link to
the machine's own network, so nothing addressed there can leave them.

miniupnpd (2.3.1, nftables backend) does not make its own table or chains: the router's ruleset
makes the three chains it fills (a forward accept and two NAT rules per mapping) and jumps to
them from its hooked chains. It runs in the foreground inside the router namespace (-d), never
as the host's service.

Everything the lab makes is removed at exit, also on failure.
"""
import atexit
import os
import subprocess
import time
import uuid

from netns_lab import sh
from skillnode_harness import temp_dir

MINIUPNPD = "/usr/sbin/miniupnpd"
NATPMP_PORT = 5351

RULESET = """
table inet filter {
  chain miniupnpd {
  }
  chain prerouting_miniupnpd {
  }
  chain postrouting_miniupnpd {
  }
  chain forwarding {
    type filter hook forward priority 0; policy drop;
    ct state established,related accept
    iifname "lan" oifname "wan" accept
    jump miniupnpd
  }
  chain prerouting {
    type nat hook prerouting priority -100; policy accept;
    jump prerouting_miniupnpd
  }
  chain postrouting {
    type nat hook postrouting priority 100; policy accept;
    jump postrouting_miniupnpd
    oifname "wan" masquerade
  }
}
"""


class RouterLab:
    def __init__(self, prefix):
        self.tag = str(os.getpid() % 100000)
        subnet = 80 + os.getpid() % 150
        self.public = f"11.{subnet}.0"
        self.private = f"192.168.{subnet}"
        self.names = {role: f"{prefix}{role}-{self.tag}" for role in ("sw", "pub", "rtr", "prv")}
        self.namespaces = []
        self.dir = temp_dir("skillnode-router-lab-")
        self.miniupnpd = None
        atexit.register(self.teardown)

    # Addresses and commands.
    def ns(self, role):
        return self.names[role]

    @property
    def pub_address(self):
        return f"{self.public}.1"

    @property
    def wan_address(self):
        return f"{self.public}.254"

    @property
    def prv_address(self):
        return f"{self.private}.2"

    def prefix_of(self, role):
        return ["ip", "netns", "exec", self.ns(role)]

    def run(self, role, *args):
        return sh(*self.prefix_of(role), *args, check_rc=False)

    @property
    def lease_file(self):
        return os.path.join(self.dir, "miniupnpd.leases")

    def leases(self):
        """The mappings miniupnpd holds, as its lease file lists them (one line each)."""
        try:
            with open(self.lease_file) as f:
                return [line for line in f.read().splitlines() if line]
        except FileNotFoundError:
            return []

    def forwarding_rules(self):
        """The DNAT rules miniupnpd has put on the router."""
        chain = self.run("rtr", "nft", "list", "chain", "inet", "filter", "prerouting_miniupnpd")
        return [line.strip() for line in chain.stdout.splitlines() if "dnat" in line]

    # Building and removing.
    def _make(self, role):
        name = self.ns(role)
        sh("ip", "netns", "add", name)
        self.namespaces.append(name)
        sh("ip", "-n", name, "link", "set", "lo", "up")

    def build(self):
        for role in ("sw", "pub", "rtr", "prv"):
            self._make(role)
        sw, pub, rtr, prv = (self.ns(r) for r in ("sw", "pub", "rtr", "prv"))
        sh("ip", "-n", sw, "link", "add", "br0", "type", "bridge")
        sh("ip", "-n", sw, "link", "set", "br0", "up")
        for host, name, port in ((pub, "eth0", "p0"), (rtr, "wan", "r0")):
            sh("ip", "link", "add", name, "netns", host, "type", "veth", "peer", "name", port,
               "netns", sw)
            sh("ip", "-n", sw, "link", "set", port, "master", "br0")
            sh("ip", "-n", sw, "link", "set", port, "up")
            sh("ip", "-n", host, "link", "set", name, "up")
        sh("ip", "-n", pub, "addr", "add", f"{self.pub_address}/24", "dev", "eth0")
        sh("ip", "-n", rtr, "addr", "add", f"{self.wan_address}/24", "dev", "wan")
        sh("ip", "link", "add", "lan", "netns", rtr, "type", "veth", "peer", "name", "eth0",
           "netns", prv)
        sh("ip", "-n", rtr, "addr", "add", f"{self.private}.1/24", "dev", "lan")
        sh("ip", "-n", rtr, "link", "set", "lan", "up")
        sh("ip", "-n", prv, "addr", "add", f"{self.prv_address}/24", "dev", "eth0")
        sh("ip", "-n", prv, "link", "set", "eth0", "up")
        sh("ip", "-n", prv, "route", "add", "default", "via", f"{self.private}.1")
        sh(*self.prefix_of("rtr"), "sysctl", "-qw", "net.ipv4.ip_forward=1")
        result = subprocess.run(self.prefix_of("rtr") + ["nft", "-f", "-"], input=RULESET,
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"the router's ruleset: {result.stderr.strip()}")
        return self

    def start_miniupnpd(self, natpmp=True):
        """Starts miniupnpd on the router (UPnP IGD always, NAT-PMP when `natpmp`), with an
        empty lease file, and waits until it answers on the lan side."""
        self.stop_miniupnpd()
        conf = os.path.join(self.dir, "miniupnpd.conf")
        with open(conf, "w") as f:
            f.write("\n".join([
                "ext_ifname=wan", "listening_ip=lan", "http_port=0", "enable_upnp=yes",
                f"enable_natpmp={'yes' if natpmp else 'no'}", "secure_mode=yes",
                "system_uptime=no", f"uuid={uuid.uuid4()}", f"lease_file={self.lease_file}",
                "upnp_table_name=filter", "upnp_nat_table_name=filter",
                "upnp_forward_chain=miniupnpd", "upnp_nat_chain=prerouting_miniupnpd",
                "upnp_nat_postrouting_chain=postrouting_miniupnpd",
                f"allow 1024-65535 {self.private}.0/24 1024-65535",
                "deny 0-65535 0.0.0.0/0 0-65535", ""]))
        open(self.lease_file, "w").close()
        log = open(os.path.join(self.dir, "miniupnpd.log"), "a")
        self.miniupnpd = subprocess.Popen(
            self.prefix_of("rtr") + [MINIUPNPD, "-d", "-f", conf, "-P",
                                     os.path.join(self.dir, "miniupnpd.pid")],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        # UPnP's HTTP port is always there; NAT-PMP's UDP port when it is on.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.miniupnpd.poll() is not None:
                raise RuntimeError(f"miniupnpd exited: {self.miniupnpd_log()}")
            tcp = self.run("rtr", "ss", "-Hltn").stdout
            udp = self.run("rtr", "ss", "-Hlun", f"sport = :{NATPMP_PORT}").stdout
            if tcp.strip() and (not natpmp or str(NATPMP_PORT) in udp):
                return
            time.sleep(0.1)
        raise RuntimeError(f"miniupnpd did not come up: {self.miniupnpd_log()}")

    def miniupnpd_log(self):
        try:
            with open(os.path.join(self.dir, "miniupnpd.log")) as f:
                return f.read()[-2000:]
        except FileNotFoundError:
            return ""

    def stop_miniupnpd(self):
        if self.miniupnpd is None:
            return
        self.miniupnpd.terminate()
        try:
            self.miniupnpd.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.miniupnpd.kill()
            self.miniupnpd.wait(timeout=5)
        self.miniupnpd = None

    def teardown(self):
        self.stop_miniupnpd()
        for name in reversed(self.namespaces):
            # A process left in a namespace would keep it alive: none may stay.
            pids = sh("ip", "netns", "pids", name, check_rc=False).stdout.split()
            for pid in pids:
                sh("kill", "-9", pid, check_rc=False)
            sh("ip", "netns", "del", name, check_rc=False)
        self.namespaces.clear()
