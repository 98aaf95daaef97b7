#!/usr/bin/env python3
"""Generates the man pages and the bash completion from the programs' own command lines.

`skillnode --help-json` and `skillsim --help-json` describe every subcommand and flag from the
same CLI11 definitions that --help prints (node/cli/cli_describe.h), so the pages and the
completion cannot drift from --help. skillnode.yaml(5) comes from the configuration block of
docs/configuration.md, which tests/node/config/readme_config_test.cpp checks against the defaults key
for key.

Usage: man_pages.py SKILLNODE SKILLSIM docs/configuration.md OUTDIR
Writes skillnode.1, skillsim.1, skillnode.yaml.5 and the bash completions skillnode and skillsim.
"""
import json
import os
import re
import subprocess
import sys

# The configuration block of docs/configuration.md, found as the installed default
# configuration finds it.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "node",
                                "service"))
from default_config import reference_block  # noqa: E402

VERSION_RE = re.compile(r"(\d+\.\d+\.\d+)")
# Value names completed as paths.
FILE_VALUES = {"FILE", "PATH"}
DIR_VALUES = {"DIR"}


def describe(binary):
    out = subprocess.run([binary, "--help-json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def version_of(binary):
    out = subprocess.run([binary, "--version"], capture_output=True, text=True)
    found = VERSION_RE.search(out.stdout)
    return found.group(1) if found else "0.1.0"


def esc(text):
    """Text for troff: backslashes escaped, hyphens kept literal, no line starting a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def option_synopsis(option):
    names = ", ".join(f"\\fB{esc(n)}\\fR" for n in option["names"])
    if option["value"]:
        names += f" \\fI{esc(option['value'])}\\fR"
        if option["repeatable"]:
            names += " ..."
    return names


def commands(node, path=()):
    """(path, node) for every subcommand, depth first, skipping the root."""
    for sub in node["subcommands"]:
        sub_path = path + (sub["name"],)
        yield sub_path, sub
        yield from commands(sub, sub_path)


def visible_options(node):
    return [o for o in node["options"] if o["names"] != ["-h", "--help"]]


def options_section(lines, node):
    for option in visible_options(node):
        lines.append(".TP")
        lines.append(option_synopsis(option))
        text = option["description"]
        if option["values"]:
            text += " (one of: " + ", ".join(option["values"]) + ")"
        if option["required"]:
            text += ("" if text.endswith(".") else ".") + " Required."
        lines.append(esc(text))
    for positional in node["positionals"]:
        lines.append(".TP")
        lines.append(f"\\fI{esc(positional['value'] or positional['name'])}\\fR")
        lines.append(esc(positional["description"]))


def header(lines, name, section, version, title):
    lines.append(f'.TH {name.upper()} {section} "" "{name.split(".")[0]} {version}" "{title}"')


def skillnode_page(cli, version):
    lines = []
    header(lines, "skillnode", 1, version, "User Commands")
    lines += [".SH NAME", "skillnode \\- a node of the decentralised skill registry (Kademlia DHT)",
              ".SH SYNOPSIS", ".B skillnode", ".I subcommand", "[\\fIoptions\\fR]", ".br",
              ".B skillnode run", "[\\fB\\-\\-config\\fR \\fIFILE\\fR] [\\fIoptions\\fR]",
              ".SH DESCRIPTION", esc(cli["description"]),
              ".PP",
              esc("Every host runs one node. Together the nodes form a Kademlia DHT that holds "
                  "the network's skill registry: services, tools and agent capabilities, each "
                  "with capabilities, scenes, an endpoint and a health state. `skillnode run` "
                  "is the node; the other subcommands are clients of a running node's HTTP API "
                  "(default 127.0.0.1:7070), or work on local files."),
              ".SH SUBCOMMANDS"]
    for path, node in commands(cli):
        if node["subcommands"] and not visible_options(node) and not node["positionals"]:
            lines += [f'.SS "skillnode {esc(" ".join(path))}"', esc(node["description"])]
            continue
        usage = "skillnode " + " ".join(path)
        usage += "".join(f" {p['value'] or p['name']}" for p in node["positionals"])
        lines += [f'.SS "{esc(usage)} [OPTIONS]"', esc(node["description"])]
        options_section(lines, node)
    top = [o for o in visible_options(cli)]
    if top:
        lines.append(".SH OPTIONS")
        options_section(lines, {"options": top, "positionals": []})
    lines += [".SH SIGNALS", ".TP", "\\fBSIGTERM\\fR, \\fBSIGINT\\fR",
              esc("Stop: unpublish the skills registered with this node, save the routing "
                  "table, close every handle and exit 0. A second signal exits at once."),
              ".TP", "\\fBSIGHUP\\fR",
              esc("Reload the configuration file: the log level, the token file, the bootstrap "
                  "peers, the SkillCenter settings and the LAN security keys are taken at once; "
                  "other changed sections are logged as needing a restart. A file with an error "
                  "is refused whole and the running configuration stays."),
              ".SH FILES", ".TP", "\\fI/etc/skillnode/skillnode.yaml\\fR",
              esc("The configuration of the installed service (skillnode.yaml(5))."),
              ".TP", "\\fI/var/lib/skillnode\\fR",
              esc("The service's data directory: identity (the node's Ed25519 key, mode 0600), "
                  "contacts (the saved routing table), tokens (hashes of the HTTP API's bearer "
                  "tokens) and blobs (SKILL.md files)."),
              ".TP", "\\fI~/.local/share/skillnode\\fR",
              esc("The data directory of a node started by hand without --data-dir "
                  "($XDG_DATA_HOME/skillnode when that is set)."),
              ".SH ENVIRONMENT", ".TP", "\\fBNOTIFY_SOCKET\\fR, \\fBWATCHDOG_USEC\\fR",
              esc("Set by systemd for a Type=notify service: the node sends READY=1 once its "
                  "sockets are bound, STATUS= lines, STOPPING=1, and watchdog pings."),
              ".TP", "\\fBJOURNAL_STREAM\\fR",
              esc("When standard error is the journal, each log line carries its priority."),
              ".SH EXIT STATUS", esc(cli["footer"].splitlines()[0]),
              ".SH SEE ALSO", "\\fBskillnode.yaml\\fR(5), \\fBskillsim\\fR(1), "
              "\\fBsystemctl\\fR(1), \\fBjournalctl\\fR(1)"]
    return "\n".join(lines) + "\n"


def skillsim_page(cli, version):
    lines = []
    header(lines, "skillsim", 1, version, "User Commands")
    lines += [".SH NAME", "skillsim \\- simulate thousands of skillnode Kademlia nodes in one process",
              ".SH SYNOPSIS", ".B skillsim", "\\fB\\-\\-scenario\\fR \\fIFILE\\fR [\\fIoptions\\fR]",
              ".SH DESCRIPTION", esc(cli["description"]), ".PP",
              esc("It runs the node's own Kademlia code on a virtual clock, with latency, loss, "
                  "churn and adversaries taken from the scenario file, and writes summary.json, "
                  "lookups.csv and plots. The same scenario and seed give the same trace_hash."),
              ".SH OPTIONS"]
    options_section(lines, cli)
    lines += [".SH EXIT STATUS", esc(cli["footer"]),
              ".SH SEE ALSO", "\\fBskillnode\\fR(1); docs/simulation.md in the source tree"]
    return "\n".join(lines) + "\n"


KEY_RE = re.compile(r"^(\s*)([A-Za-z][A-Za-z0-9]*):\s*([^#]*?)\s*(?:#\s?(.*))?$")
COMMENT_RE = re.compile(r"^\s*#\s?(.*)$")
MS_KEY_RE = re.compile(r"(Interval|Timeout|timeout|ttl|Window|Expiry|After|Wait|retryInitial|"
                       r"retryMax|backoffInitial|backoffMax|rpcTimeoutMin)$")


def config_keys(config_text):
    """[(path, default, description)] from the configuration block of docs/configuration.md
    (`config_text`), in order."""
    keys, stack = [], []
    for line in reference_block(config_text):
        found = KEY_RE.match(line)
        if not found:
            comment = COMMENT_RE.match(line)
            if comment and keys:
                keys[-1][2].append(comment.group(1))
            continue
        indent = len(found.group(1))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, found.group(2)))
        path = ".".join(name for _, name in stack)
        keys.append([path, found.group(3), [found.group(4)] if found.group(4) else []])
    return [(path, default, " ".join(text)) for path, default, text in keys]


def unit_of(path, default):
    name = path.rsplit(".", 1)[-1]
    if MS_KEY_RE.search(name) and re.fullmatch(r"\d+", default or ""):
        return "milliseconds"
    if name.endswith("Bytes") or name in ("maxStoreBytes", "cacheBytes"):
        return "bytes"
    return ""


def config_page(config_text, version):
    lines = []
    header(lines, "skillnode.yaml", 5, version, "File Formats")
    lines += [".SH NAME", "skillnode.yaml \\- configuration of a skillnode node",
              ".SH SYNOPSIS", "\\fI/etc/skillnode/skillnode.yaml\\fR, or any file given to "
              "\\fBskillnode run \\-\\-config\\fR",
              ".SH DESCRIPTION",
              esc("A YAML file in the shape of the seed's configuration reference plus a node: "
                  "section. Every key is optional; a missing key keeps its default, listed "
                  "below. Durations are milliseconds and sizes are bytes. Unknown keys, values "
                  "of the wrong type and values out of range are refused at start, every "
                  "problem at once, each with the key's path, the reason and the line; "
                  "`skillnode run --check-config FILE` runs the same checks. Command-line "
                  "flags override the file. SIGHUP reloads the keys marked below as reloaded "
                  "at once."),
              ".SH KEYS"]
    reloadable = ("node.log.level", "node.auth.tokensFile", "discovery.dht.bootstrapNodes",
                  "discovery.skillCenter.", "security.")
    not_reloadable = ("discovery.skillCenter.enabled", "security.identityCertificate",
                      "security.requireCertifiedPublishers")
    section = None
    for path, default, text in config_keys(config_text):
        top = path.split(".")[0]
        if top != section:
            section = top
            lines.append(f".SS {esc(section)}")
        if default == "" and not text:
            continue  # a map heading with no comment of its own
        lines += [".TP", f"\\fB{esc(path)}\\fR"]
        parts = []
        if default != "":
            unit = unit_of(path, default)
            parts.append(f"Default: {default}" + (f" {unit}" if unit else "") + ".")
        if text:
            parts.append(text + ("" if text.endswith(".") else "."))
        if path.startswith(reloadable) and not path.startswith(not_reloadable):
            parts.append("Reloaded on SIGHUP.")
        lines.append(esc(" ".join(parts)) if parts else esc("A section."))
    lines += [".SH EXAMPLE", ".nf",
              esc("node:"), esc("  port: 6881"), esc("  http:"), esc('    listen: "127.0.0.1:7070"'),
              esc("discovery:"), esc("  dht:"), esc("    bootstrapNodes: [\"seed.example.net:6881\"]"),
              ".fi", ".SH SEE ALSO", "\\fBskillnode\\fR(1)"]
    return "\n".join(lines) + "\n"


def completion(cli, program):
    """A bash completion function driven by tables of subcommands, options and their values,
    keyed by the subcommand path: "_" for the program, "_ token add" for a subcommand."""
    subs, opts, values, positionals = {}, {}, {}, {}
    for path, node in [((), cli)] + list(commands(cli)):
        key = " ".join(("_",) + path)
        subs[key] = [s["name"] for s in node["subcommands"]]
        opts[key] = [n for o in node["options"] for n in o["names"]]
        positionals[key] = "1" if node["positionals"] else ""
        for option in node["options"]:
            if option["value"]:
                for n in option["names"]:
                    values[f"{key} {n}"] = value_kind(option)
    fn = "_" + program.replace("-", "_")

    def table(name, entries):
        body = " ".join(f'["{k}"]="{" ".join(v) if isinstance(v, list) else v}"'
                        for k, v in entries.items())
        return f"    local -A {name}=({body})"

    return f"""# bash completion for {program}, generated from `{program} --help-json`
# (docs/man_pages.py): every subcommand, flag and choice that --help lists.
{fn}() {{
{table("subs", subs)}
{table("opts", opts)}
{table("values", values)}
{table("positionals", positionals)}
    local cur=${{COMP_WORDS[COMP_CWORD]}} path="_" i word kind
    # The subcommand path: the words before the cursor that name subcommands in turn.
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${{COMP_WORDS[i]}}
        if [[ " ${{subs[$path]}} " == *" $word "* ]]; then
            path="$path $word"
        fi
    done
    if ((COMP_CWORD > 1)); then
        kind=${{values["$path ${{COMP_WORDS[COMP_CWORD-1]}}"]}}
        case "$kind" in
            @file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
            @dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
            @any) COMPREPLY=(); return ;;
            "") ;;
            *) COMPREPLY=($(compgen -W "$kind" -- "$cur")); return ;;
        esac
    fi
    if [[ $cur == -* || ( -z ${{subs[$path]}} && -z ${{positionals[$path]}} ) ]]; then
        COMPREPLY=($(compgen -W "${{opts[$path]}}" -- "$cur"))
    elif [[ -n ${{subs[$path]}} ]]; then
        COMPREPLY=($(compgen -W "${{subs[$path]}}" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}}
complete -F {fn} {program}
"""


def value_kind(option):
    if option["values"]:
        return option["values"]
    if option["value"] in DIR_VALUES:
        return "@dir"
    if option["value"] in FILE_VALUES:
        return "@file"
    return "@any"


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: man_pages.py SKILLNODE SKILLSIM docs/configuration.md OUTDIR")
    skillnode, skillsim, config_doc, out = sys.argv[1:]
    node_cli, sim_cli = describe(skillnode), describe(skillsim)
    version = version_of(skillnode)
    with open(config_doc, encoding="utf-8") as f:
        config_text = f.read()
    pages = {
        "skillnode.1": skillnode_page(node_cli, version),
        "skillsim.1": skillsim_page(sim_cli, version),
        "skillnode.yaml.5": config_page(config_text, version),
        "skillnode": completion(node_cli, "skillnode"),
        "skillsim": completion(sim_cli, "skillsim"),
    }
    for name, text in pages.items():
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
