#!/usr/bin/env python3
"""The MCP Registry's server.json schema (discovery/schema/mcp-server.schema.json) checked by an
independent validator, as descriptor_schema_test.py does for the descriptor schema.

Usage: mcp_server_schema_test.py SCHEMA.json SAMPLES_DIR, with $MCP_SERVER_CHECK the
tests/discovery/schema/mcp_server_check binary (ValidateMcpServer).

- Python's jsonschema (Debian python3-jsonschema) accepts the schema as a Draft 7 schema.
- Every sample gets the same verdict from Python's jsonschema (with its format checker) and from
  ValidateMcpServer, and the verdict its name says: valid-*.json valid, invalid-*.json invalid,
  each violation printed with a JSON pointer.
- format-*.json break only a `format: uri` or `uri-template`, which this jsonschema does not
  check (its uri checker needs the rfc3987 package, not installed): valid for Python, refused by
  ValidateMcpServer as a `pattern` violation (discovery/schema/format_patterns.h).
"""
import json
import os
import pathlib
import subprocess
import sys

from jsonschema import Draft7Validator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from schema_checks import check, finish, load_draft7_schema  # noqa: E402



def main():
    schema_path, samples = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    schema = load_draft7_schema(schema_path, "the server.json schema")
    checker = Draft7Validator.FORMAT_CHECKER
    check("uri" not in checker.checkers and "uri-template" not in checker.checkers,
          "this jsonschema checks neither uri nor uri-template (the format-* samples say so)")
    validator = Draft7Validator(schema, format_checker=checker)

    files = sorted(samples.glob("*.json"))
    check(len(files) >= 20, f"{len(files)} sample server.json documents")
    for sample in files:
        document = json.loads(sample.read_text(encoding="utf-8"))
        errors = list(validator.iter_errors(document))
        python_valid = not errors
        result = subprocess.run([os.environ["MCP_SERVER_CHECK"], str(sample)],
                                capture_output=True, text=True, timeout=30, check=False)
        ours_valid = result.returncode == 0
        lines = result.stdout.splitlines()
        name = sample.name
        check(result.returncode in (0, 1), f"{name}: mcp_server_check exits 0 or 1",
              f"exit {result.returncode}: {result.stderr}")
        if name.startswith("format-"):
            check(python_valid and not ours_valid and
                  any(": pattern:" in line for line in lines),
                  f"{name}: valid for Python (no uri checker), a pattern violation for skillnode",
                  f"python: {[e.message for e in errors]}\nskillnode: {result.stdout}")
            continue
        expected = name.startswith("valid-")
        check(python_valid == ours_valid == expected,
              f"{name}: {'valid' if expected else 'invalid'} for Python and for skillnode",
              f"python: {[e.message for e in errors]}\nskillnode: {result.stdout}")
        if not expected:
            prefix = f"{sample}: "
            check(lines and all(line.startswith(prefix) and
                                (line[len(prefix):].startswith("/") or ":" in line[len(prefix):])
                                for line in lines),
                  f"{name}: each violation printed as 'pointer: reason'", result.stdout)
            python_paths = {"".join(f"/{p}" for p in e.absolute_path) for e in errors}
            rests = [line[len(prefix):] for line in lines]
            ours = {rest.split(": ")[0] if rest.startswith("/") else "" for rest in rests}
            check(any(p.startswith(o) or o.startswith(p) for p in python_paths for o in ours),
                  f"{name}: skillnode and Python point at the same place",
                  f"python: {sorted(python_paths)}\nskillnode: {sorted(ours)}")

    return finish()


if __name__ == "__main__":
    sys.exit(main())
