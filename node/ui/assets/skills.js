// Skills: a search over the network through GET /api/skills (the same query code as
// POST /api/skills/search), paged on the node. The filters live in the query string. A skill
// imported from another registry's format carries a badge naming the format (its origin).
// The search box is the word search (q, docs/search.md): as the user types, kTypingDelayMs
// after the last key, the page asks GET /api/skills?q= with the other filters and shows the
// skills found, best first, in place (the URL follows, replaced, so it can be shared); the
// last word matches as a prefix on the node. An empty box is the page with the other filters.
import {el, append, clear, message, statusBadge, sourceBadge, originBadge, pageLink} from './dom.js';
import {enc, get} from './api.js';

export const kPageSize = 50;
// A search as the user types starts this long after the last key.
export const kTypingDelayMs = 250;
// The node's limit on q (node/api/query_text.h kQueryTextBytesMax); the box takes no more.
const kQueryBytesMax = 256;
// Query-string keys: the form's fields, in the API's names.
const kFilters = [
  ['q', 'Search', 'what the skill does, in words'],
  ['capability', 'Capability', 'org-data-read'],
  ['scene', 'Scene', 'auth'],
  ['type', 'Type', 'enterprise-skill'],
  ['version', 'Version range', '>=1.0.0 <2'],
];
const kStatuses = ['', 'HEALTHY', 'DEGRADED', 'UNHEALTHY', 'MAINTENANCE'];

// The API query for the page's query string: the search box is the word search's q.
export function apiQuery(params) {
  const query = new URLSearchParams();
  for (const key of ['q', 'capability', 'scene', 'type', 'version', 'status']) {
    const value = (params.get(key) || '').trim();
    if (value) query.set(key, value);
  }
  const offset = Math.max(0, parseInt(params.get('offset') || '0', 10) || 0);
  query.set('limit', String(kPageSize));
  query.set('offset', String(offset));
  return query;
}

function filterForm(params, navigate) {
  const form = el('form', {class: 'filters', role: 'search', 'aria-label': 'Filter skills'});
  for (const [key, label, placeholder] of kFilters) {
    const id = `filter-${key}`;
    const input = el('input', {id, name: key, type: 'search', value: params.get(key) || '',
                               placeholder, autocomplete: 'off'});
    if (key === 'q') input.maxLength = kQueryBytesMax;  // characters; the node counts bytes
    append(form, [el('label', {for: id, class: key === 'q' ? 'search-words' : null}, label, input)]);
  }
  const select = el('select', {id: 'filter-status', name: 'status'});
  for (const status of kStatuses) {
    const option = el('option', {value: status}, status || 'any');
    if ((params.get('status') || '') === status) option.selected = true;
    select.append(option);
  }
  append(form, [el('label', {for: 'filter-status'}, 'Health', select),
                el('button', {type: 'submit'}, 'Search')]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = formParams(form);
    navigate(`/ui/skills${next.toString() ? `?${next}` : ''}`);
  });
  return form;
}

function skillHref(skill) {
  const agent = skill.agentId ? `?agentId=${enc(skill.agentId)}` : '';
  return `/ui/skill/${enc(skill.id)}${agent}`;
}

// The page's query string for the form as it is now (offset dropped: a new search).
function formParams(form) {
  const next = new URLSearchParams();
  for (const [key, value] of new FormData(form)) if (String(value).trim()) next.set(key, value);
  return next;
}

function resultsTable(skills) {
  const body = el('tbody');
  for (const skill of skills) {
    append(body, [el('tr', {},
      el('td', {}, pageLink(skillHref(skill), skill.name || skill.id),
         el('div', {class: 'sub mono'}, skill.id),
         skill.description ? el('div', {class: 'desc'}, skill.description) : null),
      el('td', {class: 'mono'}, skill.version),
      el('td', {}, skill.type),
      el('td', {}, (skill.capabilities || []).join(', ')),
      el('td', {}, statusBadge(skill.status)),
      el('td', {}, sourceBadge(skill.source), originBadge(skill.origin)))]);
  }
  const head = el('thead', {}, el('tr', {}, ['Skill', 'Version', 'Type', 'Capabilities',
    'Health', 'Source'].map((h) => el('th', {scope: 'col'}, h))));
  return el('div', {class: 'table-wrap'}, el('table', {class: 'skills'},
    el('caption', {class: 'visually-hidden'}, 'Skills found'), head, body));
}

function pager(params, total, offset, navigate) {
  const nav = el('nav', {class: 'pager', 'aria-label': 'Pages of results'});
  const go = (next) => {
    const p = new URLSearchParams(params);
    if (next > 0) p.set('offset', String(next)); else p.delete('offset');
    return `/ui/skills?${p}`;
  };
  if (offset > 0) nav.append(pageLink(go(Math.max(0, offset - kPageSize)), 'Previous'));
  nav.append(el('span', {}, `${total === 0 ? 0 : offset + 1}–${Math.min(total, offset + kPageSize)} of ${total}`));
  if (offset + kPageSize < total) nav.append(pageLink(go(offset + kPageSize), 'Next'));
  return nav;
}

// Runs the search of `params` into `results`, replacing what it showed; a later call aborts an
// earlier one still waiting for the node.
function searcher(results, navigate, current) {
  let controller = null;
  return (params) => {
    if (controller) controller.abort();
    controller = new AbortController();
    const mine = controller;
    const query = apiQuery(params);
    const started = performance.now();
    results.setAttribute('aria-busy', 'true');
    get(`/api/skills?${query}`, {signal: mine.signal}).then((answer) => {
      if (!current() || mine.signal.aborted) return;
      clear(results);
      results.setAttribute('aria-busy', 'false');
      if (!answer.ok) {
        results.append(message('error', `Search failed: ${answer.error}`));
        return;
      }
      const {skills = [], total = 0} = answer.json || {};
      const offset = Number(query.get('offset'));
      const ms = Math.round(performance.now() - started);
      const words = query.get('q');
      results.dataset.renderMs = String(ms);
      append(results, [el('p', {class: 'summary'}, `${total} skill${total === 1 ? '' : 's'}`,
        words ? ` for “${words}”, best match first` : '',
        ` (sources: ${(answer.json.sources || []).join(', ') || 'none'}; ${ms} ms)`)]);
      if (skills.length) results.append(resultsTable(skills));
      else if (words) results.append(message('info', `No skill matches “${words}” with these filters.`));
      else results.append(message('info', 'No skill matches these filters.'));
      results.append(pager(params, total, offset, navigate));
      // For measurements (tests/ui/ui_load.py): when the first results were on screen.
      performance.mark('skills-results');
    }).catch((e) => {
      if (e.name !== 'AbortError') results.append(message('error', String(e)));
    });
    return mine;
  };
}

export function render(main, {params, navigate, current}) {
  document.title = 'Skills - skillnode';
  const results = el('section', {'aria-live': 'polite', 'aria-busy': 'true', id: 'results'});
  const form = filterForm(params, navigate);
  append(main, [el('h1', {}, 'Skills'), form, results]);
  const search = searcher(results, navigate, current);
  let running = search(params);
  let timer = null;
  // Searching as the user types: the page stays (the box keeps the focus), the URL follows.
  form.querySelector('#filter-q').addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!current()) return;
      const next = formParams(form);
      history.replaceState(null, '', `/ui/skills${next.toString() ? `?${next}` : ''}`);
      running = search(next);
    }, kTypingDelayMs);
  });
  return () => {
    clearTimeout(timer);
    running.abort();
  };
}
