// The console's router: /ui/skills, /ui/skill/ID, /ui/live, /ui/node and /ui/signin are
// pages of one document, followed with the History API so every view has a URL that can be
// shared (filters are in its query string) and reloaded.
import {clear, el, message} from './dom.js';
import {token} from './api.js';
import * as skills from './skills.js';
import * as skillPage from './skill_page.js';
import * as live from './live.js';
import * as nodePage from './node_page.js';
import * as signin from './signin.js';

const kPages = {skills, skill: skillPage, live, node: nodePage, signin};
let cleanup = null;
let generation = 0;

function route() {
  const rest = location.pathname.replace(/^\/ui\/?/, '');
  const [name, ...more] = rest.split('/');
  const page = name === '' ? 'skills' : name;
  return {page, arg: more.length ? decodeURIComponent(more.join('/')) : ''};
}

export function navigate(url, {replace = false} = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  render();
}

function render() {
  if (cleanup) cleanup();
  cleanup = null;
  const mine = ++generation;
  const main = document.getElementById('main');
  clear(main);
  const {page, arg} = route();
  for (const link of document.querySelectorAll('nav a[data-page]')) {
    if (link.dataset.page === page || (page === 'skill' && link.dataset.page === 'skills')) {
      link.setAttribute('aria-current', 'page');
    } else {
      link.removeAttribute('aria-current');
    }
  }
  const module = kPages[page];
  if (!module) {
    document.title = 'Not found - skillnode';
    main.append(el('h1', {}, 'Not found'), message('error', `The console has no page ${page}.`));
    return;
  }
  const params = new URLSearchParams(location.search);
  const context = {arg, params, navigate, current: () => mine === generation};
  cleanup = module.render(main, context) || null;
}

function showAuth() {
  const link = document.getElementById('signin-link');
  link.textContent = token() ? 'Signed in' : 'Sign in';
}

// In-console links are followed without reloading; others behave as links do.
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target.closest('a[href]');
  if (!link || link.hasAttribute('download')) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/ui/')) return;
  if (url.hash && url.pathname === location.pathname && url.search === location.search) {
    // A link within the page ("Skip to content"): move the focus there, not only the view.
    const target = document.getElementById(decodeURIComponent(url.hash.slice(1)));
    if (target) {
      event.preventDefault();
      target.focus();
    }
    return;
  }
  event.preventDefault();
  navigate(url.pathname + url.search);
  document.getElementById('main').focus();
});
window.addEventListener('popstate', render);
window.addEventListener('skillnode-auth', showAuth);
showAuth();
render();
