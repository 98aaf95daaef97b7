"""What the independent schema checks share (descriptor_schema_test.py, mcp_server_schema_test.py):
the check log and its verdict, and loading a schema that Python's jsonschema must accept as
Draft 7."""
import importlib.metadata
import json

import jsonschema
from jsonschema import Draft7Validator

FAILURES = []


def check(condition, what, detail=""):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        FAILURES.append(what)
        if detail:
            print("     " + detail.replace("\n", "\n     "))


def load_draft7_schema(path, what):
    """The schema at `path` (a pathlib.Path), checked to be a Draft 7 schema; `what` names it."""
    schema = json.loads(path.read_text(encoding="utf-8"))
    try:
        Draft7Validator.check_schema(schema)
        check(True, f"jsonschema {importlib.metadata.version('jsonschema')}: {what} is a Draft 7 "
              "schema")
    except jsonschema.SchemaError as error:
        check(False, f"{what} is a Draft 7 schema", str(error))
    return schema


def finish():
    print(f"{len(FAILURES)} failed" if FAILURES else "all checks passed")
    return 1 if FAILURES else 0
