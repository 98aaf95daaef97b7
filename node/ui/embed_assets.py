#!/usr/bin/env python3
"""Compiles the web console's assets into C++ (node/ui/ui_assets.h): run by meson at build time.

  embed_assets.py OUT.cpp --vendor NAME=PATH ... -- ASSET ...

Every asset but index.html is served under /ui/assets/ by a name that carries its content
hash (app.css -> app.3f2a....css), so it can be cached for a year: a changed file gets a new
name. index.html and the JS modules name each other by their plain names; this script
rewrites those references (`src="main.js"`, `from './api.js'`) to the hashed names, hashing a
module only after the modules it imports, so that a change anywhere renames every module that
leads to it. Vendor files (Debian's DOMPurify and marked) are taken as they are, minus their
source-map comment. Each file is stored plain and gzip-compressed (mtime 0, so the build is
reproducible). Fails, naming the file, on an import of an unknown asset or an import cycle.
"""
import gzip
import hashlib
import os
import re
import sys

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}
# `import ... from './x.js'`, `import './x.js'` and `src="x.js"` / `href="x.css"` in index.html.
IMPORT_RE = re.compile(r"""(from\s+|import\s+)(['"])\./([A-Za-z0-9_.-]+)\2""")
HTML_REF_RE = re.compile(r"""((?:src|href)=)(")([A-Za-z0-9_.-]+\.(?:js|css|svg))\2""")
SOURCE_MAP_RE = re.compile(rb"\n?//# sourceMappingURL=\S+\s*$")
# Debian 12's node-dompurify 2.4.1+dfsg+~2.4.0-2+deb12u1 (the CVE-2024-47875 backport) added to
# DOMPurify.sanitize() a nesting check on `shadowNode`, a variable that only exists in
# _sanitizeShadowDOM: every sanitize() of HTML throws "ReferenceError: shadowNode is not
# defined". The statement is removed here (the per-node depth checks the backport added stay);
# a purify.min.js that still names shadowNode afterwards fails the build.
PURIFY_BAD_RE = re.compile(
    rb"\(shadowNode\.__depth>=\w+\|\|\w+\(shadowNode\.__depth\)\)&&\w+\(\w+\.firstChild\);")
HASH_CHARS = 16


def fail(message):
    print(f"embed_assets.py: {message}", file=sys.stderr)
    sys.exit(1)


def hashed_name(name, data):
    stem, ext = os.path.splitext(name)
    return f"{stem}.{hashlib.sha256(data).hexdigest()[:HASH_CHARS]}{ext}"


def build(options, asset_paths):
    """{source name: (served name, bytes)} with every reference rewritten."""
    sources = {}  # name -> bytes
    vendor = set()
    i = 0
    while i < len(options):
        if options[i] != "--vendor" or i + 1 >= len(options) or "=" not in options[i + 1]:
            fail(f"bad option {options[i]!r}")
        name, path = options[i + 1].split("=", 1)
        with open(path, "rb") as f:
            data = SOURCE_MAP_RE.sub(b"\n", f.read())
        if name == "purify.min.js":
            data = PURIFY_BAD_RE.sub(b"", data)
            if b"shadowNode" in data:
                fail(f"{path} uses shadowNode outside _sanitizeShadowDOM in an unknown form; "
                     "check DOMPurify.sanitize() before embedding it")
        sources[name] = data
        vendor.add(name)
        i += 2
    for path in asset_paths:
        name = os.path.basename(path)
        if name in sources:
            fail(f"two assets named {name}")
        if os.path.splitext(name)[1] not in CONTENT_TYPES:
            fail(f"{path}: no content type for this extension")
        with open(path, "rb") as f:
            sources[name] = f.read()
    if "index.html" not in sources:
        fail("index.html is missing")

    final = {}  # name -> (served name, bytes)
    visiting = set()

    def resolve(name, importer):
        if name not in sources:
            fail(f"{importer} refers to {name}, which is not an asset")
        if name in final:
            return final[name][0]
        if name in visiting:
            fail(f"import cycle through {name}")
        visiting.add(name)
        data = sources[name]
        if name not in vendor and name.endswith(".js"):
            text = data.decode("utf-8")
            text = IMPORT_RE.sub(
                lambda m: f"{m.group(1)}{m.group(2)}./{resolve(m.group(3), name)}{m.group(2)}",
                text)
            data = text.encode("utf-8")
        visiting.discard(name)
        final[name] = (hashed_name(name, data), data)
        return final[name][0]

    for name in sorted(sources):
        if name != "index.html":
            resolve(name, name)
    index = sources["index.html"].decode("utf-8")
    index = HTML_REF_RE.sub(
        lambda m: f"{m.group(1)}{m.group(2)}/ui/assets/{resolve(m.group(3), 'index.html')}"
                  f"{m.group(2)}", index)
    final["index.html"] = ("index.html", index.encode("utf-8"))
    return final


def main(argv):
    if len(argv) < 3 or "--" not in argv:
        fail("usage: embed_assets.py OUT.cpp [--vendor NAME=PATH ...] -- ASSET ...")
    out_path = argv[1]
    split = argv.index("--")
    final = build(argv[2:split], argv[split + 1:])

    lines = ["// Generated by node/ui/embed_assets.py at build time; do not edit.",
             '#include "node/ui/ui_assets.h"', "", "namespace skillnode::node::ui {",
             "namespace {"]
    entries = []
    for n, name in enumerate(sorted(final)):
        served, data = final[name]
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        etag = '"' + hashlib.sha256(data).hexdigest()[:HASH_CHARS * 2] + '"'
        for label, blob in (("plain", data), ("gzip", packed)):
            body = ",".join(str(b) for b in blob)
            lines.append(f"const unsigned char k{label}{n}[] = {{{body}}};")
        content_type = CONTENT_TYPES[os.path.splitext(name)[1]]
        entries.append(
            f'    {{"{served}", "{content_type}", R"({etag})", '
            f"std::string_view(reinterpret_cast<const char*>(kplain{n}), {len(data)}), "
            f"std::string_view(reinterpret_cast<const char*>(kgzip{n}), {len(packed)}), "
            f"{'false' if name == 'index.html' else 'true'}}},")
    lines += [f"const std::array<UiAsset, {len(entries)}> kAssets = {{{{"]
    lines += entries
    lines += ["}};", "}  // namespace", "",
              "std::span<const UiAsset> UiAssets() { return kAssets; }", "",
              "}  // namespace skillnode::node::ui", ""]
    with open(out_path, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv)
