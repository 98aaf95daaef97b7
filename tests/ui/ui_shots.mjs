// Every page at 1280 px in the light theme, at 360 px in the dark one and at 1920 px: axe-core
// on each (no serious or critical violation), no horizontal scrolling at any width, and a
// full-page screenshot at 1280 and 360 px in spec.screenshots (docs/ui/ holds the committed
// ones: make ui-screenshots).
import path from 'node:path';
import {axeCheck, check, spec} from './ui_support.mjs';

// [name, path, selector that says the page is ready]
const kPages = [
  ['skills', '/ui/skills', '#results[aria-busy="false"] table'],
  ['skill', '/ui/skill/cjk-emoji?agentId=ui-agent-md', '#skillmd-rendered'],
  ['live', `/ui/live?kind=capability&value=${spec.liveCapability}`, '#live-events li'],
  ['node', '/ui/node', '#node-id'],
  ['signin', '/ui/signin', '#token'],
];
const kViews = [
  {suffix: '1280-light', width: 1280, height: 900, scheme: 'light'},
  {suffix: '360-dark', width: 360, height: 780, scheme: 'dark'},
  {suffix: '1920-dark', width: 1920, height: 1080, scheme: 'dark', photograph: false},
];

export async function photographPages(browser, log, newPage) {
  for (const view of kViews) {
    const {context, page} = await newPage(browser, log, view);
    for (const [name, where, ready] of kPages) {
      await page.goto(spec.base + where);
      await page.waitForSelector(ready, {timeout: 15000});
      if (name === 'node') await page.waitForSelector('.charts svg.chart');
      await axeCheck(page, `${name} at ${view.suffix}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      check(width <= view.width, `${name} fits ${view.width} px without scrolling sideways`,
            `${width} px`);
      if (view.photograph === false) continue;
      await page.screenshot({path: path.join(spec.screenshots, `${name}-${view.suffix}.png`),
                             fullPage: name !== 'skills'});
    }
    await context.close();
  }
  check(true, 'screenshots written to ' + spec.screenshots);
}
