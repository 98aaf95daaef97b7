#!/usr/bin/env python3
"""The shipped Skill Descriptor schema checked by an independent validator (issue 21, point 4).

Usage: descriptor_schema_test.py SCHEMA.json SAMPLES_DIR, with $SKILLNODE the binary.

- Python's jsonschema (Debian python3-jsonschema) accepts the schema as a Draft 7 schema
  (Draft7Validator.check_schema).
- Every sample descriptor gets the same verdict from Python's jsonschema and from `skillnode
  descriptor validate`, and the verdict its name says: valid-*.json valid, invalid-*.json invalid.
- policy-*.json are valid descriptors for Python (their inputSchema/outputSchema are ordinary
  schemas) that skillnode refuses because valijson could not check a keyword of their schema:
  skillnode exits 1 naming the keyword; Python checks each such schema with check_schema too.
- `skillnode descriptor validate` exits 2 for a file that is not JSON and one that is missing;
  `skillnode descriptor fmt` prints a valid sample with the schema's key order, 2-space indent
  and a trailing newline, and refuses an invalid one with exit 1.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import jsonschema
from jsonschema import Draft7Validator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from schema_checks import check, finish, load_draft7_schema  # noqa: E402



def skillnode(*args):
    return subprocess.run([os.environ["SKILLNODE"], "descriptor", *args], capture_output=True,
                          text=True, timeout=30, check=False)


def main():
    schema_path, samples = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    schema = load_draft7_schema(schema_path, "the shipped schema")
    check(schema.get("$schema") == "http://json-schema.org/draft-07/schema#",
          "the schema declares Draft 7")
    validator = Draft7Validator(schema)

    files = sorted(samples.glob("*.json"))
    check(len(files) >= 20, f"{len(files)} sample descriptors")
    for sample in files:
        document = json.loads(sample.read_text(encoding="utf-8"))
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        python_valid = not errors
        result = skillnode("validate", str(sample))
        ours_valid = result.returncode == 0
        name = sample.name
        if name.startswith("policy-"):
            for key in ("inputSchema", "outputSchema"):
                if isinstance(document.get(key), dict):
                    jsonschema.validators.validator_for(document[key]).check_schema(document[key])
            check(python_valid and result.returncode == 1,
                  f"{name}: a valid descriptor for Python, refused by the keyword policy",
                  result.stdout + result.stderr)
            continue
        expected = name.startswith("valid-")
        check(result.returncode in (0, 1), f"{name}: skillnode exits 0 or 1",
              f"exit {result.returncode}: {result.stderr}")
        check(python_valid == ours_valid == expected,
              f"{name}: {'valid' if expected else 'invalid'} for Python and for skillnode",
              f"python: {[e.message for e in errors]}\nskillnode: {result.stdout}{result.stderr}")
        if expected:
            check(result.stdout == f"{sample}: valid\n", f"{name}: prints 'FILE: valid'",
                  result.stdout)
        else:
            lines = result.stdout.splitlines()
            check(lines and all(line.startswith("/") or ":" in line for line in lines),
                  f"{name}: each violation printed as 'pointer: reason'", result.stdout)

    with tempfile.TemporaryDirectory() as scratch:
        broken = pathlib.Path(scratch) / "broken.json"
        broken.write_text('{"name": ', encoding="utf-8")
        result = skillnode("validate", str(broken))
        check(result.returncode == 2 and "is not JSON" in result.stderr,
              "validate: a file that is not JSON exits 2", result.stderr)
        result = skillnode("validate", str(pathlib.Path(scratch) / "missing.json"))
        check(result.returncode == 2 and "cannot read" in result.stderr,
              "validate: a missing file exits 2", result.stderr)

    full = samples / "valid-full.json"
    result = skillnode("fmt", str(full))
    order = [key for key in schema["properties"] if key in json.loads(full.read_text())]
    printed = json.loads(result.stdout) if result.returncode == 0 else {}
    check(result.returncode == 0 and list(printed) == order,
          "fmt: keys in the schema's order", result.stdout + result.stderr)
    check(printed == json.loads(full.read_text()), "fmt: the same document")
    check(result.stdout.startswith('{\n  "id": ') and result.stdout.endswith("}\n"),
          "fmt: 2-space indent and a trailing newline", result.stdout[:80])
    result = skillnode("fmt", str(samples / "invalid-access.json"))
    check(result.returncode == 1 and result.stdout == "" and "/access: enum:" in result.stderr,
          "fmt: an invalid descriptor prints its violations, exit 1", result.stderr)

    return finish()


if __name__ == "__main__":
    sys.exit(main())
