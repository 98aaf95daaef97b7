#!/usr/bin/env python3
"""[netns] DNS-SD: a node advertises itself through its host's Avahi daemon.

Two hosts in network namespaces on one bridge (netns_lab.py). Each host has a private /run in
its own mount and UTS namespace (`unshare -m -u`), held open by a small holder process; its
system D-Bus and avahi-daemon run there, and so does the skillnode under test (entered with
nsenter), so it reaches that host's D-Bus.

1. No D-Bus at all (host 1, before its daemons start): the node logs one line "DNS-SD: no Avahi
   daemon (...): not advertised", serves /health, and exits 0 on SIGTERM.
2. D-Bus but no avahi-daemon (host 0): the node logs the one line and waits (state "no daemon").
3. Host 1 (D-Bus and avahi-daemon up) publishes the name the node will want, with another
   port, so the node's name is taken on the LAN.
4. avahi-daemon starts on host 0: the node registers, meets the collision, moves to
   "<name> #2" and is advertised; `avahi-browse -rpt _skillnode._udp` on host 1 finds it with
   the TXT node_id of GET /api/node, its DHT port, network id, HTTP URL and version.
5. SIGTERM: status 0, uv_loop_close returned 0; host 1 no longer sees the service.

Skipped (exit 77) with the reason when not root, when namespaces cannot be made, or when a tool
(avahi-daemon, avahi-browse, avahi-publish, dbus-daemon, dbus-send, nsenter, unshare, curl) is
missing. Run: SKILLNODE=build/release/node/skillnode python3 tests/node/lan/mdns_test.py
"""
import atexit
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the harness
from netns_lab import Lab, require_namespaces
from skillnode_harness import Node, cleanup, finish, require_binary, skip, temp_dir, wait_for
from skillnode_harness import check as harness_check

TOOLS = ["avahi-daemon", "avahi-browse", "avahi-publish", "dbus-daemon", "dbus-send", "nsenter",
         "unshare", "curl"]
DHT_PORT = 6881
NETWORK_ID = 7
SERVICE = "_skillnode._udp"
NOT_ADVERTISED = "DNS-SD: no Avahi daemon ("

lab = Lab("snm", 2, 203)
_helpers = []  # holders, daemons and avahi-publish: killed at exit, also on failure
_failed = []


def check(condition, what, detail=""):
    if not harness_check(condition, what, detail):
        _failed.append(what)
    return condition


def teardown():
    cleanup()  # the nodes first: they are inside the namespaces below
    for proc in reversed(_helpers):
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
    _helpers.clear()
    lab.teardown()


atexit.register(teardown)  # after Lab's own: runs first


class Host:
    """One host: a network namespace plus a mount and UTS namespace with a private /run."""

    def __init__(self, i, logs):
        self.i = i
        self.logs = logs
        self.name = f"snm{i}h{lab.tag}"
        holder = spawn(lab.prefix_of(i) + [
            "unshare", "-m", "-u", "--propagation", "private", "--", "sh", "-c",
            f"hostname {self.name} && mount -t tmpfs tmpfs /run && "
            "mkdir -p /run/dbus /run/avahi-daemon && echo ready && exec sleep 100000"],
            stdout=subprocess.PIPE)
        if holder.stdout.readline().strip() != b"ready":
            raise RuntimeError(f"host {i}: could not make its private /run")
        self.pid = holder.pid

    def enter(self):
        """The prefix that runs a command on this host, with its /run and hostname. Entering a
        mount namespace moves to its root directory: --wd keeps relative paths (SKILLNODE)."""
        return ["nsenter", "-t", str(self.pid), "-m", "-u", "-n", f"--wd={os.getcwd()}", "--"]

    def path(self, inside):
        return f"/proc/{self.pid}/root{inside}"

    def start_dbus(self):
        spawn(self.enter() + ["dbus-daemon", "--system", "--nofork", "--nopidfile"],
              log=os.path.join(self.logs, f"dbus{self.i}.log"))
        socket_up = wait_for(lambda: os.path.exists(self.path("/run/dbus/system_bus_socket")),
                             10)
        if not socket_up:
            raise RuntimeError(f"host {self.i}: dbus-daemon did not start")

    def start_avahi(self):
        log = os.path.join(self.logs, f"avahi{self.i}.log")
        spawn(self.enter() + ["avahi-daemon", "--no-drop-root", "--no-chroot"], log=log)
        # RUNNING (2) once its host name is established on the LAN.
        running = wait_for(lambda: "int32 2" in self.run(
            "dbus-send", "--system", "--print-reply", "--dest=org.freedesktop.Avahi", "/",
            "org.freedesktop.Avahi.Server.GetState").stdout, 20, interval=0.2)
        if not running:
            raise RuntimeError(f"host {self.i}: avahi-daemon is not running; log:\n{read(log)}")

    def run(self, *args, timeout=20):
        return subprocess.run(self.enter() + list(args), capture_output=True, text=True,
                              timeout=timeout)


def spawn(args, log=None, stdout=None):
    out = open(log, "w") if log else stdout or subprocess.DEVNULL
    proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT if log else None)
    _helpers.append(proc)
    return proc


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def start_node(host, name):
    # lan=True: a node as configured by default (the namespaces keep its multicast in), and
    # whatever --no-lan may come to turn off cannot hide DNS-SD from this test.
    node = Node(name, ["--port", str(DHT_PORT), "--http", "127.0.0.1:0", "--network-id",
                       str(NETWORK_ID)], prefix=host.enter(), lan=True)
    return node.start()


def api(host, node, path):
    return lab.curl_json(host.i, node.url + path)


def unescape(label):
    """avahi-browse -p escapes a name's special characters as \\DDD (decimal) or \\c."""
    return re.sub(r"\\(\d{3}|.)", lambda m: chr(int(m.group(1))) if len(m.group(1)) == 3
                  else m.group(1), label)


def browse(host):
    """Resolved IPv4 services of our type host sees: {name: (address, port, {txt key: value})}."""
    result = host.run("avahi-browse", "-rpt", SERVICE)
    found = {}
    for line in result.stdout.splitlines():
        fields = line.split(";", 9)
        if len(fields) < 10 or fields[0] != "=" or fields[2] != "IPv4":
            continue
        txt = dict(item.split("=", 1) for item in re.findall(r'"((?:[^"\\]|\\.)*)"', fields[9])
                   if "=" in item)
        found[unescape(fields[3])] = (fields[7], int(fields[8]), txt)
    return found


def no_dbus_means_one_line(host):
    node = start_node(host, "no-dbus")
    status, health = api(host, node, "/health")
    check(status == 200 and health["status"] == "ok", "with no D-Bus the node serves /health")
    status, info = api(host, node, "/api/node")
    check(status == 200 and info["dnssd"]["state"] == "no daemon",
          "with no D-Bus GET /api/node says dnssd state 'no daemon'", str(info and info["dnssd"]))
    lines = [line for line in node.log_text().splitlines() if NOT_ADVERTISED in line]
    check(len(lines) == 1, "with no D-Bus the log has one 'DNS-SD: no Avahi daemon' line",
          str(lines))
    code, _ = node.stop()
    check(code == 0 and "uv_loop_close returned 0" in node.log_text(),
          "with no D-Bus SIGTERM exits 0 with the loop closed cleanly", f"status {code}")


def main():
    require_binary()
    require_namespaces(lab.tag)
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        skip(f"missing {', '.join(missing)} (Debian: avahi-daemon avahi-utils dbus util-linux "
             "curl)")
    lab.build()
    logs = temp_dir("skillnode-mdns-")
    hosts = [Host(0, logs), Host(1, logs)]
    print(f"made 2 hosts {lab.address(0)}, {lab.address(1)} with private /run", flush=True)

    no_dbus_means_one_line(hosts[1])
    hosts[0].start_dbus()
    hosts[1].start_dbus()
    hosts[1].start_avahi()

    node = start_node(hosts[0], "advertised")
    status, info = api(hosts[0], node, "/api/node")
    check(status == 200 and info["dnssd"]["state"] == "no daemon",
          "with D-Bus but no avahi-daemon the node waits (state 'no daemon')",
          str(info and info["dnssd"]))
    lines = [line for line in node.log_text().splitlines() if NOT_ADVERTISED in line]
    check(len(lines) == 1, "and logs one 'DNS-SD: no Avahi daemon' line", str(lines))
    name = "skillnode " + info["id"][:12]
    check(info["dnssd"]["name"] == name, f"its instance name is '{name}'", info["dnssd"]["name"])

    # Host 1 takes the name first, with another port: a real conflict on the LAN.
    publish_log = os.path.join(logs, "publish.log")
    spawn(hosts[1].enter() + ["avahi-publish", "-s", name, SERVICE, str(DHT_PORT + 1)],
          log=publish_log)
    check(wait_for(lambda: f"Established under name '{name}'" in read(publish_log), 20, 0.1),
          "host 1 publishes the node's name first", read(publish_log))

    hosts[0].start_avahi()
    renamed = f"{name} #2"

    def advertised():
        status, info = api(hosts[0], node, "/api/node")
        return info["dnssd"] if status == 200 and info["dnssd"]["state"] == "advertised" else None

    dnssd = wait_for(advertised, 30, interval=0.2)
    check(dnssd is not None, "once avahi-daemon starts the node is advertised",
          str(api(hosts[0], node, "/api/node")[1]["dnssd"]))
    check(dnssd and dnssd["name"] == renamed and dnssd["collisions"] >= 1,
          f"the collision moved it to '{renamed}'", str(dnssd))

    found = wait_for(lambda: browse(hosts[1]).get(renamed), 30, interval=0.2)
    check(found is not None, f"avahi-browse -rpt on host 1 finds '{renamed}'",
          hosts[1].run("avahi-browse", "-rpt", SERVICE).stdout)
    if found:
        address, port, txt = found
        check(address == lab.address(0) and port == DHT_PORT,
              f"at host 0's address and the DHT port ({address}:{port})")
        check(txt.get("node_id") == info["id"], "TXT node_id is GET /api/node's id", str(txt))
        check(txt.get("dht_port") == str(DHT_PORT) and txt.get("network_id") == str(NETWORK_ID)
              and txt.get("http") == info["http"] and txt.get("version") == info["version"],
              "TXT dht_port, network_id, http and version match GET /api/node", str(txt))
    metrics = lab.run(0, "curl", "-s", "-m", "10", node.url + "/metrics").stdout
    check("skillnode_dnssd_advertised 1" in metrics, "/metrics says skillnode_dnssd_advertised 1")

    code, _ = node.stop()
    check(code == 0 and "uv_loop_close returned 0" in node.log_text(),
          "SIGTERM: status 0, every handle closed (uv_loop_close returned 0)", f"status {code}")
    gone = wait_for(lambda: renamed not in browse(hosts[1]), 20, interval=0.2)
    check(gone, "after the node stops host 1 no longer sees its service")
    if _failed:
        print(f"node log:\n{node.log_text()}\nhost 0 avahi-daemon log:\n"
              f"{read(os.path.join(logs, 'avahi0.log'))}", flush=True)
    teardown()
    finish()


if __name__ == "__main__":
    main()
