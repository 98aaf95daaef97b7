// Node: this node's identity, its routing table (bucket occupancy and contacts' RTT), stored
// records, the rate limiter's refusals, LAN peers, the SkillCenter circuit, and a few /metrics
// counters over the last minutes as small charts. Refreshed every kPollMs while shown.
import {el, append, clear, fields, message} from './dom.js';
import {get} from './api.js';
import {barChart, lineChart} from './charts.js';

const kPollMs = 5000;
// Samples kept per chart: 60 x 5 s = the last 5 minutes.
export const kChartSamplesMax = 60;
// [metric, label, unit, rate?]: a rate is the counter's increase per second.
const kCharts = [
  ['skillnode_http_requests_total', 'HTTP requests', 'req/s', true],
  ['skillnode_datagrams_received_total', 'DHT datagrams received', 'dgram/s', true],
  ['skillnode_store_records', 'Records stored', 'records', false],
  ['skillnode_datagrams_dropped_total', 'Datagrams dropped', 'dgram/s', true],
];
// Kept across visits to the page within one tab, so the charts do not restart from nothing.
const history = new Map();

// Sums of every sample of each metric family in Prometheus text; rate-limited drops apart.
export function parseMetrics(text) {
  const sums = new Map();
  let rateLimited = 0;
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const value = Number(match[3]);
    if (!Number.isFinite(value)) continue;
    sums.set(match[1], (sums.get(match[1]) || 0) + value);
    if (match[1] === 'skillnode_datagrams_dropped_total' && /reason="rate_limit/.test(match[2] || '')) {
      rateLimited += value;
    }
  }
  return {sums, rateLimited};
}

function record(now, sums) {
  for (const [metric, , , rate] of kCharts) {
    const series = history.get(metric) || {points: [], last: null};
    const value = sums.get(metric);
    if (value === undefined) continue;
    if (rate) {
      if (series.last) {
        const seconds = (now - series.last.t) / 1000;
        if (seconds > 0) series.points.push({t: now, v: Math.max(0, (value - series.last.v) / seconds)});
      }
      series.last = {t: now, v: value};
    } else {
      series.points.push({t: now, v: value});
    }
    while (series.points.length > kChartSamplesMax) series.points.shift();
    history.set(metric, series);
  }
}

function list(items) {
  return items.length ? el('ul', {class: 'plain'}, items.map((i) => el('li', {class: 'mono'}, i))) : '—';
}

// What dial-backs from third parties say of this node (docs/protocol.md "Reachability").
function reachability(info) {
  const names = {public: 'public: strangers reach it', nat: 'behind a NAT: strangers do not reach it',
                 unknown: 'not known yet'};
  if (!info.reachability) return '—';
  const reach = info.reach || {};
  const counts = reach.probesStarted === undefined ? '' :
    ` (${reach.probesReached} of ${reach.probesStarted} dial-backs arrived, ${reach.probesNotReached} did not)`;
  return (names[info.reachability] || info.reachability) + counts;
}

function identity(info) {
  return el('section', {'aria-labelledby': 'id-h'}, el('h2', {id: 'id-h'}, 'This node'),
    fields([
      ['Node id', el('span', {class: 'mono wrap', id: 'node-id'}, info.id)],
      ['Network id', String(info.networkId)],
      ['Version', info.version],
      ['Addresses', list(info.addresses || [])],
      ['DHT sockets', list(info.listen || [])],
      ['Reachability', el('span', {id: 'node-reachability'}, reachability(info))],
      ['External address', el('span', {class: 'mono', id: 'node-external'}, info.externalAddress || '—')],
      ['HTTP API', info.http || '—'],
      ['Uptime', `${info.uptimeSeconds} s`],
      ['Bootstrap', info.dht ? info.dht.bootstrapPhase : '—'],
    ]));
}

function routing(info, contacts) {
  const counts = new Map();
  for (const c of contacts) counts.set(c.bucket, (counts.get(c.bucket) || 0) + 1);
  const top = Math.max(0, ...counts.keys());
  const bars = [];
  for (let b = 0; b <= Math.max(top, 8); ++b) bars.push({label: String(b), v: counts.get(b) || 0});
  const rows = [...contacts].sort((a, b) => b.bucket - a.bucket || (a.rtt_ms ?? 1e9) - (b.rtt_ms ?? 1e9));
  const table = el('div', {class: 'table-wrap'}, el('table', {},
    el('caption', {class: 'visually-hidden'}, 'Contacts'),
    el('thead', {}, el('tr', {}, ['Bucket (shared bits)', 'Contact', 'Address', 'RTT'].map((h) => el('th', {scope: 'col'}, h)))),
    el('tbody', {}, rows.map((c) => el('tr', {}, el('td', {}, String(c.bucket)),
      el('td', {class: 'mono'}, String(c.id).slice(0, 16)), el('td', {class: 'mono'}, c.address),
      el('td', {}, c.rtt_ms === null || c.rtt_ms === undefined ? '—' : `${c.rtt_ms.toFixed(1)} ms`))))));
  const table_stats = info.routingTable || {};
  return el('section', {'aria-labelledby': 'rt-h'}, el('h2', {id: 'rt-h'}, 'Routing table'),
    el('p', {}, `${table_stats.contacts ?? 0} contacts in ${table_stats.buckets ?? 0} buckets, ${table_stats.replacements ?? 0} waiting.`),
    el('figure', {}, barChart('Contacts per bucket (bits shared with this node\'s id)', bars),
       el('figcaption', {}, 'Contacts per bucket, by the number of leading bits their id shares with this node\'s')),
    contacts.length ? table : message('info', 'No contacts yet.'));
}

function services(info, rateLimited) {
  const store = info.store || {};
  const lan = info.lan || {};
  const center = info.skillcenter || {};
  const registry = info.registry || {};
  return el('section', {'aria-labelledby': 'svc-h'}, el('h2', {id: 'svc-h'}, 'Registry and adapters'),
    fields([
      ['Stored records', `${store.records ?? 0} (${store.keys ?? 0} keys, ${store.bytes ?? 0} bytes)`],
      ['Published by this node', String(store.published ?? 0)],
      ['Registered here', registry.registrations === undefined ? '—' : `${registry.registrations} (${registry.healthy} healthy, ${registry.unhealthy} unhealthy)`],
      ['Rate limiter refusals', String(rateLimited)],
      ['LAN peers', info.lan ? String((lan.peers || []).length) : 'LAN off'],
      ['SkillCenter', info.skillcenter ? `${center.url} (circuit ${center.circuit})` : 'not configured'],
      ['CSP reports', String(info.ui ? info.ui.cspReports : 0)],
    ]));
}

function charts(container) {
  clear(container);
  for (const [metric, label, unit] of kCharts) {
    const series = history.get(metric) || {points: []};
    container.append(el('figure', {class: 'chart-box'},
      lineChart(label, series.points, kChartSamplesMax * kPollMs, unit),
      el('figcaption', {}, `${label} (${unit})`)));
  }
}

export function render(main, {current}) {
  document.title = 'Node - skillnode';
  const body = el('div', {'aria-busy': 'true'});
  const chartBox = el('div', {class: 'charts'});
  append(main, [el('h1', {}, 'Node'), body,
    el('section', {'aria-labelledby': 'charts-h'}, el('h2', {id: 'charts-h'}, 'Counters'), chartBox)]);
  let timer = null;
  let stopped = false;
  const refresh = async () => {
    const [info, contacts, metrics] = await Promise.all([get('/api/node'), get('/api/dht/contacts'), get('/metrics')]);
    if (stopped || !current()) return;
    clear(body);
    body.setAttribute('aria-busy', 'false');
    if (!info.ok) {
      body.append(message('error', `The node did not answer: ${info.error}`));
    } else {
      const parsed = metrics.ok ? parseMetrics(metrics.text) : {sums: new Map(), rateLimited: 0};
      record(Date.now(), parsed.sums);
      append(body, [identity(info.json), routing(info.json, contacts.ok ? contacts.json.contacts : []),
                    services(info.json, parsed.rateLimited)]);
      charts(chartBox);
    }
    timer = setTimeout(refresh, kPollMs);
  };
  refresh();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
