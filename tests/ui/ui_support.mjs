// What the browser checks share: the spec ui_test.py passes (UI_SPEC), check lines, the
// watch on every page for what must never happen, axe-core, and launching Debian's chromium.
import {createRequire} from 'node:module';
import path from 'node:path';
import fs from 'node:fs';

const require = createRequire(path.join(process.cwd(), 'package.json'));
const {chromium} = require('playwright-core');
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const spec = JSON.parse(process.env.UI_SPEC);

let failures = 0;
export const failureCount = () => failures;
export function check(condition, what, detail = '') {
  if (condition) {
    console.log(`ok - ${what}`);
  } else {
    failures += 1;
    console.log(`FAIL - ${what}${detail ? `: ${detail}` : ''}`);
  }
  return condition;
}

// Watches a page for what must never happen: script errors, requests to the CSP report
// endpoint, requests that carry the token in their URL, and any request off the node.
export function watch(page, log) {
  page.on('pageerror', (e) => log.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') log.console.push(m.text()); });
  page.on('request', (r) => {
    const url = r.url();
    if (url.includes('/ui/csp-report')) log.cspReports.push(r.postData() || '');
    if (spec.token && url.includes(spec.token)) log.tokenInUrl.push(url);
    if (!url.startsWith(spec.base) && !url.startsWith('data:')) log.offNode.push(url);
  });
}

export async function axeCheck(page, name) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, {resultTypes: ['violations']});
    return r.violations.map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.length,
                                     target: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}));
  });
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  check(bad.length === 0, `axe-core finds no serious or critical violation on ${name}`,
        JSON.stringify(bad));
}

export async function launch() {
  return chromium.launch({
    executablePath: spec.chromium,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

