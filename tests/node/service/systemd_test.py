#!/usr/bin/env python3
"""[netns] The Debian package's hardened unit under a real systemd: a Debian 12 container
booted by systemd-nspawn (systemd_container.py) on a LAN of its own, with a peer host.

1. `apt install ./skillnode_*.deb` in the container: the service is active when apt returns
   (Type=notify: systemd waited for READY=1); `systemctl status` shows the STATUS= line
   ("... contacts, N stored records, N registered skills"); the main process runs as the
   system user skillnode with no capabilities, no_new_privs and a seccomp filter; the
   identity is in /var/lib/skillnode (0700, skillnode's).
2. HTTP: /health answers on 127.0.0.1:7070; `skillnode register` and `skillnode discover`
   work against the service, and STATUS= counts the registered skill.
3. The LAN: the node has UDP 54321 and 6881, joined 224.0.0.1 on eth0 (/proc/net/igmp); a
   node on the peer host with no bootstrap peer hears the service's multicast and joins it,
   and the service hears that node. Avahi over D-Bus: `avahi-browse -rpt _skillnode._udp` in
   the container finds the service with its node id, port and address.
4. The DHT: a node on the peer host with --no-lan and `-b <service>:6881` joins, and finds
   the registered skill through the DHT.
5. HTTPS (node.https with a certificate of a test CA; the key root:skillnode 0640):
   `systemctl restart` serves it; a new certificate and `systemctl reload` (SIGHUP) serve the
   new one, with the same main process and no restart; a key that does not match is refused
   by the reload, logged at priority 3 (`journalctl -p warning` shows it, and not the info
   lines), and the old certificate is still served.
6. The watchdog (WatchdogSec=30s): SIGSTOP to the main process; systemd kills it ("Watchdog
   timeout") and restarts it; the node comes back with the same node id and HTTPS.
7. `systemd-analyze security skillnode` (on the running system, not --offline) rates it at
   most 1.5. `systemctl stop` ends it with status 0; `systemctl start` starts it again.
8. `apt purge skillnode`: no unit, process, state, configuration, user or group is left.
Needs root, debootstrap, systemd-nspawn (systemd-container), nsenter and network namespaces;
skipped with the reason when any is missing, or when the container cannot be made or booted.
Run: SKILLNODE_DEB=/tmp/deb/skillnode_0.1.0_amd64.deb \
     SKILLNODE_SYSTEMD_ROOT_CACHE=/var/tmp/skillnode-systemd \
     python3 tests/node/service/systemd_test.py
node-service-deb (deb_test.py) runs it on the package it built. SKILLNODE_SYSTEMD_ROOT_CACHE
unset: the root (debootstrap, 85-100 s, ~260 MB) is made in a temporary directory and removed
at the end.
"""
import atexit
import json
import os
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from netns_lab import Lab, require_namespaces  # noqa: E402
from skillnode_harness import check, finish, skip, wait_for  # noqa: E402
from systemd_container import (HTTP, Container, RootCache, SUITE, api, logged,  # noqa: E402
                               sh, show, status_text)
from systemd_https import TLS_DIR, https, served_subject  # noqa: E402

TOOLS = ("debootstrap", "systemd-nspawn", "nsenter", "chroot", "mount", "ip")
EXPOSURE_MAX = 1.5             # as tests/node/service/unit_test.py allows offline
WATCHDOG_RESTART_S = 90        # WatchdogSec=30s, then SIGABRT and RestartSec=2s
STATUS_RE = re.compile(r"^(\d+ contacts|bootstrapping \(\w+\)|standalone: [^,]+), "
                       r"\d+ stored records, \d+ registered skills$")
EXPOSURE_RE = re.compile(r"Overall exposure level for \S+: (\d+\.\d+)")
# apt keeps its package cache in memory: written, it would add 70 MB to each run's overlay.
APT = ["apt-get", "-o", "Dir::Cache::pkgcache=", "-o", "Dir::Cache::srcpkgcache="]
SKILL = ["--agent", "agent-001", "--skill", "skill-org-feishu", "--skill-version", "0.7.0",
         "--type", "enterprise-skill", "--endpoint", "http://10.0.0.1:8080/api",
         "--capability", "org-data-read", "--scene", "auth"]

_owned = {"peers": [], "container": None, "dirs": []}


def teardown():
    for proc in _owned["peers"]:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    _owned["peers"].clear()
    if _owned["container"] is not None:
        _owned["container"].teardown()
        _owned["container"] = None
    for path in _owned["dirs"]:
        shutil.rmtree(path, ignore_errors=True)
    _owned["dirs"].clear()


def own_dir(prefix, parent=None):
    path = tempfile.mkdtemp(prefix=prefix, dir=parent)
    _owned["dirs"].append(path)
    return path


def package():
    """The .deb under test, SKILLNODE_DEB (node-service-deb builds it and runs this test)."""
    deb = os.environ.get("SKILLNODE_DEB", "")
    if not os.path.isfile(deb):
        print(f"SKILLNODE_DEB must name the package to test (got {deb!r})", flush=True)
        sys.exit(1)
    return deb


def install(c):
    started = time.monotonic()
    done = c.run(*APT, "install", "-y", "--no-install-recommends", "/root/skillnode.deb",
                 timeout=300)
    check(done.returncode == 0, f"apt install ./skillnode.deb ({time.monotonic() - started:.1f} s)",
          (done.stdout + done.stderr)[-1500:])
    props = show(c, "ActiveState", "SubState", "Type", "NotifyAccess", "StatusText", "MainPID",
                 "UnitFileState")
    check(props.get("ActiveState") == "active" and props.get("SubState") == "running"
          and props.get("Type") == "notify", "the service is active (Type=notify: READY=1 "
          "came) when apt returns", str(props))
    check(props.get("UnitFileState") == "enabled", "the unit is enabled", str(props))
    check(wait_for(lambda: logged(c, "told the service manager READY=1"), 5),
          "the node logs READY=1")
    check(wait_for(lambda: STATUS_RE.match(status_text(c)), 10), "STATUS= is the node's line",
          status_text(c))
    text = c.run("systemctl", "status", "skillnode", "--no-pager", "--lines=0").stdout
    check(re.search(r'Status: ".*registered skills"', text) is not None,
          "systemctl status shows the STATUS= line", text)
    return int(props.get("MainPID", "0"))


def sandbox(c, pid):
    uid = c.run("id", "-u", "skillnode").stdout.strip()
    status = c.run("cat", f"/proc/{pid}/status").stdout
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    field = lambda name: fields.get(name, "").split()  # noqa: E731
    check(uid and field("Uid")[:1] == [uid] and field("Gid")[:1] == [uid],
          "the main process runs as the system user skillnode", f"uid {uid}: {status[:400]}")
    check(field("CapEff") == ["0000000000000000"] and field("CapBnd") == ["0000000000000000"]
          and field("NoNewPrivs") == ["1"] and field("Seccomp") == ["2"],
          "it has no capabilities, no_new_privs and a seccomp filter", status)
    mounts = c.run("cat", f"/proc/{pid}/mountinfo").stdout
    check(re.search(r" / / ro,", mounts) and "hidepid=invisible" in mounts,
          "its / is read-only and its /proc hides other users' processes", mounts[:1500])
    state = c.run("stat", "-c", "%U %a", "/var/lib/skillnode", "/var/lib/skillnode/identity")
    check(state.stdout.split() == ["skillnode", "700", "skillnode", "600"],
          "/var/lib/skillnode (0700) holds the identity (0600), both skillnode's", state.stdout)


def http_and_registry(c):
    health = api(c, "/health")
    check(health is not None and health.get("status") == "ok", "GET /health answers", str(health))
    done = c.run("skillnode", "register", *SKILL)
    check(done.returncode == 0 and "SUCCESS" in done.stdout, "skillnode register",
          done.stdout + done.stderr)
    found = c.run("skillnode", "discover", "--capability", "org-data-read", "--json")
    skills = json.loads(found.stdout).get("skills", []) if found.returncode == 0 else []
    check([s.get("id") for s in skills] == ["skill-org-feishu"], "skillnode discover finds it",
          found.stdout + found.stderr)
    counted = wait_for(lambda: status_text(c).endswith(" 1 registered skills"), 10)
    check(counted, "STATUS= counts the registered skill", status_text(c))


def lan_and_avahi(c, address):
    node = api(c, "/api/node") or {}
    sockets = c.run("ss", "-ulpn").stdout
    for port in ("54321", "6881"):
        check(re.search(rf"0\.0\.0\.0:{port} .*\"skillnode\"", sockets) is not None,
              f"the node has UDP {port}", sockets)
    lan = node.get("lan", {})
    check(lan.get("interfaces") == ["eth0"] and lan.get("group") == "224.0.0.1:54321",
          "the LAN adapter runs on eth0", str(lan))
    igmp = c.run("cat", "/proc/net/igmp").stdout
    joined = re.search(r"\seth0\s*:.*?\n((?:\t\t\t\t.*\n)*)", igmp)
    users = re.search(r"010000E0\s+(\d+)", joined.group(1)) if joined else None
    check(users is not None and int(users.group(1)) >= 2,
          "the node joined 224.0.0.1 on eth0 (a user besides the kernel)", igmp)
    node_id = node.get("id", "")

    def browsed():
        out = c.run("avahi-browse", "-rpt", "_skillnode._udp", timeout=30).stdout
        return [line for line in out.splitlines()
                if line.startswith("=;eth0;IPv4;") and f"node_id={node_id}" in line]
    found = wait_for(browsed, 30, interval=0.5)
    check(bool(found) and f";{address};6881;" in found[0] and
          f"skillnode\\032{node_id[:12]}" in found[0],
          "avahi-browse finds the service's _skillnode._udp (Avahi over D-Bus)", str(found))
    check((api(c, "/api/node") or {}).get("dnssd", {}).get("state") == "advertised",
          "GET /api/node: dnssd advertised")
    return node_id


def start_peer(c, name, netns, args, run_dir):
    """A skillnode on the peer host (the container's files, the peer's network)."""
    data = f"/srv/{name}"
    os.makedirs(c.path(data))
    with open(c.path(f"{data}.yaml"), "w") as f:
        f.write("discovery:\n  mdns:\n    enabled: false\n")  # the container's Avahi is not its
    log = open(os.path.join(run_dir, f"{name}.log"), "w")
    proc = c.popen(["/usr/bin/skillnode", "run", "--config", f"{data}.yaml", "--data-dir", data,
                    "--port", "0"] + args, f"/run/netns/{netns}", log)
    _owned["peers"].append(proc)
    return proc, log.name


def peers(c, netns, address, node_id, run_dir):
    net = f"/run/netns/{netns}"
    lan_peer, lan_log = start_peer(c, "lan-peer", netns, ["--http", "127.0.0.1:7071"], run_dir)
    # Whichever hears the other's SKILLNODE_HELLO first (every 5 s) makes the two meet.
    heard = wait_for(lambda: f"LAN: heard node {node_id[:16]} at {address}" in open(
        lan_log).read(), 30, interval=0.5)
    joined = wait_for(lambda: (api(c, "/health", net, "http://127.0.0.1:7071") or {}).get(
        "contacts", 0) >= 1, 30, interval=0.5)
    check(heard and joined, "a node on the peer host with no bootstrap peer hears the service "
          "on the LAN and joins it", open(lan_log).read()[-1500:])
    peer_id = (api(c, "/api/node", net, "http://127.0.0.1:7071") or {}).get("id")
    heard_back = wait_for(lambda: [p for p in (api(c, "/api/node") or {}).get("lan", {}).get(
        "peers", []) if p.get("nodeId") == peer_id], 30, interval=0.5)
    check(peer_id and heard_back, "and the service hears that node on the LAN",
          str((api(c, "/api/node") or {}).get("lan")))
    dht_peer, dht_log = start_peer(c, "dht-peer", netns, [
        "--http", "127.0.0.1:7072", "--no-lan", "-b", f"{address}:6881"], run_dir)
    joined = wait_for(lambda: (api(c, "/health", net, "http://127.0.0.1:7072") or {}).get(
        "contacts", 0) >= 1, 60, interval=0.5)
    check(joined, "a node on the peer host with --no-lan -b <service>:6881 joins the DHT",
          open(dht_log).read()[-1500:])

    def through_dht():
        found = c.run("skillnode", "discover", "--http", "127.0.0.1:7072", "--capability",
                      "org-data-read", "--json", net=net)
        try:
            return [s for s in json.loads(found.stdout).get("skills", [])
                    if s.get("id") == "skill-org-feishu" and s.get("source") == "dht"]
        except json.JSONDecodeError:
            return []
    check(wait_for(through_dht, 30, interval=0.5), "that node discovers the skill through the DHT")
    contacts = wait_for(lambda: re.match(r"[1-9]\d* contacts,", status_text(c)), 10)
    check(contacts, "STATUS= counts the contacts", status_text(c))
    for proc in (lan_peer, dht_peer):
        proc.terminate()
        check(proc.wait(timeout=15) == 0, "the peer node exits 0 on SIGTERM")


def journal_priorities(c, uid):
    entries = [e for e in c.journal("skillnode") if e.get("SYSLOG_IDENTIFIER") == "skillnode"]
    listening = [e for e in entries if "HTTP API listening on" in str(e.get("MESSAGE"))]
    check(listening and all(e.get("PRIORITY") == "6" and e.get("_UID") == uid
                            for e in listening),
          "journal: the node's info lines have priority 6 and its uid", str(listening[:1]))
    check(all(not re.match(r"(<\d>|\d{4}-\d\d-\d\d)", str(e.get("MESSAGE"))) for e in entries),
          "journal: messages carry no <N> prefix and no timestamp of their own")
    warnings = c.run("journalctl", "-u", "skillnode", "-p", "warning", "-o", "cat",
                     "--no-pager").stdout
    check("configuration reload refused" in warnings and "HTTP API listening" not in warnings,
          "journalctl -u skillnode -p warning shows the error and not the info lines", warnings)


def watchdog(c, node_id):
    props = show(c, "WatchdogUSec", "NRestarts", "MainPID")
    check(props.get("WatchdogUSec") == "30s", "WatchdogUSec=30s", str(props))
    pid = props.get("MainPID")
    stopped = c.run("sh", "-c", f"kill -STOP {pid}")  # the shell's kill: there is no procps
    check(stopped.returncode == 0, "SIGSTOP to the main process", stopped.stderr)
    started = time.monotonic()

    def restarted():
        now = show(c, "NRestarts", "MainPID", "ActiveState")
        return now if now.get("NRestarts") == str(int(props["NRestarts"]) + 1) and now.get(
            "ActiveState") == "active" and now.get("MainPID") not in ("0", pid) else None
    now = wait_for(restarted, WATCHDOG_RESTART_S, interval=0.5)
    check(now, f"systemd restarts it ({time.monotonic() - started:.0f} s after SIGSTOP)",
          str(show(c, "NRestarts", "MainPID", "ActiveState", "Result")))
    check(wait_for(lambda: logged(c, "Watchdog timeout"), 5),
          "because of the watchdog (journal: Watchdog timeout)")
    again = wait_for(lambda: api(c, "/api/node"), 10)
    check(again is not None and again.get("id") == node_id,
          "the restarted node answers with the same node id", str(again and again.get("id")))
    check(wait_for(lambda: served_subject(c) == "CN=second.example", 10),
          "and serves HTTPS with the current certificate")


def security(c):
    done = c.run("systemd-analyze", "security", "skillnode", "--no-pager", timeout=120)
    found = EXPOSURE_RE.search(done.stdout)
    exposure = float(found.group(1)) if found else None
    check(exposure is not None and exposure <= EXPOSURE_MAX,
          f"systemd-analyze security skillnode (running): exposure {exposure} "
          f"(at most {EXPOSURE_MAX})", done.stdout[-2000:] + done.stderr[-500:])


def stop_and_purge(c):
    done = c.run("systemctl", "stop", "skillnode")
    props = show(c, "ActiveState", "Result", "ExecMainCode", "ExecMainStatus")
    check(done.returncode == 0 and props.get("ActiveState") == "inactive"
          and props.get("Result") == "success" and props.get("ExecMainStatus") == "0",
          "systemctl stop: the node exits 0", str(props))
    c.run("systemctl", "start", "skillnode")
    check(show(c, "ActiveState").get("ActiveState") == "active", "systemctl start: active again")
    done = c.run(*APT, "purge", "-y", "skillnode", timeout=300)
    check(done.returncode == 0, "apt purge skillnode", (done.stdout + done.stderr)[-1500:])
    c.run("rm", "-rf", TLS_DIR)
    left = c.run("sh", "-c", "systemctl list-units --all --no-legend 'skillnode*'; "
                 "getent passwd skillnode; getent group skillnode; "
                 "ls -d /var/lib/skillnode /etc/skillnode /usr/bin/skillnode "
                 "/etc/systemd/system/multi-user.target.wants/skillnode.service 2>/dev/null; "
                 "for p in /proc/[0-9]*; do grep -l '^Name:\\sskillnode' $p/status; done "
                 "2>/dev/null; true")
    check(left.stdout.strip() == "", "nothing of it is left: unit, user, group, state, "
          "configuration, process", left.stdout)


def prepare(deb):
    """The cached root with the package's dependencies, a LAN, and the booted container."""
    cache_dir = os.environ.get("SKILLNODE_SYSTEMD_ROOT_CACHE") or own_dir("skillnode-sysroot-")
    cache = RootCache(cache_dir)
    cache.lock()
    seconds, error = cache.ensure()
    if error:
        skip(f"cannot debootstrap {SUITE} from {cache.mirror}: {error}")
    made = f"made by debootstrap in {seconds:.0f} s" if seconds else "cached"
    print(f"# root {cache.root}: {made}, {cache.size_mb()} MB", flush=True)
    depends = sh("dpkg-deb", "-f", deb, "Depends").stdout.strip()
    error = cache.satisfy(depends)
    if not check(not error, "the package's dependencies are in the container's root", error):
        finish()
    lab = Lab("sns", 2, 213).build()
    atexit.register(teardown)  # again, after the Lab's own: so it runs first
    run_dir = own_dir("skillnode-systemd-run-", cache_dir)
    container = Container(cache.root, run_dir, lab.ns(0), f"skillnode-sysd-{os.getpid()}")
    _owned["container"] = container
    error = container.mount()
    if error:
        skip(f"cannot mount an overlay on the root: {error}")
    shutil.copy(deb, container.path("/root/skillnode.deb"))
    started = time.monotonic()
    error = container.boot()
    if error:
        skip(f"the container does not boot: {error}")
    print(f"# systemd booted in the container in {time.monotonic() - started:.1f} s", flush=True)
    return container, lab, run_dir


def main():
    if os.geteuid() != 0:
        skip("needs root (debootstrap, mount, systemd-nspawn, network namespaces)")
    missing = [tool for tool in TOOLS if not shutil.which(tool)]
    if missing:
        skip(f"missing {', '.join(missing)} (apt install debootstrap systemd-container)")
    require_namespaces("sd")
    deb = package()
    atexit.register(teardown)
    started = time.monotonic()
    c, lab, run_dir = prepare(deb)
    address = lab.address(0)
    pid = install(c)
    sandbox(c, pid)
    http_and_registry(c)
    node_id = lan_and_avahi(c, address)
    peers(c, lab.ns(1), address, node_id, run_dir)
    https(c)
    journal_priorities(c, c.run("id", "-u", "skillnode").stdout.strip())
    watchdog(c, node_id)
    security(c)
    stop_and_purge(c)
    print(f"# {time.monotonic() - started:.0f} s from the cache lock to the purge", flush=True)
    finish()


if __name__ == "__main__":
    main()
