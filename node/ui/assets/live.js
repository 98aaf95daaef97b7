// Live: the node's watch stream (GET /api/v1/watch, Server-Sent Events) for one capability,
// scene or skill id. Read with fetch rather than EventSource so that the token goes in the
// Authorization header; a dropped stream is opened again after a back-off (1 s doubling to
// 10 s, back to 1 s once events flow). The newest events are shown first, at most
// kLiveEventsMax of them.
import {el, append, clear, message, statusBadge, pageLink, dateText} from './dom.js';
import {authHeaders, enc} from './api.js';

export const kLiveEventsMax = 200;
const kRetryFirstMs = 1000;
const kRetryMaxMs = 10000;
const kKinds = ['capability', 'scene', 'skill'];

// Splits SSE text into complete events; returns [events, rest].
export function parseEvents(buffer) {
  const events = [];
  let at;
  while ((at = buffer.indexOf('\n\n')) >= 0) {
    const block = buffer.slice(0, at);
    buffer = buffer.slice(at + 2);
    let name = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) events.push({name, data: data.join('\n')});
  }
  return [events, buffer];
}

function eventRow(name, skill) {
  const skillLink = skill.id
    ? pageLink(`/ui/skill/${enc(skill.id)}?agentId=${enc(skill.agentId || '')}`, skill.name || skill.id)
    : '';
  return el('li', {class: `event event-${name}`},
    el('span', {class: 'badge kind'}, name), ' ', skillLink, ' ',
    el('span', {class: 'mono'}, skill.version || ''), ' ',
    skill.status ? statusBadge(skill.status) : '',
    skill.reason ? el('span', {class: 'sub'}, ` (${skill.reason})`) : '',
    el('span', {class: 'sub'}, ` ${dateText(Date.now())}`));
}

export function render(main, {params, navigate}) {
  document.title = 'Live - skillnode';
  const kind = kKinds.includes(params.get('kind')) ? params.get('kind') : 'capability';
  const value = params.get('value') || '';
  const select = el('select', {id: 'live-kind', name: 'kind'},
    kKinds.map((k) => el('option', {value: k, selected: k === kind}, k)));
  const input = el('input', {id: 'live-value', name: 'value', type: 'search', value,
                             required: true, autocomplete: 'off'});
  const form = el('form', {class: 'filters', 'aria-label': 'What to watch'},
    el('label', {for: 'live-kind'}, 'Watch', select),
    el('label', {for: 'live-value'}, 'Name', input), el('button', {type: 'submit'}, 'Watch'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    navigate(`/ui/live?kind=${enc(select.value)}&value=${enc(input.value.trim())}`);
  });
  const state = el('p', {class: 'stream-state', id: 'live-state', role: 'status'});
  const list = el('ol', {class: 'events', id: 'live-events', 'aria-live': 'polite'});
  append(main, [el('h1', {}, 'Live'), form, state, list]);
  if (!value) {
    state.textContent = 'Name a capability, scene or skill id to watch its changes.';
    return null;
  }
  let stopped = false;
  let controller = null;
  let retryMs = kRetryFirstMs;
  let timer = null;

  const show = (name, data) => {
    let skill = {};
    try {
      skill = JSON.parse(data);
    } catch {
      return;
    }
    if (name === 'ready') {
      state.textContent = `Watching ${kind} ${value}: connected.`;
      state.dataset.connected = 'true';
      return;
    }
    if (name === 'error') {
      list.prepend(el('li', {class: 'event event-error'}, message('error', skill.message || 'stream error')));
      return;
    }
    retryMs = kRetryFirstMs;
    list.prepend(eventRow(name, skill));
    while (list.children.length > kLiveEventsMax) list.lastElementChild.remove();
  };

  const reconnect = (why) => {
    if (stopped) return;
    state.dataset.connected = 'false';
    state.textContent = `Disconnected (${why}); reconnecting in ${retryMs / 1000} s.`;
    timer = setTimeout(connect, retryMs);
    retryMs = Math.min(kRetryMaxMs, retryMs * 2);
  };

  async function connect() {
    if (stopped) return;
    controller = new AbortController();
    state.textContent = `Connecting to the watch stream for ${kind} ${value}…`;
    try {
      const response = await fetch(`/api/v1/watch?${kind}=${enc(value)}`,
        {headers: authHeaders({Accept: 'text/event-stream'}), credentials: 'omit',
         cache: 'no-store', signal: controller.signal});
      if (!response.ok) {
        const text = await response.text();
        let why = `HTTP ${response.status}`;
        try { why = JSON.parse(text).message || why; } catch { /* not JSON */ }
        return reconnect(why);
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const {value: chunk, done} = await reader.read();
        if (done) break;
        let events;
        [events, buffer] = parseEvents(buffer + chunk.replace(/\r\n/g, '\n'));
        for (const event of events) show(event.name, event.data);
      }
      reconnect('the stream ended');
    } catch (e) {
      if (!stopped) reconnect(e.message);
    }
  }
  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (controller) controller.abort();
    clear(list);
  };
}
