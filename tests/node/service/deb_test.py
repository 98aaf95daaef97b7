#!/usr/bin/env python3
"""[uv] The Debian package: built, checked by lintian, installed, upgraded and purged on this
machine, which it leaves as it found it.

1. debian/make-deb.sh builds skillnode_<version>_amd64.deb and skillnode-dbgsym with
   dpkg-buildpackage and fails on any lintian error or warning. The packaging is what is tested
   here, not the optimiser, so unless SKILLNODE_DEB_OPT is set the build has
   DEB_BUILD_OPTIONS="noopt nocheck" and DEB_CXXFLAGS_APPEND="-Og -g1" (dpkg-buildflags puts it
   last, so it wins): node/http/http_connection.cpp, without its precompiled header, compiles
   in 3.3 to 3.5 CPU-s that way, 4.7 with noopt's -O0 -g and 6.2 with Debian's -O2 -g; -g1
   still gives the -dbgsym package its line tables.
2. Its Depends names run-time libraries only, never a -dev package.
3. `dpkg -i`: the system user skillnode exists; /etc/skillnode/skillnode.yaml is a conffile;
   the unit, the man pages and the completion are in place; /var/lib/skillnode belongs to
   skillnode with mode 0700. The installed binary, started as skillnode with the installed
   configuration and the state directory, answers /health and /api/node.
4. An upgrade to the same build repacked at a higher version (dpkg-deb) keeps the edited
   conffile, the user and the state: the node id is unchanged.
5. `dpkg --purge` leaves no file of the package, no state, no user and no group.
6. The same package under a real systemd in a container (systemd_test.py): readiness,
   STATUS=, the journal, HTTP, HTTPS and reload, LAN multicast, Avahi, the DHT, the watchdog.
Needs root (dpkg). Skipped when a skillnode package is installed already, so that a machine's
own installation is never touched. Whatever happens, the package is purged at the end.
Run: SKILLNODE_SOURCE=. SKILLNODE_DEB_OUT=/tmp/deb python3 tests/node/service/deb_test.py
"""
import atexit
import grp
import json
import os
import pwd
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from skillnode_harness import check, finish, skip, temp_dir, wait_for  # noqa: E402

SOURCE = os.environ.get("SKILLNODE_SOURCE", "")
OUT = os.environ.get("SKILLNODE_DEB_OUT", "")
LISTEN_RE = re.compile(r"HTTP API listening on (http://\S+)")


def sh(*args, env=None, timeout=120):
    return subprocess.run(list(args), capture_output=True, text=True, env=env, timeout=timeout)


def installed():
    status = sh("dpkg-query", "-W", "-f=${Status}", "skillnode").stdout
    return status.endswith("installed")


def purge():
    if sh("dpkg-query", "-W", "skillnode").returncode == 0:
        sh("dpkg", "--purge", "skillnode")


def start_as_service_user(log_path):
    """The installed binary as the package's user, on the installed configuration; the ports
    are moved so as not to meet another node on this machine, and the LAN stays quiet."""
    log = open(log_path, "w")
    proc = subprocess.Popen(
        ["setpriv", "--reuid=skillnode", "--regid=skillnode", "--init-groups",
         "/usr/bin/skillnode", "run", "--config", "/etc/skillnode/skillnode.yaml",
         "--data-dir", "/var/lib/skillnode", "--port", "0", "--http", "127.0.0.1:0",
         "--no-lan", "--no-port-mapping"], stdout=subprocess.DEVNULL, stderr=log)

    def url():
        if proc.poll() is not None:
            raise RuntimeError(f"the installed node exited: {open(log_path).read()}")
        found = LISTEN_RE.findall(open(log_path).read())
        return found[-1] if found else None

    return proc, wait_for(url, 30)


def node_id_of_running(log_dir, what):
    log_path = os.path.join(log_dir, f"{what}.log")
    proc, url = start_as_service_user(log_path)
    try:
        with urllib.request.urlopen(url + "/health", timeout=5) as answer:
            health = json.loads(answer.read())
        with urllib.request.urlopen(url + "/api/node", timeout=5) as answer:
            info = json.loads(answer.read())
        owner = pwd.getpwuid(os.stat(f"/proc/{proc.pid}").st_uid).pw_name
        check(health.get("status") == "ok" and owner == "skillnode",
              f"{what}: the installed node runs as skillnode and answers /health", str(health))
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=15)
    check(code == 0, f"{what}: SIGTERM exits 0", str(code))
    return info.get("id")


def repack(deb, version, out_dir):
    """The same build as a package of a higher version."""
    tree = os.path.join(out_dir, "repack")
    shutil.rmtree(tree, ignore_errors=True)
    subprocess.run(["dpkg-deb", "-R", deb, tree], check=True)
    control = os.path.join(tree, "DEBIAN", "control")
    text = open(control).read()
    text = re.sub(r"^Version: .*$", f"Version: {version}", text, flags=re.M)
    open(control, "w").write(text)
    target = os.path.join(out_dir, f"skillnode_{version}_amd64.deb")
    subprocess.run(["dpkg-deb", "--root-owner-group", "-b", tree, target], check=True,
                   capture_output=True)
    return target


def main():
    if os.geteuid() != 0:
        skip("needs root to install packages")
    if not SOURCE or not OUT:
        print("SKILLNODE_SOURCE and SKILLNODE_DEB_OUT must be set", flush=True)
        sys.exit(1)
    if installed() or os.path.exists("/var/lib/skillnode"):
        skip("a skillnode package or /var/lib/skillnode is on this machine already; "
             "it is left alone")
    atexit.register(purge)

    env = dict(os.environ)
    if not env.get("SKILLNODE_DEB_OPT"):
        env["DEB_BUILD_OPTIONS"] = "noopt nocheck"
        env["DEB_CXXFLAGS_APPEND"] = "-Og -g1"
        env["DEB_CFLAGS_APPEND"] = "-Og -g1"
    started = time.monotonic()
    built = sh("bash", os.path.join(SOURCE, "debian", "make-deb.sh"), OUT, env=env, timeout=3000)
    lintian = built.stdout[built.stdout.rfind("Now running lintian"):] \
        if "Now running lintian" in built.stdout else built.stdout[-3000:]
    if not check(built.returncode == 0,
                 f"make-deb.sh builds the packages with no lintian error or warning "
                 f"({time.monotonic() - started:.0f} s)",
                 (built.stdout + built.stderr)[-4000:]):
        finish()
    debs = built.stdout.strip().splitlines()[-2:]
    deb = next((d for d in debs if os.path.basename(d).startswith("skillnode_")), "")
    check(any("skillnode-dbgsym_" in d for d in debs), "a -dbgsym package is built", str(debs))
    print(lintian[-1500:], flush=True)

    depends = sh("dpkg-deb", "-f", deb, "Depends").stdout.strip()
    check(depends and not re.search(r"-dev\b", depends),
          "Depends lists run-time libraries only", depends)

    done = sh("dpkg", "-i", deb)
    check(done.returncode == 0, "dpkg -i installs the package", done.stderr[-800:])
    user = pwd.getpwnam("skillnode") if "skillnode" in [p.pw_name for p in pwd.getpwall()] \
        else None
    check(user is not None and user.pw_uid < 1000 and user.pw_shell.endswith("nologin"),
          "the system user skillnode exists", str(user))
    conffiles = sh("dpkg-query", "-W", "-f=${Conffiles}", "skillnode").stdout
    check("/etc/skillnode/skillnode.yaml" in conffiles,
          "/etc/skillnode/skillnode.yaml is a conffile", conffiles)
    for path in ("/usr/bin/skillnode", "/usr/bin/skillsim",
                 "/lib/systemd/system/skillnode.service", "/usr/lib/sysusers.d/skillnode.conf",
                 "/usr/share/man/man1/skillnode.1.gz", "/usr/share/man/man5/skillnode.yaml.5.gz",
                 "/usr/share/man/man1/skillsim.1.gz",
                 "/usr/share/bash-completion/completions/skillnode"):
        check(os.path.exists(path), f"installed: {path}")
    state = os.stat("/var/lib/skillnode")
    check(stat.S_IMODE(state.st_mode) == 0o700 and state.st_uid == user.pw_uid,
          "/var/lib/skillnode belongs to skillnode, mode 0700")
    checked = sh("/usr/bin/skillnode", "run", "--check-config", "/etc/skillnode/skillnode.yaml")
    check(checked.returncode == 0, "the installed configuration passes --check-config",
          checked.stderr)

    logs = temp_dir("skillnode-deb-logs-")
    os.chmod(logs, 0o755)
    first_id = node_id_of_running(logs, "installed")
    check(bool(first_id) and os.path.exists("/var/lib/skillnode/identity"),
          "the node keeps its identity in /var/lib/skillnode", str(first_id))

    with open("/etc/skillnode/skillnode.yaml", "a") as f:
        f.write("# edited by the operator\n")
    version = sh("dpkg-deb", "-f", deb, "Version").stdout.strip()
    newer = repack(deb, version + "+1", OUT)
    done = sh("dpkg", "-i", newer, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    check(done.returncode == 0, f"dpkg -i upgrades to {version}+1", done.stderr[-800:])
    now = sh("dpkg-query", "-W", "-f=${Version}", "skillnode").stdout
    check(now == version + "+1", "the upgraded version is installed", now)
    check("# edited by the operator" in open("/etc/skillnode/skillnode.yaml").read(),
          "the upgrade keeps the operator's edit of the conffile")
    second_id = node_id_of_running(logs, "upgraded")
    check(second_id == first_id, "after the upgrade the node id is unchanged",
          f"{first_id} -> {second_id}")

    files = sh("dpkg-query", "-L", "skillnode").stdout.split()
    done = sh("dpkg", "--purge", "skillnode")
    check(done.returncode == 0, "dpkg --purge removes the package", done.stderr[-800:])
    left = [f for f in files if os.path.isfile(f)]
    check(not left, "no file of the package is left", str(left[:5]))
    for path in ("/var/lib/skillnode", "/etc/skillnode",
                 "/etc/systemd/system/multi-user.target.wants/skillnode.service"):
        check(not os.path.lexists(path), f"purged: {path}")
    check("skillnode" not in [p.pw_name for p in pwd.getpwall()], "purged: the user skillnode")
    check("skillnode" not in [g.gr_name for g in grp.getgrall()], "purged: the group skillnode")
    under_systemd(deb)
    finish()


def under_systemd(deb):
    """The same package under a real systemd (systemd_test.py, in a container), so that the
    package is built once for both."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "systemd_test.py")
    env = dict(os.environ, SKILLNODE_DEB=deb)
    print("--- the package under systemd (systemd_test.py) ---", flush=True)
    done = subprocess.run([sys.executable, script], env=env, text=True, timeout=1800)
    if done.returncode == 77:
        print("SKIP - the package under systemd: see the reason above", flush=True)
        return
    check(done.returncode == 0, "the package works under a real systemd (systemd_test.py)",
          f"exit {done.returncode}")


if __name__ == "__main__":
    main()
