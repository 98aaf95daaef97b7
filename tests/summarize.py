#!/usr/bin/env python3
"""Counts real test results from meson's testlog.json and prints 'N passed, N failed'.

Catch2 executables report many test cases each; their console summary line is parsed so that
every TEST_CASE counts once. Other tests (shell checks) count once by their meson result. A
Catch2 executable that crashed, or whose process failed after its cases passed (a sanitizer
report at exit, say), adds one failure so that nothing is hidden.
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


def count(entry):
    """Returns (passed, failed, skipped, failed_names) for one meson test."""
    ok = entry["result"] in ("OK", "EXPECTEDFAIL")
    skipped = entry["result"] == "SKIP"
    out = entry.get("stdout") or entry.get("stdo") or ""
    name = entry["name"]
    if skipped:
        return 0, 0, 1, []
    if m := ALL_PASSED.search(out):
        passed = int(m.group(2))
        return (passed, 0, 0, []) if ok else (passed, 1, 0, [name + " (process failed)"])
    if m := MIXED.search(out):
        failed = int(m.group(3))
        return int(m.group(2)), failed, 0, [f"{name} ({failed} test cases)"]
    if m := ALL_FAILED.search(out):
        failed = int(m.group(2))
        return 0, failed, 0, [f"{name} ({failed} test cases)"]
    if NONE_RAN.search(out) and ok:
        return 0, 0, 0, []
    return (1, 0, 0, []) if ok else (0, 1, 0, [name])


def main():
    log = Path(sys.argv[1]) / "meson-logs" / "testlog.json"
    if not log.exists():
        print(f"no test log at {log}: the test run did not start", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    passed = failed = skipped = 0
    failures = []
    for line in log.read_text().splitlines():
        if not line.strip():
            continue
        p, f, s, names = count(json.loads(line))
        passed, failed, skipped = passed + p, failed + f, skipped + s
        failures += names
    for name in failures:
        print(f"FAILED: {name}")
    if skipped:
        print(f"{skipped} skipped (each says why in the test log)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
