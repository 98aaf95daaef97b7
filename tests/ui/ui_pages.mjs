// The console's pages in chromium: Skills (filters, paging, shareable URLs, keyboard), a
// skill (SKILL.md raw byte for byte and its download, try it, an imported one's origin:
// ui_origin.mjs), Live (a curl registration within 2 s, reconnecting), sign-in and sign-out,
// hostile skills; then axe-core, 360 px overflow and screenshots of every page (ui_shots.mjs).
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import {check, spec, watch} from './ui_support.mjs';
import {photographPages} from './ui_shots.mjs';
import {checkOrigins} from './ui_origin.mjs';
import {checkWordSearch} from './ui_search.mjs';

const url = (p) => spec.base + p;

export async function newPage(browser, log, {width = 1280, height = 900, scheme = 'light'} = {}) {
  const context = await browser.newContext({viewport: {width, height}, colorScheme: scheme});
  const page = await context.newPage();
  watch(page, log);
  return {context, page};
}

async function results(page) {
  await page.waitForSelector('#results[aria-busy="false"]');
  return page.$$eval('table.skills tbody tr', (trs) => trs.map((tr) => ({
    id: tr.cells[0].querySelector('.sub').textContent, name: tr.cells[0].querySelector('a').textContent,
    type: tr.cells[2].textContent, caps: tr.cells[3].textContent,
    status: tr.cells[4].textContent, source: tr.cells[5].textContent})));
}

// The public skills' ids that a filter must give (ui_fixtures.public_skill's rules).
function expected(filter) {
  const ids = [];
  for (let i = 0; i < spec.publicCount; ++i) {
    const skill = {cap: spec.capabilities[i % 3], type: ['tool-skill', 'reasoner'][i % 2],
                   major: 1 + Math.floor(i / 3) % 3, alpha: i % 4 === 0};
    if (filter(skill)) ids.push(`ui-skill-${String(i).padStart(3, '0')}`);
  }
  return ids.sort();
}

const sameIds = (rows, ids) => JSON.stringify(rows.map((r) => r.id).sort()) === JSON.stringify(ids);

async function checkSkills(browser, log) {
  const {context, page} = await newPage(browser, log);
  await page.goto(url('/ui/skills'));
  let rows = await results(page);
  const summary = await page.textContent('#results .summary');
  const total = Number(summary.split(' ')[0]);
  check(rows.length === 50 && total > 50, 'the Skills page shows the first 50 of all skills',
        `${rows.length} of ${summary}`);
  check(rows.every((r) => r.status.trim() && r.source.trim()), 'every row shows health and source');
  await page.click('nav.pager >> text=Next');
  rows = await results(page);
  check(page.url().includes('offset=50') && rows.length === total - 50,
        'Next shows the rest, paged on the node (offset=50 in the URL)', `${page.url()} ${rows.length}`);

  await page.goto(url('/ui/skills'));
  await results(page);
  await page.fill('#filter-capability', spec.capabilities[0]);
  await page.press('#filter-capability', 'Enter');
  await page.waitForURL(/capability=/);
  rows = await results(page);
  check(sameIds(rows, expected((s) => s.cap === spec.capabilities[0])),
        'the capability filter finds exactly the skills with that capability', rows.length);
  await page.fill('#filter-type', 'reasoner');
  await page.fill('#filter-version', '>=2.0.0 <3');
  await page.click('form.filters button[type=submit]');
  await page.waitForURL(/version=/);
  rows = await results(page);
  check(sameIds(rows, expected((s) => s.cap === spec.capabilities[0] && s.type === 'reasoner' && s.major === 2)),
        'capability, type and semver range filters combine', JSON.stringify(rows.map((r) => r.id)));
  const shared = '/ui/skills?capability=' + spec.capabilities[2] + '&q=alpha';
  const other = await context.newPage();
  watch(other, log);
  await other.goto(url(shared));
  rows = await results(other);
  check(sameIds(rows, expected((s) => s.cap === spec.capabilities[2] && s.alpha)) &&
        (await other.inputValue('#filter-q')) === 'alpha' &&
        (await other.inputValue('#filter-capability')) === spec.capabilities[2],
        'a shared URL gives the same filters and results (free text included)', rows.length);
  await other.selectOption('#filter-status', 'UNHEALTHY');
  await other.click('form.filters button[type=submit]');
  await other.waitForURL(/status=UNHEALTHY/);
  await results(other);
  check((await other.textContent('#results')).includes('No skill matches'),
        'the health filter leaves out healthy skills');
  await other.goto(url('/ui/skills?version=not-a-range'));
  await other.waitForSelector('#results[aria-busy="false"]');
  check((await other.textContent('#results')).includes('Search failed'),
        'a bad semver range shows the node\'s error');

  await page.goto(url('/ui/skills'));
  await results(page);
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => document.activeElement.className);
  await page.keyboard.press('Enter');
  const afterSkip = await page.evaluate(() => document.activeElement.id);
  const reached = [];
  for (let i = 0; i < 8; ++i) {
    await page.keyboard.press('Tab');
    reached.push(await page.evaluate(() => document.activeElement.textContent.trim() || document.activeElement.id));
  }
  check(first === 'skip' && afterSkip === 'main', 'Tab reaches "Skip to content" first, Enter moves to the page', `${first} ${afterSkip}`);
  await page.focus('nav a[data-page=live]');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/ui\/live/);
  check(true, 'the page links are followed from the keyboard');
  await context.close();
}

async function pageBytes(page, selector) {
  return page.evaluate(async (sel) => {
    const response = await fetch(document.querySelector(sel).href);
    return Array.from(new Uint8Array(await response.arrayBuffer()));
  }, selector);
}

async function checkSkillPages(browser, log) {
  const {context, page} = await newPage(browser, log);
  for (const [name, file] of Object.entries(spec.fixtures)) {
    await page.goto(url(`/ui/skill/${name}?agentId=ui-agent-md`));
    await page.waitForSelector('#skillmd-raw');
    const raw = await page.$eval('#skillmd-raw', (pre) => pre.textContent);
    const bytes = fs.readFileSync(file);
    check(raw === bytes.toString('utf8'), `${name}: the raw SKILL.md is the file, character for character`);
    const served = Buffer.from(await pageBytes(page, '#skillmd-download'));
    check(served.equals(bytes), `${name}: the download link serves the file byte for byte`,
          `${served.length} vs ${bytes.length}`);
    check(await page.$('#skillmd-rendered h1, #skillmd-rendered h2, #skillmd-rendered p') !== null,
          `${name}: SKILL.md is rendered as Markdown`);
  }
  await page.goto(url('/ui/skill/ui-skill-000?agentId=ui-agent-0'));
  await page.waitForSelector('#invoke-input');
  const record = await page.textContent('main');
  check(record.includes('Ed25519, verified') && record.includes('inputSchema') &&
        record.includes('ui-agent-0') && record.includes('1.0.0'),
        'a skill page shows the signed record and its schemas');
  await page.waitForSelector('#replicas[aria-busy="false"]');
  const replicas = await page.textContent('#replicas');
  const copies = Number((replicas.match(/Replicas found\s*(\d+)/) || [])[1]);
  const holders = await page.$$eval('#replicas dd span.mono', (spans) => spans.map((s) => s.title));
  check(copies >= 2 && /Expires\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in /.test(replicas) &&
        !replicas.includes('[object') && copies === holders.length + (replicas.includes('this node') ? 1 : 0) &&
        holders.every((id) => /^[0-9a-f]{64}$/.test(id)),
        'its record shows the replicas the DHT holds now (both nodes) and when they expire', replicas);
  await page.waitForSelector('#health-history[aria-busy="false"]');
  const history = await page.$$eval('#health-history tbody tr', (trs) => trs.map((tr) => tr.cells[1].textContent + ' ' + tr.cells[2].textContent));
  check(JSON.stringify(history) === JSON.stringify(['HEALTHY status', 'DEGRADED status', 'HEALTHY registered']),
        'its health history lists the transitions, newest first', JSON.stringify(history));
  const invokes = [];
  page.on('request', (r) => { if (r.url().endsWith('/invoke')) invokes.push(r); });
  await page.fill('#invoke-input', '{"text": 5}');
  await page.click('form.try-it button');
  await page.waitForSelector('#invoke-output .message');
  check((await page.textContent('#invoke-output')).includes('does not match inputSchema') &&
        invokes.length === 0, 'input that breaks inputSchema is refused before anything is sent');
  await page.fill('#invoke-input', '{"text": "hello"}');
  await page.click('form.try-it button');
  await page.waitForFunction(() => document.querySelector('#invoke-output')?.textContent.includes('Invocation'), null, {timeout: 20000});
  const sent = invokes[0];
  check(invokes.length === 1 && sent.method() === 'POST' &&
        JSON.parse(sent.postData()).input.text === 'hello' &&
        (await page.textContent('#invoke-output')).includes('INVOKE') ,
        'valid input is sent to POST /api/skills/{id}/invoke and its answer shown',
        await page.textContent('#invoke-output'));
  await context.close();
}

function curlRegister(body) {
  execFileSync('curl', ['-sf', '-X', 'POST', '-H', 'Content-Type: application/json',
                        '--data', JSON.stringify(body), url('/api/skills')]);
}

// A TCP relay to the node whose connections can all be cut at once: how a stream is dropped
// for real (a browser's offline mode leaves open connections alone).
async function relay() {
  const target = new URL(spec.base);
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {url: `http://127.0.0.1:${server.address().port}`,
          cut: () => { for (const s of sockets) s.destroy(); },
          close: () => { for (const s of sockets) s.destroy(); server.close(); }};
}

async function checkLive(browser, log) {
  const {context, page} = await newPage(browser, log);
  const where = `/ui/live?kind=capability&value=${spec.liveCapability}`;
  await page.goto(url(where));
  await page.waitForSelector('#live-state[data-connected="true"]');
  curlRegister(spec.liveSkill);
  const registered = Date.now();
  await page.waitForSelector('#live-events li.event-added', {timeout: 10000});
  const ms = Date.now() - registered;
  console.log(`figure: a curl registration appeared on Live ${ms} ms after curl returned`);
  check(ms < 2000, 'a registration made with curl appears on Live within 2 s', `${ms} ms`);

  const cut = await relay();
  const relayed = await context.newPage();
  relayed.on('pageerror', (e) => log.errors.push(String(e)));
  await relayed.goto(cut.url + where);
  await relayed.waitForSelector('#live-state[data-connected="true"]');
  cut.cut();
  await relayed.waitForSelector('#live-state[data-connected="false"]', {timeout: 10000});
  await relayed.waitForSelector('#live-state[data-connected="true"]', {timeout: 15000});
  curlRegister({...spec.liveSkill, version: '1.1.0'});
  await relayed.waitForSelector('#live-events li.event-changed >> text=1.1.0', {timeout: 10000});
  check(true, 'a dropped stream reconnects by itself and shows the next change');
  cut.close();
  await context.close();
}

async function checkSignIn(browser, log) {
  const {context, page} = await newPage(browser, log);
  const vault = url(`/ui/skills?capability=${spec.privateCapability}`);
  await page.goto(vault);
  check((await results(page)).length === 0, 'without a token the private skill is not shown');
  await page.goto(url('/ui/signin'));
  await page.fill('#token', 'skn_not-a-real-token');
  await page.click('form.signin button');
  await page.waitForSelector('#signin-status .message.error');
  check(await page.evaluate(() => sessionStorage.length) === 0, 'a refused token is not kept');
  await page.fill('#token', spec.token);
  await page.click('form.signin button');
  await page.waitForURL(/\/ui\/skills/);
  await page.goto(vault);
  const rows = await results(page);
  check(rows.length === 1 && rows[0].id === spec.privateId, 'signed in, the private skill is shown',
        JSON.stringify(rows));
  check(await page.evaluate(() => document.cookie) === '' &&
        (await context.cookies()).length === 0, 'no cookie is set');
  check(await page.textContent('#signin-link') === 'Signed in', 'the header says signed in');
  await page.goto(url('/ui/signin'));
  await page.click('#signout');
  check(await page.evaluate(() => sessionStorage.length) === 0, 'sign-out forgets the token');
  await page.goto(vault);
  check((await results(page)).length === 0, 'signed out, the private skill is gone again');
  await context.close();
}

async function hostileSafe(page, what) {
  await page.waitForLoadState('networkidle');
  const state = await page.evaluate((flag) => ({
    flag: window[flag],
    bad: [...document.querySelectorAll('main script, main iframe, main object, main embed, main style, main img, main svg:not(.chart), main form:not(.try-it):not(.filters):not(.signin)')].map((e) => e.tagName),
    handlers: [...document.querySelectorAll('main *')].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
    links: [...document.querySelectorAll('main a[href]')].map((a) => a.getAttribute('href')).filter((h) => !/^(https?:\/\/|\/ui\/|\/api\/)/.test(h)),
    visible: getComputedStyle(document.body).display !== 'none',
  }), spec.flag);
  check(state.flag === undefined && state.bad.length === 0 && state.handlers.length === 0 &&
        state.links.length === 0 && state.visible,
        `${what}: no script ran, no active element, handler or non-http link got in`, JSON.stringify(state));
}

async function checkHostile(browser, log) {
  const {context, page} = await newPage(browser, log);
  await page.goto(url(`/ui/skills?capability=${spec.hostileCapability}`));
  const rows = await results(page);
  check(rows.length === 1 && rows[0].name === spec.hostileName, 'a hostile name shows literally in the list',
        JSON.stringify(rows));
  await hostileSafe(page, 'the Skills page with a hostile skill');
  await page.goto(url('/ui/skill/ui-hostile?agentId=ui-agent-hostile'));
  await page.waitForSelector('#record-h');
  check(await page.textContent('h1') === spec.hostileName &&
        (await page.textContent('main')).includes(spec.hostileDescription),
        'a hostile skill\'s name and description show literally on its page');
  await hostileSafe(page, 'the hostile skill\'s page');
  await page.goto(url('/ui/skill/ui-hostile-md?agentId=ui-agent-md'));
  await page.waitForSelector('#skillmd-rendered');
  check(await page.$eval('#skillmd-raw', (pre) => pre.textContent) === fs.readFileSync(spec.hostileMd, 'utf8'),
        'the hostile SKILL.md shows raw, literally');
  const rendered = await page.textContent('#skillmd-rendered');
  check(rendered.includes('<a href="javascript:window.') && rendered.includes('<img src="x" onerror=') &&
        rendered.includes('<style>body'), 'HTML written in the hostile SKILL.md shows as text');
  check((await page.$$eval('#skillmd-rendered a[href]', (as) => as.map((a) => a.href))).join() === 'https://example.com/safe',
        'of its links only the https one has an href', 'see the rendered links');
  check(await page.$('#skillmd-rendered h1') !== null && !rendered.includes('name: ui-hostile-md'),
        'its Markdown is rendered, the front matter left to the raw view');
  await hostileSafe(page, 'the hostile SKILL.md rendered');
  await context.close();
}

async function checkNode(browser, log) {
  const {context, page} = await newPage(browser, log);
  const info = await (await fetch(url('/api/node'))).json();
  await page.goto(url('/ui/node'));
  await page.waitForSelector('#node-id');
  check(await page.textContent('#node-id') === info.id, 'the Node page shows the node\'s id');
  // The verdict may change while the page loads: it must be what /api/node said before or after.
  const reach = await page.textContent('#node-reachability');
  const after = await (await fetch(url('/api/node'))).json();
  const shown = {public: 'public', nat: 'behind a NAT', unknown: 'not known yet'};
  check([info.reachability, after.reachability].some((v) => shown[v] && reach.startsWith(shown[v])),
        'the Node page shows the node\'s reachability as /api/node says it',
        `${reach} (api: ${info.reachability}, then ${after.reachability})`);
  await page.waitForSelector('#rt-h ~ .table-wrap tbody tr');
  const rtts = await page.$$eval('#rt-h ~ .table-wrap tbody tr', (trs) => trs.map((tr) => tr.cells[3].textContent));
  check(rtts.length >= 1 && rtts.some((t) => / ms$/.test(t)), 'the peer is listed with its RTT', JSON.stringify(rtts));
  check(await page.$$eval('.charts svg.chart', (s) => s.length) === 4 &&
        await page.$('#rt-h ~ figure svg rect.bar') !== null,
        'bucket occupancy and four counters are drawn');
  await context.close();
}

export async function runPageChecks(browser, log) {
  await checkNode(browser, log);
  await checkSkills(browser, log);
  await checkWordSearch(browser, log);
  await checkSkillPages(browser, log);
  await checkOrigins(browser, log, newPage);
  await checkLive(browser, log);
  await checkSignIn(browser, log);
  await checkHostile(browser, log);
  await photographPages(browser, log, newPage);
}
