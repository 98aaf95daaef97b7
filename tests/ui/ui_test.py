#!/usr/bin/env python3
"""[uv] The web console at /ui/ (docs/console.md) on two real skillnode processes.

HTTP checks first: /ui redirects to /ui/; index.html and every asset it loads (followed through
the modules' imports) carry the Content-Security-Policy, nosniff and no-referrer; assets are
named by the SHA-256 of their bytes and cached immutable, index.html is no-cache; gzip when
Accept-Encoding allows it, the plain bytes otherwise, 304 on If-None-Match; unknown pages and
assets are 404; the first load's transferred bytes (printed) stay within 150 KB; a node with
node.ui.enabled: false has no /ui/. Then ui_browser.mjs drives Debian's chromium through
Playwright-core over the five pages (search and filters, a skill's SKILL.md byte for byte, an
imported skill's origin (ui_imports.py), a curl registration on Live within 2 s, sign-in and
sign-out, hostile skills, axe-core, keyboard, 360 px and 1280 px, screenshots); last, the
node must have received no CSP report.
Run: SKILLNODE=build/ui/node/skillnode UI_NPM_DIR=/tmp/ui-npm python3 tests/ui/ui_test.py
Screenshots go to UI_SCREENSHOT_DIR (default: the npm directory); with UI_DOCS_SCREENSHOTS=1
they also replace docs/ui/*.png (make ui-screenshots).
"""
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "node"))

import ui_fixtures as fx  # noqa: E402
import ui_imports  # noqa: E402
from skillnode_harness import (Node, check, finish, npm_install, require_binary, run,  # noqa: E402
                               skip, temp_dir, wait_for)

NPM_FILES = ["package.json", "package-lock.json"]
FIRST_LOAD_BYTES_MAX = 150 * 1024
CHROMIUM = "/usr/bin/chromium"
CSP_REQUIRED = ["default-src 'self'", "script-src 'self'", "object-src 'none'",
                "base-uri 'none'", "frame-ancestors 'none'", "img-src 'self' data:"]


def npm_ready():
    """Debian's chromium, and the pinned Playwright-core and axe-core installed into
    $UI_NPM_DIR; returns (node, that directory)."""
    if not os.access(CHROMIUM, os.X_OK):
        skip(f"{CHROMIUM} is needed (Debian's chromium; .ci/install-deps installs it)")
    work = os.path.abspath(os.environ.get("UI_NPM_DIR") or temp_dir("skillnode-ui-npm-"))
    return npm_install(HERE, work, NPM_FILES, "the pinned Playwright-core and axe-core"), work


def fetch(url, headers=None, method="GET"):
    """(status, headers with lower-case names, raw body bytes); redirects are not followed."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args):
            return None
    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with opener.open(request, timeout=10) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def security_headers_ok(headers):
    csp = headers.get("content-security-policy", "")
    return (all(part in csp for part in CSP_REQUIRED) and "unsafe-inline" not in csp and
            "unsafe-eval" not in csp and headers.get("x-content-type-options") == "nosniff" and
            headers.get("referrer-policy") == "no-referrer")


def header_bytes(headers):
    return sum(len(k) + len(v) + 4 for k, v in headers.items()) + 17


def check_serving(node):
    base = node.url
    status, headers, _ = fetch(base + "/ui")
    check(status == 308 and headers.get("location") == "/ui/", "/ui redirects to /ui/",
          f"{status} {headers.get('location')}")
    status, headers, body = fetch(base + "/ui/", {"Accept-Encoding": "gzip, deflate, br"})
    check(status == 200 and headers.get("content-encoding") == "gzip",
          "/ui/ is answered gzip-compressed when Accept-Encoding allows it", f"{status} {headers}")
    index = gzip.decompress(body)
    total = len(body) + header_bytes(headers)
    check(security_headers_ok(headers), "index.html carries the CSP, nosniff and no-referrer",
          str(headers))
    check(headers.get("cache-control") == "no-cache" and headers.get("etag"),
          "index.html is no-cache with an ETag", str(headers))
    status, plain_headers, plain = fetch(base + "/ui/", {"Accept-Encoding": "identity"})
    check(status == 200 and plain == index and "content-encoding" not in plain_headers,
          "without gzip in Accept-Encoding the plain bytes are sent", str(plain_headers))
    status, q0_headers, _ = fetch(base + "/ui/", {"Accept-Encoding": "gzip;q=0"})
    check("content-encoding" not in q0_headers, "gzip;q=0 gets the plain bytes", str(q0_headers))
    status, not_modified, body304 = fetch(base + "/ui/", {"If-None-Match": headers["etag"]})
    check(status == 304 and not body304 and security_headers_ok(not_modified),
          "If-None-Match with the ETag answers 304 with no body", str(status))
    for page in ["/ui/skills?capability=x", "/ui/skill/some-id", "/ui/live", "/ui/node",
                 "/ui/signin"]:
        status, _, body = fetch(base + page, {"Accept-Encoding": "identity"})
        check(status == 200 and body == index, f"{page} is the console's index.html", str(status))
    for bad in ["/ui/nope", "/ui/assets/nope.js", "/ui/assets/index.html"]:
        status, bad_headers, _ = fetch(base + bad)
        check(status == 404 and security_headers_ok(bad_headers), f"{bad} is 404", str(status))

    # Every asset the first load fetches: index.html's and, through imports, the modules'.
    pending = re.findall(r'(?:src|href)="(/ui/assets/[^"]+)"', index.decode())
    seen = set()
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        status, asset_headers, packed = fetch(base + path, {"Accept-Encoding": "gzip"})
        data = gzip.decompress(packed) if asset_headers.get("content-encoding") == "gzip" else packed
        name = path.rsplit("/", 1)[1]
        digest = hashlib.sha256(data).hexdigest()
        ok = (status == 200 and name.split(".")[-2] == digest[:16] and
              asset_headers.get("cache-control") == "public, max-age=31536000, immutable" and
              security_headers_ok(asset_headers) and
              asset_headers.get("content-encoding") == "gzip")
        check(ok, f"{name}: named by its SHA-256, immutable, gzip, with the security headers",
              f"{status} {asset_headers}")
        total += len(packed) + header_bytes(asset_headers)
        if name.endswith(".js"):
            for imported in re.findall(r"""from\s*['"]\./([^'"]+)['"]""", data.decode()):
                pending.append("/ui/assets/" + imported)
    print(f"figure: first load of /ui/ transfers {total} bytes ({total / 1024:.1f} KiB) in "
          f"{len(seen) + 1} responses", flush=True)
    check(total <= FIRST_LOAD_BYTES_MAX, f"the first load transfers at most {FIRST_LOAD_BYTES_MAX} bytes",
          str(total))
    return total


def check_disabled():
    node = Node("ui-off", ["--port", "0"],
                config='node:\n  http: {listen: "127.0.0.1:0"}\n  ui: {enabled: false}\n').start()
    status, _, _ = fetch(node.url + "/ui/")
    check(status == 404, "node.ui.enabled: false leaves /ui/ out", str(status))
    node.stop()


def register(node, token_config):
    for i in range(fx.PUBLIC_COUNT):
        status, answer = node.call("POST", "/api/skills", fx.public_skill(i))
        if not check(status == 201, f"public skill {i} registers", f"{status} {answer}"):
            finish()
    for body in (fx.private_skill(), fx.hostile_skill()):
        status, answer = node.call("POST", "/api/skills", body)
        check(status == 201, f"{body['skillId']} registers", f"{status} {answer}")
    for status in ("DEGRADED", "HEALTHY"):  # two transitions for the health history
        done, answer = node.call("POST", "/api/skills/ui-skill-000/heartbeat",
                                 {"agentId": "ui-agent-0", "status": status})
        check(done == 200, f"ui-skill-000 reports {status}", f"{done} {answer}")
    status, answer = node.get_json("/api/skills/ui-skill-000/health-history")
    check(status == 400, "the health history wants agentId", str(status))
    status, answer = node.get_json(f"/api/skills/{fx.PRIVATE_ID}/health-history?agentId=ui-agent-private")
    check(status == 404, "a private skill has no health history to show", str(status))
    folders = temp_dir("skillnode-ui-folders-")
    fixtures = os.path.join(ROOT, "tests", "fixtures", "skills")
    for folder in [os.path.join(fixtures, "bom-utf8"), os.path.join(fixtures, "crlf-endings"),
                   os.path.join(fixtures, "cjk-emoji"), fx.write_hostile_folder(folders)]:
        done = run(["register", "--http", node.http_address(), "--skill-dir", folder,
                    "--agent", "ui-agent-md", "--skill-version", "1.0.0", "--type",
                    "tool-skill", "--endpoint", "http://127.0.0.1:9/md", "-C", "ui-skillmd"],
                   timeout=30)
        check(done.returncode == 0, f"{os.path.basename(folder)} registers from its folder",
              done.stderr + done.stdout)
    added = run(["token", "add", "ui", "--config", token_config])
    check(added.returncode == 0, "skillnode token add makes a token", added.stderr)
    return added.stdout.strip(), folders


def finds(node, words, skill_id):
    """Whether the node's word search for `words` answers the skill `skill_id`."""
    query = urllib.parse.urlencode({"q": words, "fresh": "true"})
    status, answer = node.get_json(f"/api/skills?{query}")
    return status == 200 and any(s.get("id") == skill_id for s in answer.get("skills", []))


def main():
    require_binary()
    node_bin, npm_dir = npm_ready()
    tokens = os.path.join(temp_dir("skillnode-ui-tokens-"), "tokens")
    config = f"""node:
  http: {{listen: "127.0.0.1:0"}}
  auth: {{tokensFile: "{tokens}"}}
discovery:
  healthCheck: {{heartbeatInterval: 60000, timeout: 600000}}
""" + ui_imports.CONFIG
    node = Node("ui", ["--port", "0"], config=config).start()
    peer = Node("ui-peer", ["--port", "0", "--bootstrap", f"127.0.0.1:{node.udp_port()}",
                            "--http", "127.0.0.1:0"]).start()
    check(wait_for(lambda: node.contacts() >= 1 and peer.contacts() >= 1, 30, 0.1),
          "the node and its peer know each other")
    check_serving(node)
    check_disabled()
    token, folders = register(node, node.config_path)
    # The word search's skill lives on the peer: the node's search box finds it over the network.
    status, answer = peer.call("POST", "/api/skills", fx.word_skill())
    check(status == 201, "the word search's skill registers with the peer", f"{status} {answer}")
    check(wait_for(lambda: finds(node, fx.WORD_QUERY, fx.WORD_SKILL_ID), 20, 0.2),
          "the node finds the peer's skill by words of its description")
    imports = ui_imports.import_skills(node, check)
    shots = os.environ.get("UI_SCREENSHOT_DIR") or os.path.join(npm_dir, "screenshots")
    os.makedirs(shots, exist_ok=True)
    spec = {"base": node.url, "token": token, "chromium": CHROMIUM, "flag": fx.FLAG,
            "screenshots": shots, "publicCount": fx.PUBLIC_COUNT,
            "capabilities": fx.CAPABILITIES, "privateId": fx.PRIVATE_ID,
            "privateCapability": fx.PRIVATE_CAPABILITY, "liveCapability": fx.LIVE_CAPABILITY,
            "liveSkill": fx.live_skill(), "hostileCapability": fx.HOSTILE_CAPABILITY,
            "hostileName": fx.HOSTILE_NAME, "hostileDescription": fx.HOSTILE_DESCRIPTION,
            "fixtures": {name: os.path.join(ROOT, "tests", "fixtures", "skills", name, "SKILL.md")
                         for name in ["bom-utf8", "crlf-endings", "cjk-emoji"]},
            "hostileMd": os.path.join(folders, "ui-hostile-md", "SKILL.md"), "imports": imports,
            "wordSkillId": fx.WORD_SKILL_ID, "wordQuery": fx.WORD_QUERY,
            "wordQueryNone": fx.WORD_QUERY_NONE}
    env = dict(os.environ, NODE_PATH=os.path.join(npm_dir, "node_modules"),
               UI_SPEC=json.dumps(spec))
    browser = subprocess.run([node_bin, os.path.join(HERE, "ui_browser.mjs")], env=env,
                             cwd=npm_dir, timeout=240, text=True, capture_output=True)
    sys.stdout.write(browser.stdout)
    check(browser.returncode == 0, "the browser checks pass", browser.stderr[-3000:])
    status, info = node.get_json("/api/node")
    reports = (info or {}).get("ui", {}).get("cspReports")
    check(reports == 0, "the node received no Content-Security-Policy report",
          json.dumps((info or {}).get("ui")))
    if os.environ.get("UI_DOCS_SCREENSHOTS") == "1":
        docs = os.path.join(ROOT, "docs", "ui")
        os.makedirs(docs, exist_ok=True)
        for name in sorted(os.listdir(shots)):
            if name.endswith(".png"):
                shutil.copyfile(os.path.join(shots, name), os.path.join(docs, name))
        print(f"screenshots copied to {docs}", flush=True)
    # The report endpoint itself counts what it gets.
    status, _, _ = fetch(node.url + "/ui/csp-report", {"Content-Type": "application/csp-report"},
                         method="POST")
    status, info = node.get_json("/api/node")
    check(info["ui"]["cspReports"] == 1, "a POST to /ui/csp-report is counted", json.dumps(info["ui"]))
    # The old snake_case names are still sent for this release (docs/daemon.md).
    ui = info["ui"]
    check(ui["csp_reports"] == 1 and ui["last_csp_report"] == ui["lastCspReport"],
          "the old names csp_reports and last_csp_report are still sent", json.dumps(ui))
    finish()


if __name__ == "__main__":
    main()
