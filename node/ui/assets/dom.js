// DOM helpers. Every piece of text goes in as a text node (textContent): nothing a skill's
// publisher wrote is ever parsed as HTML here (markdown.js is the one sanitised exception).

// el('a', {href: '/ui/x', class: 'c'}, 'text', child, ...): attributes by setAttribute,
// children as nodes, strings as text nodes; null and false children are skipped.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// The URL if it is an absolute http(s) URL, else null: links to anything else (javascript:,
// data:, relative paths a publisher chose) are never made.
export function httpUrl(text) {
  try {
    const url = new URL(String(text));
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

// A link to an outside http(s) URL that leaks nothing, or the text alone. With newTab the link
// opens in a new tab (target _blank, said in hidden text for screen readers).
export function outsideLink(text, {newTab = false} = {}) {
  const href = httpUrl(text);
  if (!href) return el('span', {class: 'mono'}, String(text));
  return el('a', {href, rel: 'noopener noreferrer nofollow', class: 'mono',
                  target: newTab ? '_blank' : null}, String(text),
            newTab ? el('span', {class: 'visually-hidden'}, ' (opens in a new tab)') : null);
}

// A <dl> of [term, value] pairs (value: a node or text).
export function fields(pairs) {
  const list = el('dl', {class: 'fields'});
  for (const [term, value] of pairs) append(list, [el('dt', {}, term), el('dd', {}, value)]);
  return list;
}

export function statusBadge(status) {
  const known = ['HEALTHY', 'DEGRADED', 'UNHEALTHY', 'MAINTENANCE'];
  const name = known.includes(status) ? status.toLowerCase() : 'unknown';
  return el('span', {class: `badge status-${name}`}, String(status ?? 'UNKNOWN'));
}

export function sourceBadge(source) {
  return el('span', {class: 'badge source'}, String(source ?? '?'));
}

// An imported skill's origin.format (kademlia/store/record_origin.h) in words, and short.
const kOriginFormats = {
  'a2a': ['A2A Agent Card', 'A2A'],
  'mcp-registry': ['MCP Registry', 'MCP'],
  'agent-skills': ['Agent Skills index', 'Agent Skills'],
};

export function originFormatName(format) {
  return (kOriginFormats[format] || [String(format ?? '?')])[0];
}

// For the Skills table: where an imported skill came from; nothing for one registered directly.
export function originBadge(origin) {
  if (!origin || typeof origin !== 'object') return null;
  const short = (kOriginFormats[origin.format] || [null, 'other'])[1];
  return el('span', {class: 'badge origin', title: `Imported (${originFormatName(origin.format)})`},
    el('span', {class: 'visually-hidden'}, 'imported from '), short);
}

export function message(kind, text) {
  return el('p', {class: `message ${kind}`, role: kind === 'error' ? 'alert' : 'status'}, text);
}

export function dateText(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '—';
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

// A path under /ui/ for an in-console link (main.js follows these without reloading).
export function pageLink(path, text, attrs = {}) {
  return el('a', {href: path, ...attrs}, text);
}
