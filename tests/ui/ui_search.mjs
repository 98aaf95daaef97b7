// The Skills page's search box (node/ui/assets/skills.js): the word search of the network as
// the user types. Typing words of a skill's description (registered with the peer, in other
// inflections than it is written in) shows that skill with its description, health and
// source, in one request after the typing stops, the box keeping the focus and the URL
// following; words of nothing show the empty state; an empty box is the page as before.
import {check, spec, watch} from './ui_support.mjs';

const url = (p) => spec.base + p;

// The summary line's text once the search for `words` ('' for none) is on screen.
async function searched(page, words) {
  await page.waitForFunction((w) => {
    const results = document.querySelector('#results');
    const summary = results && results.querySelector('.summary');
    if (!summary || results.getAttribute('aria-busy') !== 'false') return false;
    return w ? summary.textContent.includes(`“${w}”`) : !summary.textContent.includes('“');
  }, words);
  return page.textContent('#results .summary');
}

async function typeWords(page, words) {
  await page.fill('#filter-q', '');
  await page.type('#filter-q', words, {delay: 15});
  return searched(page, words);
}

export async function checkWordSearch(browser, log) {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  const page = await context.newPage();
  watch(page, log);
  await page.goto(url('/ui/skills'));
  const before = await searched(page, '');
  const asked = [];
  page.on('request', (r) => { if (r.url().includes('/api/skills?') && r.url().includes('q=')) asked.push(r.url()); });

  await page.focus('#filter-q');
  const summary = await typeWords(page, spec.wordQuery);
  const rows = await page.$$eval('table.skills tbody tr', (trs) => trs.map((tr) => ({
    id: tr.cells[0].querySelector('.sub').textContent,
    description: (tr.cells[0].querySelector('.desc') || {}).textContent || '',
    status: tr.cells[4].textContent, source: tr.cells[5].textContent})));
  const found = rows.find((r) => r.id === spec.wordSkillId);
  check(found !== undefined, 'typing words of a description finds the peer\'s skill ("summarising pdfs" finds "Summarize PDF")',
        `${summary} ${JSON.stringify(rows.map((r) => r.id))}`);
  check(rows.length < 5, 'the word search shows only the skills matching every word', JSON.stringify(rows.map((r) => r.id)));
  check(found && found.description.includes('PDF document') && found.status.trim() && found.source.trim(),
        'a found skill shows its description, health and source', JSON.stringify(found));
  check(asked.length >= 1 && asked.length < spec.wordQuery.length,
        'the page asks the node once the typing pauses, not at every key', `${asked.length} requests`);
  check(new URL(page.url()).searchParams.get('q') === spec.wordQuery,
        'the URL follows the search box (shareable)', page.url());
  check(await page.evaluate(() => document.activeElement.id) === 'filter-q',
        'the search box keeps the focus while results change');

  await typeWords(page, spec.wordQueryNone);
  check((await page.textContent('#results')).includes('No skill matches') &&
        (await page.$$('table.skills tbody tr')).length === 0,
        'words of nothing show the empty state');

  await page.fill('#filter-q', '');
  const after = await searched(page, '');
  check(after.split(' ')[0] === before.split(' ')[0] &&
        (await page.$$('table.skills tbody tr')).length === 50,
        'an empty search box shows the page as before', `${before} / ${after}`);
  await context.close();
}
