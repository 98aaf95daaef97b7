// Imported skills in the console (ui_imports.py made them through POST /api/import): the skill
// page's Origin block (format in words, the source URL as a link that opens a new tab and
// leaks nothing, signature, the document's SHA-256 and size, an MCP server's registry status
// and dates), "Registered directly" for a skill registered with its node, a source URL that is
// not http(s) shown as text and never as a link, and the origin badge on the Skills page.
import {axeCheck, check, spec} from './ui_support.mjs';

const url = (p) => spec.base + p;

// The Origin block of one provider: {term: text} of its fields, and its links.
async function originOf(page, skill) {
  const agent = encodeURIComponent(skill.agentId);
  await page.goto(url(`/ui/skill/${encodeURIComponent(skill.skillId)}?agentId=${agent}`));
  await page.waitForSelector('#origin-h');
  return page.$eval(`#origin .origin-block[data-agent-id="${skill.agentId}"]`, (block) => {
    const terms = {};
    for (const dt of block.querySelectorAll('dt')) {
      terms[dt.textContent] = dt.nextElementSibling.textContent;
    }
    const links = [...block.querySelectorAll('a')].map((a) => ({href: a.getAttribute('href'),
      rel: a.getAttribute('rel'), target: a.getAttribute('target'), text: a.textContent}));
    const sha = block.querySelector('dd span[title]');
    return {terms, links, text: block.textContent, shaTitle: sha?.title, shaText: sha?.textContent};
  });
}

async function checkA2a(page, skill) {
  const o = skill.origin;
  const got = await originOf(page, skill);
  const link = got.links[0] || {};
  check(got.terms.Format === 'A2A Agent Card' && got.terms['Source signature'] === 'not signed' &&
        got.terms.Document === `SHA-256 ${o.documentSha256.slice(0, 16)}…, ${o.documentSize} bytes` &&
        got.shaTitle === o.documentSha256 && !('Registry status' in got.terms),
        'an imported A2A skill\'s page names its format, signature, document digest and size',
        JSON.stringify(got));
  const rel = (link.rel || '').split(' ');
  check(got.links.length === 1 && link.href === o.sourceUrl && link.target === '_blank' &&
        rel.includes('noopener') && rel.includes('noreferrer') && link.text.startsWith(o.sourceUrl),
        'its source URL is a link to the card that opens a new tab with noopener noreferrer',
        JSON.stringify(got.links));
  await axeCheck(page, 'an imported skill\'s page');
}

async function checkMcp(page, skill) {
  const o = skill.origin;
  const got = await originOf(page, skill);
  check(got.terms.Format === 'MCP Registry' && got.terms['Registry status'] === 'deprecated' &&
        got.terms.Published === '2025-09-01 10:00:00 UTC' &&
        got.terms['Updated in the registry'] === '2025-10-01 10:00:00 UTC' &&
        got.links.length === 1 && got.links[0].href === o.sourceUrl &&
        o.sourceUrl.startsWith('https://registry.example.org/'),
        'an imported MCP server\'s page shows its registry status, dates and registry URL',
        JSON.stringify(got));
}

async function checkHostile(page, skill) {
  const o = skill.origin;
  const got = await originOf(page, skill);
  const everywhere = await page.$$eval('main a[href]', (as) => as.map((a) => a.getAttribute('href')));
  check(o.sourceUrl === 'javascript:alert(1)' && got.terms.Source === o.sourceUrl &&
        got.links.length === 0 && !everywhere.some((h) => /^\s*javascript:/i.test(h)),
        'a sourceUrl of javascript:alert(1) is shown as text, not a link', JSON.stringify(got));
}

async function checkDirect(page) {
  await page.goto(url('/ui/skill/ui-skill-000?agentId=ui-agent-0'));
  await page.waitForSelector('#origin-h');
  const text = await page.textContent('#origin');
  check(text.includes('Registered directly with its node') && await page.$('#origin dl') === null,
        'a skill registered directly says so in its Origin block', text);
}

async function checkBadges(page) {
  await page.goto(url(`/ui/skills?capability=${spec.imports.capability}`));
  await page.waitForSelector('#results[aria-busy="false"]');
  const rows = await page.$$eval('table.skills tbody tr', (trs) => trs.map((tr) => ({
    id: tr.cells[0].querySelector('.sub').textContent,
    badge: tr.cells[5].querySelector('.badge.origin')?.textContent,
    title: tr.cells[5].querySelector('.badge.origin')?.title})));
  const ids = [spec.imports.a2a.skillId, spec.imports.hostile.skillId].sort();
  check(JSON.stringify(rows.map((r) => r.id).sort()) === JSON.stringify(ids) &&
        rows.every((r) => r.badge === 'imported from A2A' && r.title === 'Imported (A2A Agent Card)'),
        'the Skills page marks imported skills with their format', JSON.stringify(rows));
  await page.goto(url('/ui/skills?capability=ui-translate'));
  await page.waitForSelector('#results[aria-busy="false"]');
  check(await page.$('table.skills .badge.origin') === null,
        'skills registered directly carry no origin badge');
  await axeCheck(page, 'the Skills page with imported skills');
}

export async function checkOrigins(browser, log, newPage) {
  const {context, page} = await newPage(browser, log);
  const {a2a, mcp, hostile} = spec.imports;
  if (check(a2a && mcp && hostile, 'the three imported skills are there to look at')) {
    await checkA2a(page, a2a);
    await checkMcp(page, mcp);
    await checkHostile(page, hostile);
    await checkBadges(page);
  }
  await checkDirect(page);
  await context.close();
}
