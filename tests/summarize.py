#!/usr/bin/env python3
"""Counts real test results from meson's testlog.json; the last line is
'N passed, N failed, N skipped'.

Catch2 executables report many test cases each; their console summary line is parsed so that
every TEST_CASE counts once. Other tests (python and shell checks) count once by their meson
result. A Catch2 executable that crashed, or whose process failed after its cases passed (a
sanitizer report at exit, say), adds one failure so that nothing is hidden.

Skips do not vanish: a test that skipped (meson's SKIP, exit status 77) counts as skipped, and so
does a part of a passing test that says "SKIP: <reason>" on a line of its own (the package
test's systemd half, say), on top of the test's pass. A skip counts as skipped only when it is
on the allow-list below; any other skip fails the run, because the machine `make test` runs on
(root, network namespaces, the packages .ci/install-deps installs) has all that every test needs.
Usage: summarize.py BUILD_DIR
"""
import json
import re
import sys
from pathlib import Path

ALL_PASSED = re.compile(r"All tests passed \((\d+) assertions? in (\d+) test cases?\)")
MIXED = re.compile(r"test cases:\s+(\d+) \|\s+(\d+) passed \|\s+(\d+) failed")
ALL_FAILED = re.compile(r"test cases:\s+(\d+) \|\s+(\d+) failed")
NONE_RAN = re.compile(r"No tests ran")
SKIP_LINE = re.compile(r"^SKIP: (.*)$", re.M)

# (test name, what its skip reason starts with): the skips that do not fail the run, and why.
ALLOWED_SKIPS = [
    # The package test installs and purges the package skillnode: on a machine where that
    # package is installed (or its state is there), it must not touch the machine's own node.
    ("node-service-deb", "a skillnode package or /var/lib/skillnode is on this machine already"),
]


def allowed(name, reason):
    return any(name == test and reason.startswith(start) for test, start in ALLOWED_SKIPS)


def skips_of(entry, out):
    """The skips one meson test reports: [(reason, allowed)]."""
    reasons = SKIP_LINE.findall(out)
    if entry["result"] == "SKIP" and not reasons:
        reasons = ["(the test said no reason)"]
    return [(reason.strip(), allowed(entry["name"], reason.strip())) for reason in reasons]


def count(entry):
    """Returns (passed, failed, failed_names) for one meson test, skips aside."""
    ok = entry["result"] in ("OK", "EXPECTEDFAIL")
    out = entry.get("stdout") or entry.get("stdo") or ""
    name = entry["name"]
    if entry["result"] == "SKIP":
        return 0, 0, []
    if m := ALL_PASSED.search(out):
        passed = int(m.group(2))
        return (passed, 0, []) if ok else (passed, 1, [name + " (process failed)"])
    if m := MIXED.search(out):
        failed = int(m.group(3))
        return int(m.group(2)), failed, [f"{name} ({failed} test cases)"]
    if m := ALL_FAILED.search(out):
        failed = int(m.group(2))
        return 0, failed, [f"{name} ({failed} test cases)"]
    if NONE_RAN.search(out) and ok:
        return 0, 0, []
    return (1, 0, []) if ok else (0, 1, [name])


def main():
    log = Path(sys.argv[1]) / "meson-logs" / "testlog.json"
    if not log.exists():
        print(f"no test log at {log}: the test run did not start", file=sys.stderr)
        print("0 passed, 1 failed, 0 skipped")
        return 1
    passed = failed = skipped = 0
    failures = []
    skip_notes = []
    for line in log.read_text().splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        p, f, names = count(entry)
        passed, failed = passed + p, failed + f
        failures += names
        out = entry.get("stdout") or entry.get("stdo") or ""
        for reason, is_allowed in skips_of(entry, out):
            if is_allowed:
                skipped += 1
                skip_notes.append(f"SKIPPED: {entry['name']}: {reason}")
            else:
                failed += 1
                failures.append(f"{entry['name']} skipped, and that skip is not allowed "
                                f"(tests/summarize.py ALLOWED_SKIPS): {reason}")
    for note in skip_notes:
        print(note)
    for name in failures:
        print(f"FAILED: {name}")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
