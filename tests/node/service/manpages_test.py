#!/usr/bin/env python3
"""The man pages and the bash completion that `meson install` installs, against the programs.

- every subcommand and flag that `--help` prints is in `--help-json` (the generator's input),
  and so in skillnode(1) or skillsim(1) and in the completion;
- every key of the configuration reference in docs/configuration.md is in skillnode.yaml(5),
  with its default;
- groff renders the three pages without a warning;
- bash, with the completion loaded, offers the subcommands, each subcommand's flags, and the
  choices of a flag such as --log-level.
Run: SKILLNODE=... SKILLSIM=... SKILLNODE_DOCS=build/.../docs python3 tests/node/service/manpages_test.py
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from skillnode_harness import BINARY, check, finish, require_binary  # noqa: E402

SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
# A flag or option name at the start of a --help line: "  -c,--config FILE   ...".
HELP_NAMES = re.compile(r"^\s{2}(-[^\s]+)")


def describe(binary):
    return json.loads(subprocess.run([binary, "--help-json"], capture_output=True, text=True,
                                     check=True).stdout)


def commands(node, path=()):
    yield path, node
    for sub in node["subcommands"]:
        yield from commands(sub, path + (sub["name"],))


def help_names(binary, path):
    """Option names --help prints for the subcommand `path`."""
    text = subprocess.run([binary, *path, "--help"], capture_output=True, text=True).stdout
    names = set()
    in_options = False
    for line in text.splitlines():
        if line.startswith("Options:"):
            in_options = True
            continue
        if in_options and line and not line.startswith(" "):
            in_options = False
        found = HELP_NAMES.match(line) if in_options else None
        if found:
            names.update(n for n in found.group(1).split(",") if n.startswith("-"))
    return names


def troff(name):
    return name.replace("-", "\\-")


def page_checks(program, binary, page_path):
    cli = describe(binary)
    with open(page_path) as f:
        page = f.read()
    mismatched, missing = [], []
    for path, node in commands(cli):
        json_names = {n for o in node["options"] for n in o["names"]}
        if help_names(binary, path) != json_names:
            mismatched.append(" ".join(path) or program)
        if path and troff(" ".join(path)) not in page:
            missing.append(" ".join(path))
        for name in json_names - {"-h", "--help"}:
            if f"\\fB{troff(name)}\\fR" not in page:
                missing.append(f"{' '.join(path)} {name}")
    check(not mismatched, f"{program}: --help-json lists exactly the flags --help prints",
          f"differ for: {mismatched}")
    check(not missing, f"{program}({page_path[-1]}) documents every subcommand and flag",
          f"missing: {missing[:8]}")
    return cli


def config_page_checks(page_path):
    sys.path.insert(0, os.path.join(SOURCE_ROOT, "docs"))
    import man_pages  # noqa: E402
    with open(os.path.join(SOURCE_ROOT, "docs", "configuration.md")) as f:
        keys = man_pages.config_keys(f.read())
    with open(page_path) as f:
        page = f.read()
    leaves = [(path, default) for path, default, _ in keys if default != ""]
    missing = [path for path, default in leaves
               if f"\\fB{troff(path)}\\fR" not in page or
               f"Default: {troff(default)}" not in page]
    check(len(leaves) > 80 and not missing,
          f"skillnode.yaml(5) lists all {len(leaves)} keys of docs/configuration.md with defaults",
          f"missing: {missing[:8]}")
    check("Default: 30000 milliseconds" in page and "Default: 1048576 bytes" in page,
          "durations and sizes carry their unit")


def groff_checks(pages):
    if shutil.which("groff") is None:
        check(False, "groff is installed (Debian's groff-base, from .ci/install-deps)")
        return
    for page in pages:
        result = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", page],
                                capture_output=True, text=True)
        check(result.returncode == 0 and not result.stderr.strip(),
              f"groff renders {os.path.basename(page)} without a warning", result.stderr[:500])


def complete(script, program, words):
    """The completion bash offers for the command line `words` (the last one is completed)."""
    line = " ".join(f"'{w}'" for w in words)
    code = (f"source '{script}'; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; "
            f"_{program}; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    out = subprocess.run(["bash", "-c", code], capture_output=True, text=True)
    return set(out.stdout.split()), out.stderr


def completion_checks(script, program, cli):
    offered, errors = complete(script, program, [program, ""])
    subs = {s["name"] for s in cli["subcommands"]}
    expected = subs or {n for o in cli["options"] for n in o["names"]}
    check(offered == expected and not errors,
          f"{program} <TAB> offers every " + ("subcommand" if subs else "flag"),
          f"{sorted(offered)} {errors}")
    missing = []
    for path, node in commands(cli):
        if not path:
            continue
        offered, _ = complete(script, program, [program, *path, "-"])
        names = {n for o in node["options"] for n in o["names"]}
        if offered != names:
            missing.append(f"{' '.join(path)}: {sorted(names ^ offered)}")
        if node["subcommands"]:
            offered, _ = complete(script, program, [program, *path, ""])
            if offered != {s["name"] for s in node["subcommands"]}:
                missing.append(f"{' '.join(path)} <TAB>")
    check(not missing, f"{program} SUBCOMMAND -<TAB> offers exactly that subcommand's flags",
          f"{missing[:5]}")


def main():
    require_binary()
    skillsim = os.environ.get("SKILLSIM", "")
    docs = os.environ.get("SKILLNODE_DOCS", "")
    page = lambda name: os.path.join(docs, name)  # noqa: E731
    if not os.access(skillsim, os.X_OK) or not os.path.isfile(page("skillnode.1")):
        print(f"SKILLSIM and SKILLNODE_DOCS must name the build's files ({skillsim!r}, {docs!r})")
        sys.exit(1)
    node_cli = page_checks("skillnode", BINARY, page("skillnode.1"))
    sim_cli = page_checks("skillsim", skillsim, page("skillsim.1"))
    config_page_checks(page("skillnode.yaml.5"))
    groff_checks([page("skillnode.1"), page("skillsim.1"), page("skillnode.yaml.5")])
    completion_checks(page("skillnode"), "skillnode", node_cli)
    completion_checks(page("skillsim"), "skillsim", sim_cli)
    offered, _ = complete(page("skillnode"), "skillnode", ["skillnode", "run", "--log-level", ""])
    check(offered == {"trace", "debug", "info", "warn", "error"},
          "skillnode run --log-level <TAB> offers the levels", f"{sorted(offered)}")
    offered, _ = complete(page("skillnode"), "skillnode", ["skillnode", "run", "--data-dir", "/"])
    check(offered and all(o.startswith("/") for o in offered),
          "skillnode run --data-dir <TAB> offers directories", f"{sorted(offered)[:5]}")
    offered, _ = complete(page("skillnode"), "skillnode", ["skillnode", "token", "add", "--c"])
    check(offered == {"--config"}, "skillnode token add --c<TAB> completes to --config",
          f"{sorted(offered)}")
    finish()


if __name__ == "__main__":
    main()
