// The web console in Debian's chromium, driven by Playwright-core (tests/ui/ui_test.py starts
// the nodes and passes what it registered in UI_SPEC). Prints one "ok - ..." or "FAIL - ..."
// line per check and exits 1 if any failed. Every page is also checked by axe-core (no serious
// or critical violation), for horizontal overflow at 360 px, and photographed at 1280 px light
// and 360 px dark.
import {check, failureCount, launch} from './ui_support.mjs';
import {runPageChecks} from './ui_pages.mjs';

async function main() {
  const browser = await launch();
  const log = {errors: [], console: [], cspReports: [], tokenInUrl: [], offNode: []};
  try {
    await runPageChecks(browser, log);
  } catch (e) {
    check(false, 'the browser checks ran to the end', e.stack || String(e));
  } finally {
    await browser.close();
  }
  check(log.cspReports.length === 0, 'no page sent a Content-Security-Policy report',
        log.cspReports.join('\n').slice(0, 2000));
  check(log.errors.length === 0, 'no page raised a script error', log.errors.join('\n'));
  check(log.tokenInUrl.length === 0, 'the token never appeared in a URL', log.tokenInUrl.join(' '));
  check(log.offNode.length === 0, 'no request left the node', log.offNode.join(' '));
  process.exit(failureCount() ? 1 : 0);
}

main();
