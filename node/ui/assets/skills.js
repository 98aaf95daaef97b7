// Skills: a search over the network through GET /api/skills (the same query code as
// POST /api/skills/search), paged on the node. The filters live in the query string. A skill
// imported from another registry's format carries a badge naming the format (its origin).
import {el, append, clear, message, statusBadge, sourceBadge, originBadge, pageLink} from './dom.js';
import {enc, get} from './api.js';

export const kPageSize = 50;
// Query-string keys: the form's fields, in the API's names.
const kFilters = [
  ['capability', 'Capability', 'org-data-read'],
  ['scene', 'Scene', 'auth'],
  ['type', 'Type', 'enterprise-skill'],
  ['version', 'Version range', '>=1.0.0 <2'],
  ['q', 'Text', 'words in id, name, description, tags'],
];
const kStatuses = ['', 'HEALTHY', 'DEGRADED', 'UNHEALTHY', 'MAINTENANCE'];

// The API query for the page's query string: free text becomes keywords (all must match).
export function apiQuery(params) {
  const query = new URLSearchParams();
  for (const key of ['capability', 'scene', 'type', 'version', 'status']) {
    const value = (params.get(key) || '').trim();
    if (value) query.set(key, value);
  }
  const words = (params.get('q') || '').split(/[\s,]+/).filter(Boolean);
  if (words.length) query.set('keyword', words.join(','));
  const offset = Math.max(0, parseInt(params.get('offset') || '0', 10) || 0);
  query.set('limit', String(kPageSize));
  query.set('offset', String(offset));
  return query;
}

function filterForm(params, navigate) {
  const form = el('form', {class: 'filters', role: 'search', 'aria-label': 'Filter skills'});
  for (const [key, label, placeholder] of kFilters) {
    const id = `filter-${key}`;
    append(form, [el('label', {for: id}, label,
      el('input', {id, name: key, type: 'search', value: params.get(key) || '', placeholder,
                   autocomplete: 'off'}))]);
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
    const next = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (String(value).trim()) next.set(key, value);
    navigate(`/ui/skills${next.toString() ? `?${next}` : ''}`);
  });
  return form;
}

function skillHref(skill) {
  const agent = skill.agentId ? `?agentId=${enc(skill.agentId)}` : '';
  return `/ui/skill/${enc(skill.id)}${agent}`;
}

function resultsTable(skills) {
  const body = el('tbody');
  for (const skill of skills) {
    append(body, [el('tr', {},
      el('td', {}, pageLink(skillHref(skill), skill.name || skill.id),
         el('div', {class: 'sub mono'}, skill.id)),
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

export function render(main, {params, navigate, current}) {
  document.title = 'Skills - skillnode';
  const results = el('section', {'aria-live': 'polite', 'aria-busy': 'true', id: 'results'});
  append(main, [el('h1', {}, 'Skills'), filterForm(params, navigate), results]);
  const controller = new AbortController();
  const query = apiQuery(params);
  const started = performance.now();
  get(`/api/skills?${query}`, {signal: controller.signal}).then((answer) => {
    if (!current()) return;
    clear(results);
    results.setAttribute('aria-busy', 'false');
    if (!answer.ok) {
      results.append(message('error', `Search failed: ${answer.error}`));
      return;
    }
    const {skills = [], total = 0} = answer.json || {};
    const offset = Number(query.get('offset'));
    const ms = Math.round(performance.now() - started);
    results.dataset.renderMs = String(ms);
    append(results, [el('p', {class: 'summary'}, `${total} skill${total === 1 ? '' : 's'}`,
      ` (sources: ${(answer.json.sources || []).join(', ') || 'none'}; ${ms} ms)`)]);
    if (skills.length) results.append(resultsTable(skills));
    else results.append(message('info', 'No skill matches these filters.'));
    results.append(pager(params, total, offset, navigate));
    // For measurements (tests/ui/ui_load.py): when the first results were on screen.
    performance.mark('skills-results');
  }).catch((e) => {
    if (e.name !== 'AbortError') results.append(message('error', String(e)));
  });
  return () => controller.abort();
}
