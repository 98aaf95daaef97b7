"""Shared by the benchmark scripts: start release skillnode processes in a scratch directory,
read their memory, and clean everything up at the end."""
import os
import re
import shutil
import subprocess
import tempfile
import time

processes = []
scratch = tempfile.mkdtemp(prefix="skillnode-bench-")


def cleanup():
    """Kills every process started here and removes the scratch directory."""
    for p in processes:
        if p.poll() is None:
            p.kill()
            p.wait()
    shutil.rmtree(scratch, ignore_errors=True)


def start_node(binary, name, config, extra=(), prefix=()):
    """Starts `skillnode run` with `config` (YAML text); returns (process, HTTP URL)."""
    path = os.path.join(scratch, name + ".yaml")
    with open(path, "w") as f:
        f.write(config)
    log = open(os.path.join(scratch, name + ".log"), "w+")
    proc = subprocess.Popen([*prefix, binary, "run", "--config", path, "--data-dir",
                             os.path.join(scratch, name), "--log-level", "info", "--no-lan", "--no-port-mapping", *extra],
                            stdout=subprocess.DEVNULL, stderr=log)
    processes.append(proc)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        log.seek(0)
        m = re.search(r"HTTP API listening on (http://\S+)", log.read())
        if m:
            return proc, m.group(1)
        time.sleep(0.05)
    raise RuntimeError(f"{name} did not start")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0
