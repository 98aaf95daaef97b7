#!/usr/bin/env python3
"""Writes the installed /etc/skillnode/skillnode.yaml: the configuration reference of
docs/configuration.md (the embedded default, with its comments), every line commented out, so
that the file changes nothing until a key is uncommented and the defaults stay the binary's own
across upgrades. That block is checked against the defaults by
tests/node/config/readme_config_test.cpp, so this file cannot drift from them.
Usage: default_config.py docs/configuration.md OUTPUT
"""
import sys

HEADER = """\
# skillnode configuration (skillnode.yaml(5); docs/configuration.md in skillnode's source).
#
# Every key is optional. Below is the embedded default, commented out: uncomment a key, with
# the sections above it, to change it. Durations are milliseconds. Check a change with
#   skillnode run --check-config /etc/skillnode/skillnode.yaml
# and apply it with `systemctl restart skillnode`.
#
# Under systemd the unit passes --data-dir /var/lib/skillnode, which takes the place of
# node.dataDir.
#
"""


def reference_block(text):
    """The lines of the ```yaml block after the "Configuration" heading (`# Configuration` in
    docs/configuration.md)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.startswith("#") and line.lstrip("#").strip() == "Configuration")
    opening = next(i for i in range(start, len(lines)) if lines[i] == "```yaml")
    closing = lines.index("```", opening + 1)
    return lines[opening + 1:closing]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: default_config.py docs/configuration.md OUTPUT")
    with open(sys.argv[1], encoding="utf-8") as f:
        block = reference_block(f.read())
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write(HEADER)
        for line in block:
            f.write(("# " + line).rstrip() + "\n" if line else "#\n")


if __name__ == "__main__":
    main()
