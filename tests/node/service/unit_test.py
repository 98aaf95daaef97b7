#!/usr/bin/env python3
"""The systemd unit and the default configuration that `meson install` installs.

- `systemd-analyze verify` accepts the unit (with the build's binary in ExecStart);
- `systemd-analyze security --offline=true` rates its exposure at most 1.5 (Debian's
  dhtnode.service: 2.0);
- ExecStart's flags are ones `skillnode run` takes;
- `skillnode run --check-config` accepts the default configuration, and also its body with
  every line uncommented (docs/configuration.md's reference, so the comments are valid settings).
Run: SKILLNODE=... SKILLNODE_UNIT=build/.../skillnode.service \
     SKILLNODE_DEFAULT_CONFIG=build/.../skillnode.yaml python3 tests/node/service/unit_test.py
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from skillnode_harness import BINARY, check, finish, require_binary, run, skip, temp_dir  # noqa: E402

EXPOSURE_MAX = 1.5
EXPOSURE_RE = re.compile(r"Overall exposure level for \S+: (\d+\.\d+)")


def exec_start(unit_text):
    lines = [line for line in unit_text.splitlines() if line.startswith("ExecStart=")]
    return shlex.split(lines[0][len("ExecStart="):]) if len(lines) == 1 else None


def unit_checks(unit_path):
    with open(unit_path) as f:
        text = f.read()
    command = exec_start(text)
    check(command is not None and os.path.basename(command[0]) == "skillnode"
          and command[1] == "run", "the unit has one ExecStart, `skillnode run ...`", f"{command}")
    if command is None:
        return
    # The installed path does not exist in a build tree: verify a copy that runs this build.
    local = os.path.join(temp_dir("skillnode-unit-"), "skillnode.service")
    with open(local, "w") as f:
        f.write(text.replace(f"ExecStart={command[0]} ", f"ExecStart={BINARY} ", 1))
    verify = subprocess.run(["systemd-analyze", "verify", "--man=no", local],
                            capture_output=True, text=True, timeout=60)
    problems = (verify.stdout + verify.stderr).strip()
    check(verify.returncode == 0 and not problems, "systemd-analyze verify accepts the unit",
          problems)

    security = subprocess.run(["systemd-analyze", "security", "--offline=true", local],
                              capture_output=True, text=True, timeout=60)
    found = EXPOSURE_RE.search(security.stdout)
    exposure = float(found.group(1)) if found else None
    check(exposure is not None and exposure <= EXPOSURE_MAX,
          f"systemd-analyze security: exposure {exposure} (at most {EXPOSURE_MAX})",
          security.stdout[-2000:] + security.stderr[-500:])

    help_text = run(["run", "--help"]).stdout
    flags = [arg for arg in command[2:] if arg.startswith("--")]
    unknown = [flag for flag in flags if not re.search(rf"(^|\s|,){re.escape(flag)}\b", help_text)]
    check(flags and not unknown, f"`skillnode run` takes ExecStart's flags {flags}",
          f"unknown: {unknown}")
    check("Type=notify" in text and "WatchdogSec=" in text,
          "the unit is Type=notify with a watchdog")


def config_checks(config_path):
    checked = run(["run", "--check-config", config_path])
    check(checked.returncode == 0, "skillnode run --check-config accepts the default configuration",
          checked.stdout + checked.stderr)
    with open(config_path) as f:
        lines = f.read().splitlines()
    start = lines.index("# node:")
    body = [line[2:] if line.startswith("# ") else line[1:] for line in lines[start:]]
    check(all(line.startswith("#") for line in lines if line),
          "every line of the default configuration is a comment (the defaults stay the binary's)")
    uncommented = os.path.join(temp_dir("skillnode-unit-"), "uncommented.yaml")
    with open(uncommented, "w") as f:
        f.write("\n".join(body) + "\n")
    checked = run(["run", "--check-config", uncommented])
    check(checked.returncode == 0, "... and so is its body with every line uncommented",
          checked.stdout + checked.stderr)


def main():
    require_binary()
    unit = os.environ.get("SKILLNODE_UNIT", "")
    config = os.environ.get("SKILLNODE_DEFAULT_CONFIG", "")
    if not os.path.isfile(unit) or not os.path.isfile(config):
        print(f"SKILLNODE_UNIT and SKILLNODE_DEFAULT_CONFIG must name files ({unit!r}, "
              f"{config!r})", flush=True)
        sys.exit(1)
    config_checks(config)
    if shutil.which("systemd-analyze") is None:
        skip("systemd-analyze is not installed (Debian's systemd package)")
    unit_checks(unit)
    finish()


if __name__ == "__main__":
    main()
