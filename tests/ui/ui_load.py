#!/usr/bin/env python3
"""The web console under load (docs/console.md): a node with 20,000 registrations
(20 agents x 1,000, the registry's per-agent limit), then the Skills page in Debian's chromium:
the time from navigation to the first rows on screen, unfiltered and filtered, each the median
of 5 loads. Prints figures; asserts nothing about speed (tests never assert on wall-clock).
Run: SKILLNODE=build/ui/node/skillnode UI_NPM_DIR=build/ui/tests/ui/npm python3 tests/ui/ui_load.py
"""
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "node"))
sys.path.insert(0, HERE)

from skillnode_harness import Node, check, finish, require_binary  # noqa: E402
from ui_test import CHROMIUM, npm_ready  # noqa: E402

AGENTS = 20
PER_AGENT = 1000
THREADS = 4
LOADS = 5

BROWSER_SCRIPT = r"""
import {createRequire} from 'node:module';
import path from 'node:path';
const require = createRequire(path.join(process.cwd(), 'package.json'));
const {chromium} = require('playwright-core');
const [base, chromiumPath, loads] = process.argv.slice(2);
const browser = await chromium.launch({executablePath: chromiumPath, args: ['--headless',
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync']});
const out = {};
for (const [name, where] of [['all', '/ui/skills'], ['capability', '/ui/skills?capability=load-cap-7'],
                             ['text', '/ui/skills?q=needle']]) {
  const times = [];
  for (let i = 0; i < Number(loads); ++i) {
    const context = await browser.newContext({viewport: {width: 1280, height: 900}});
    const page = await context.newPage();
    await page.goto(base + where, {waitUntil: 'commit'});
    await page.waitForSelector('table.skills tbody tr', {timeout: 60000});
    times.push(await page.evaluate(() => performance.getEntriesByName('skills-results')[0].startTime));
    await context.close();
  }
  out[name] = times;
}
await browser.close();
console.log(JSON.stringify(out));
"""


def register_all(node):
    host, port = node.http_address().rsplit(":", 1)
    failures = []

    def worker(agents):
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        for agent in agents:
            for n in range(PER_AGENT):
                i = agent * PER_AGENT + n
                body = {"agentId": f"load-agent-{agent}", "skillId": f"load-skill-{i:05d}",
                        "version": f"1.{i % 10}.0", "skillType": "tool-skill",
                        "endpoint": f"http://127.0.0.1:9/{i}",
                        "capabilities": [f"load-cap-{i % 50}"], "scenes": ["load"],
                        "descriptor": {"name": f"Load {i}",
                                       "description": "needle" if i % 100 == 0 else "hay"}}
                conn.request("POST", "/api/skills", json.dumps(body),
                             {"Content-Type": "application/json"})
                answer = conn.getresponse()
                answer.read()
                if answer.status != 201:
                    failures.append(answer.status)
        conn.close()

    threads = [threading.Thread(target=worker, args=(range(t, AGENTS, THREADS),))
               for t in range(THREADS)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return failures, time.monotonic() - started


def main():
    require_binary()
    node_bin, npm_dir = npm_ready()
    config = """node:
  http: {listen: "127.0.0.1:0"}
discovery:
  healthCheck: {heartbeatInterval: 3600000, timeout: 86400000}
"""
    node = Node("ui-load", ["--port", "0"], config=config).start()
    failures, seconds = register_all(node)
    check(not failures, f"{AGENTS * PER_AGENT} registrations accepted", str(failures[:5]))
    print(f"figure: {AGENTS * PER_AGENT} registrations in {seconds:.1f} s", flush=True)
    done = subprocess.run([node_bin, "--input-type=module", "-", node.url, CHROMIUM, str(LOADS)],
                          input=BROWSER_SCRIPT, cwd=npm_dir, capture_output=True, text=True,
                          timeout=600)
    if not check(done.returncode == 0, "the browser loads the Skills page", done.stderr[-2000:]):
        finish()
    for name, times in json.loads(done.stdout).items():
        print(f"figure: Skills page ({name}) with {AGENTS * PER_AGENT} registrations: first "
              f"results {statistics.median(times):.0f} ms after navigation (median of {LOADS}; "
              f"min {min(times):.0f}, max {max(times):.0f})", flush=True)
    finish()


if __name__ == "__main__":
    main()
