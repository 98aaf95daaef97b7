"""A Debian 12 container booted by systemd-nspawn, with systemd as its PID 1, for
tests/node/service/systemd_test.py. It works on a host whose own PID 1 is not systemd.

- The root file system is made once by `debootstrap --variant=minbase` and kept in a cache
  directory (about 260 MB) under a name that depends on the suite, the mirror and the package
  list, so a change of either makes a new one. The package under test's run-time dependencies
  are added to it with `apt-get satisfy` in a chroot (on the host's network), since the
  container itself has no route to a mirror. An exclusive lock on the cache keeps two test runs
  from sharing or changing it at once.
- Each boot runs on an overlay of that root (lower: the cache, upper: a directory of this run),
  so nothing a test does reaches the cache.
- Networking: the container's network namespace is host 0 of a netns_lab.Lab, with eth0 on a
  bridge that only host 1 (the "peer", another machine on the same LAN) shares. Nothing is
  connected to the machine's own interfaces.
- Host PID 1 is not systemd here, so nspawn runs with --register=no --keep-unit (no machined,
  no scope unit on a host bus); commands enter the container with nsenter rather than
  `machinectl shell` or `systemd-run -M`.
teardown() (also run at exit, on failure or on a signal) powers the container off, unmounts
the overlay, and removes the run's directory and the directories nspawn leaves under
/run/systemd/nspawn.
"""
import fcntl
import hashlib
import json
import os
import shutil
import signal
import subprocess
import time

from skillnode_harness import wait_for

SUITE = "bookworm"
# systemd as PID 1 and the journal; D-Bus and Avahi for DNS-SD; curl (HTTP and HTTPS checks),
# openssl (certificates) and iproute2 (`ss`). No procps: a minimal system has no /bin/kill or
# ps, and the service must not need them.
PACKAGES = ("systemd", "systemd-sysv", "dbus", "avahi-daemon", "avahi-utils", "curl", "openssl",
            "iproute2")
BOOT_TIMEOUT_S = 180          # from nspawn's start to `is-system-running`: 10 s on 2 cores
POWEROFF_TIMEOUT_S = 60       # a clean shutdown takes a few seconds
COMMAND_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C", "SYSTEMD_PAGER": "cat",
               "SYSTEMD_COLORS": "0", "TERM": "dumb", "HOME": "/root"}


def sh(*args, timeout=120, **kwargs):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=timeout, **kwargs)


def debian_mirror():
    """SKILLNODE_DEBIAN_MIRROR, else the first Debian mirror apt on this machine uses."""
    if os.environ.get("SKILLNODE_DEBIAN_MIRROR"):
        return os.environ["SKILLNODE_DEBIAN_MIRROR"]
    candidates = []
    for directory, names in (("/etc/apt", ["sources.list"]),
                             ("/etc/apt/sources.list.d", None)):
        try:
            names = names or sorted(os.listdir(directory))
        except OSError:
            continue
        for name in names:
            if not name.endswith((".list", ".sources")):
                continue
            try:
                text = open(os.path.join(directory, name)).read()
            except OSError:
                continue
            for line in text.splitlines():
                words = line.split()
                if line.startswith("URIs:"):
                    candidates += words[1:]
                elif words[:1] == ["deb"]:
                    candidates += [w for w in words[1:] if "://" in w][:1]
    for uri in candidates:
        if uri.rstrip("/").endswith("/debian"):
            return uri
    return "http://deb.debian.org/debian"


class RootCache:
    """The debootstrapped root, made once per (suite, mirror, packages) in `cache_dir`."""

    def __init__(self, cache_dir):
        self.cache_dir = cache_dir
        self.mirror = debian_mirror()
        key = hashlib.sha256(f"{SUITE} {self.mirror} {' '.join(PACKAGES)}".encode())
        self.root = os.path.join(cache_dir, f"{SUITE}-{key.hexdigest()[:12]}")
        self.stamp = os.path.join(self.root, ".skillnode-root-complete")
        self._lock = None

    def lock(self):
        os.makedirs(self.cache_dir, exist_ok=True)
        self._lock = open(os.path.join(self.cache_dir, ".lock"), "w")
        fcntl.flock(self._lock, fcntl.LOCK_EX)

    def ensure(self):
        """Makes the root if it is missing; returns (seconds debootstrap took or None, error)."""
        if os.path.exists(self.stamp):
            return None, ""
        partial = self.root + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        started = time.monotonic()
        made = sh("debootstrap", "--variant=minbase", "--include=" + ",".join(PACKAGES), SUITE,
                  partial, self.mirror, timeout=1800)
        if made.returncode != 0:
            shutil.rmtree(partial, ignore_errors=True)
            return None, (made.stdout + made.stderr)[-1500:]
        sh("chroot", partial, "apt-get", "clean")
        open(os.path.join(partial, ".skillnode-root-complete"), "w").close()
        shutil.rmtree(self.root, ignore_errors=True)
        os.rename(partial, self.root)
        return time.monotonic() - started, ""

    def satisfy(self, depends):
        """Installs what `depends` (a Depends: field) needs into the root; '' or the error."""
        args = ["chroot", self.root, "apt-get", "satisfy", "-y", "--no-install-recommends", depends]
        env = dict(COMMAND_ENV, DEBIAN_FRONTEND="noninteractive")
        done = sh(*args, env=env, timeout=900)
        if done.returncode != 0:  # lists from an older debootstrap: fetch them and try again
            sh("chroot", self.root, "apt-get", "update", env=env, timeout=900)
            done = sh(*args, env=env, timeout=900)
        sh("chroot", self.root, "apt-get", "clean", env=env)
        return "" if done.returncode == 0 else (done.stdout + done.stderr)[-1500:]

    def size_mb(self):
        du = sh("du", "-sm", self.root)
        return int(du.stdout.split()[0]) if du.returncode == 0 else None


class Container:
    """One boot of the cached root on an overlay, in network namespace `netns`."""

    def __init__(self, root, run_dir, netns, machine):
        self.root = root
        self.run_dir = run_dir
        self.netns = netns
        self.machine = machine
        self.merged = os.path.join(run_dir, "merged")
        self.log_path = os.path.join(run_dir, "nspawn.log")
        self.nspawn = None
        self.leader = None
        self.mounted = False
        self.nspawn_dir_existed = os.path.exists("/run/systemd/nspawn")

    def path(self, inside):
        """The host's path of a file in the container (not under its tmpfs /tmp or /run)."""
        return os.path.join(self.merged, inside.lstrip("/"))

    def mount(self):
        upper, work = os.path.join(self.run_dir, "upper"), os.path.join(self.run_dir, "work")
        for directory in (upper, work, self.merged):
            os.makedirs(directory)
        done = sh("mount", "-t", "overlay", "overlay", "-o",
                  f"lowerdir={self.root},upperdir={upper},workdir={work}", self.merged)
        self.mounted = done.returncode == 0
        return done.stderr.strip()

    def boot(self):
        """Starts systemd in the container; '' once it is running, else why not."""
        with open(self.path("/etc/hostname"), "w") as f:
            f.write("skillnode-sysd\n")
        log = open(self.log_path, "w")
        self.nspawn = subprocess.Popen(
            ["systemd-nspawn", "--quiet", "-D", self.merged, f"--machine={self.machine}",
             "--boot", "--register=no", "--keep-unit", "--console=read-only",
             f"--network-namespace-path=/run/netns/{self.netns}"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        self.leader = wait_for(self._find_leader, 60, interval=0.1)
        if not self.leader:
            return f"no systemd in the container; nspawn said:\n{self.log_tail()}"
        deadline = time.monotonic() + BOOT_TIMEOUT_S
        state = ""
        while state not in ("running", "degraded") and time.monotonic() < deadline:
            # Empty until systemd listens on its private socket; then --wait waits for the end.
            state = self.run("systemctl", "is-system-running", "--wait",
                             timeout=max(1, deadline - time.monotonic())).stdout.strip()
            if not state:
                time.sleep(0.2)
        if state not in ("running", "degraded"):
            return f"the system is {state!r}; nspawn said:\n{self.log_tail()}"
        return ""

    def _find_leader(self):
        if self.nspawn.poll() is not None:
            return None
        try:
            with open(f"/proc/{self.nspawn.pid}/task/{self.nspawn.pid}/children") as f:
                children = f.read().split()
            for child in children:
                with open(f"/proc/{child}/comm") as f:
                    if f.read().strip() == "systemd":
                        return int(child)
        except OSError:
            pass
        return None

    def log_tail(self):
        try:
            return open(self.log_path, errors="replace").read()[-2000:]
        except OSError:
            return ""

    def enter(self, net=None, pid=True):
        """nsenter's arguments for the container's namespaces; `net` names another network
        namespace (/run/netns/...) to run in instead of the container's."""
        args = ["nsenter", "-t", str(self.leader), "-m", "-u", "-i", "-r", "-w"]
        args += ["-p"] if pid else []
        args += [f"--net={net}"] if net else ["-n"]
        return args + ["--"]

    def run(self, *args, timeout=60, net=None, input_text=None):
        """Runs a command in the container; CompletedProcess (rc 124 on timeout)."""
        try:
            return subprocess.run(self.enter(net) + list(args), capture_output=True, text=True,
                                  timeout=timeout, env=COMMAND_ENV, input=input_text)
        except subprocess.TimeoutExpired as expired:
            return subprocess.CompletedProcess(expired.cmd, 124, str(expired.stdout or ""),
                                               f"timed out after {timeout} s")

    def show(self, unit, *names):
        """`systemctl show` of a unit's properties, as a dict."""
        lines = self.run("systemctl", "show", unit, *[f"-p{n}" for n in names]).stdout
        return dict(line.split("=", 1) for line in lines.splitlines() if "=" in line)

    def journal(self, unit):
        """A unit's journal entries as dicts (MESSAGE, PRIORITY, _UID, ...)."""
        lines = self.run("journalctl", "-u", unit, "-o", "json", "--no-pager").stdout
        entries = []
        for line in lines.splitlines():
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                pass
        return entries

    def popen(self, args, net, log):
        """A long-running process in the container's file system, in network namespace `net`.
        Not in its PID namespace, so that the Popen is the process itself."""
        return subprocess.Popen(self.enter(net, pid=False) + list(args), env=COMMAND_ENV,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)

    def teardown(self):
        if self.nspawn is not None and self.nspawn.poll() is None:
            self.nspawn.send_signal(signal.SIGTERM)  # nspawn asks systemd to power off
            try:
                self.nspawn.wait(timeout=POWEROFF_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                if self.leader:
                    try:
                        os.kill(self.leader, signal.SIGKILL)  # ends its PID namespace
                    except OSError:
                        pass
                self.nspawn.kill()
                self.nspawn.wait(timeout=30)
        self.nspawn = None
        if self.mounted:
            if sh("umount", self.merged).returncode != 0:
                sh("umount", "-l", self.merged)
            self.mounted = False
        # nspawn cannot remove its propagation directory when /run is not a tmpfs.
        shutil.rmtree(f"/run/systemd/nspawn/propagate/{self.machine}", ignore_errors=True)
        if not self.nspawn_dir_existed:
            shutil.rmtree("/run/systemd/nspawn", ignore_errors=True)
        shutil.rmtree(self.run_dir, ignore_errors=True)


# Asking the service inside a container.
HTTP = "http://127.0.0.1:7070"


def curl(c, url, *extra, net=None):
    """(curl's rc, body, stderr) of a GET from inside the container."""
    done = c.run("curl", "-sS", "-m", "10", *extra, url, net=net, timeout=30)
    return done.returncode, done.stdout, done.stderr


def api(c, path, net=None, base=HTTP):
    rc, body, _ = curl(c, base + path, net=net)
    try:
        return json.loads(body) if rc == 0 else None
    except json.JSONDecodeError:
        return None


def show(c, *names):
    return c.show("skillnode", *names)


def status_text(c):
    return show(c, "StatusText").get("StatusText", "")


def logged(c, text):
    return [e for e in c.journal("skillnode") if text in str(e.get("MESSAGE", ""))]
