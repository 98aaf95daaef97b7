// A skill: its signed record, where each provider's record came from (an importer's origin),
// descriptor and schemas, SKILL.md rendered (sanitised) and raw byte for byte, and a form that
// invokes it through the node (POST /api/skills/{id}/invoke) once the input passes its
// inputSchema.
import {el, append, clear, fields, message, outsideLink, statusBadge, sourceBadge, dateText,
        pageLink, originFormatName} from './dom.js';
import {enc, get, getExactText, post} from './api.js';
import {renderMarkdown} from './markdown.js';
import {checkAgainstSchema} from './schema_check.js';

function json(value) {
  return el('pre', {class: 'code', tabindex: '0'}, JSON.stringify(value, null, 2));
}

function signature(skill) {
  if (!skill.provider) return 'unsigned: a SkillCenter catalog\'s record';
  return 'Ed25519, verified by this node before the record was kept or shown';
}

function recordSection(skill, providers) {
  const others = providers.filter((p) => p !== skill);
  return el('section', {'aria-labelledby': 'record-h'},
    el('h2', {id: 'record-h'}, 'Signed record'),
    fields([
      ['Skill id', el('span', {class: 'mono'}, skill.skillId || skill.id)],
      ['Agent', el('span', {class: 'mono'}, skill.agentId || '—')],
      ['Publisher node', el('span', {class: 'mono wrap'}, skill.provider || '—')],
      ['Signature', signature(skill)],
      ['Version', el('span', {class: 'mono'}, skill.version)],
      ['Type', skill.type],
      ['Endpoint', outsideLink(skill.endpoint)],
      ['Capabilities', (skill.capabilities || []).join(', ') || '—'],
      ['Scenes', (skill.scenes || []).join(', ') || '—'],
      ['Health', statusBadge(skill.status)],
      ['Source', sourceBadge(skill.source)],
      ['Access', skill.access || 'public'],
      ['Updated', dateText(skill.updatedAt)],
      ['Sequence', String(skill.sequence ?? '—')],
      ['Providers found', String(providers.length)],
    ]),
    others.length ? el('p', {}, 'Other providers: ', others.map((p, i) => [i ? ', ' : '',
      pageLink(`/ui/skill/${enc(p.id)}?agentId=${enc(p.agentId || '')}`, p.agentId || '?')])) : null,
    replicasPart(skill));
}

// An RFC 3339 time as the registry wrote it, shown as the page shows times (the text itself
// when it does not parse).
function timeText(text) {
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? dateText(ms) : String(text);
}

// Where an imported record came from (its origin, kademlia/store/record_origin.h): the
// importer's word for it, signed into the record.
function originFields(origin) {
  const sha = String(origin.documentSha256 ?? '');
  const signed = {verified: 'signature verified', unsigned: 'not signed'}[origin.signature];
  const pairs = [
    ['Format', originFormatName(origin.format)],
    ['Source', outsideLink(origin.sourceUrl ?? '', {newTab: true})],
    ['Source signature', signed || String(origin.signature ?? '—')],
    ['Document', el('span', {},
      'SHA-256 ', el('span', {class: 'mono', title: sha}, sha.length > 16 ? `${sha.slice(0, 16)}…` : sha),
      `, ${plural(Number(origin.documentSize) || 0, 'byte')}`)],
  ];
  if (origin.publisherDomain) {
    pairs.push(['Source domain', el('span', {}, el('span', {class: 'mono'}, origin.publisherDomain),
      ` (${origin.publisherDomainState === 'verified' ? 'proved by the importer' : 'not proved'})`)]);
  }
  if (origin.status) pairs.push(['Registry status', origin.status]);
  if (origin.publishedAt) pairs.push(['Published', timeText(origin.publishedAt)]);
  if (origin.updatedAt) pairs.push(['Updated in the registry', timeText(origin.updatedAt)]);
  return fields(pairs);
}

// One block per provider, the one shown first; each says where its record came from.
function originSection(skill, providers) {
  const section = el('section', {'aria-labelledby': 'origin-h', id: 'origin'},
    el('h2', {id: 'origin-h'}, 'Origin'));
  const ordered = [skill, ...providers.filter((p) => p !== skill)];
  for (const provider of ordered) {
    const block = el('div', {class: 'origin-block', 'data-agent-id': provider.agentId || ''});
    if (ordered.length > 1) block.append(el('h3', {}, 'Provider ', el('span', {class: 'mono'}, provider.agentId || '?')));
    const origin = provider.origin;
    block.append(origin && typeof origin === 'object'
      ? originFields(origin)
      : el('p', {}, provider.provider ? 'Registered directly with its node.'
                                      : 'Listed by a SkillCenter catalog.'));
    const claims = domainClaims(provider.publisherDomains);
    if (claims) block.append(claims);
    section.append(block);
  }
  return section;
}

// The DNS names the record's publisher claims, each as this node checked it against the
// domain's /.well-known/skillnode-publisher (docs/formats.md "Publisher domains").
function domainClaims(claims) {
  if (!Array.isArray(claims) || !claims.length) return null;
  const words = {verified: 'verified', unverified: 'not verified', checking: 'being checked'};
  return fields([['Publisher domains', el('span', {}, claims.map((c, i) => [i ? ', ' : '',
    el('span', {class: 'mono'}, String(c.domain ?? '?')), ' ',
    el('span', {title: c.reason || ''}, `(${words[c.state] || String(c.state ?? '?')})`)]))]]);
}

function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function inTime(seconds) {
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)} h ${Math.floor(seconds % 3600 / 60)} min`;
  if (seconds >= 60) return `${Math.floor(seconds / 60)} min`;
  return `${seconds} s`;
}

// Where the network holds the record and until when: a DHT get of the skill's key, now
// (GET /api/skills/{id}/replicas).
function replicasPart(skill) {
  const body = el('div', {'aria-busy': 'true', id: 'replicas'});
  if (!skill.provider) {
    body.setAttribute('aria-busy', 'false');
    body.append(message('info', 'A SkillCenter catalog\'s record is not stored in the DHT.'));
    return body;
  }
  get(`/api/skills/${enc(skill.id)}/replicas?agentId=${enc(skill.agentId || '')}`).then((answer) => {
    body.setAttribute('aria-busy', 'false');
    if (!answer.ok) {
      body.append(message('info', answer.status === 404
        ? 'The DHT holds no copy of this record now (it may not be published yet).'
        : `The DHT could not be asked: ${answer.error}`));
      return;
    }
    const replica = (answer.json.replicas || [])[0];
    const holders = (replica.holders || []).map((id) => el('span', {class: 'mono', title: id}, id.slice(0, 8)));
    const where = [replica.heldHere ? 'this node' : null, ...holders].filter(Boolean);
    body.append(fields([
      ['Replicas found', el('span', {}, `${replica.copies}: `, where.map((w, i) => [i ? ', ' : '', w]),
        ` (the network keeps ${answer.json.replication}; ${plural(answer.json.nodesAnswered, 'node')} answered)`)],
      ['Expires', replica.expiresAt == null ? '—' : el('span', {},
        `${dateText(replica.expiresAt)} (in ${inTime(replica.secondsLeft)}, unless the publisher renews it; `
        + `each copy lives ${inTime(replica.ttlSeconds)})`)],
    ]));
  });
  return body;
}

function historySection(skill) {
  const body = el('div', {'aria-busy': 'true', id: 'health-history'});
  const section = el('section', {'aria-labelledby': 'history-h'},
    el('h2', {id: 'history-h'}, 'Health history'), body);
  get(`/api/skills/${enc(skill.id)}/health-history?agentId=${enc(skill.agentId || '')}`).then((answer) => {
    body.setAttribute('aria-busy', 'false');
    if (!answer.ok) {
      body.append(message('info', answer.status === 404
        ? 'This node keeps no history of this skill: the node it registered with does.'
        : `The history could not be read: ${answer.error}`));
      return;
    }
    const rows = [...(answer.json?.transitions || [])].reverse().map((t) => el('tr', {},
      el('td', {}, dateText(t.at)), el('td', {}, statusBadge(t.status)), el('td', {}, t.event)));
    append(body, [el('div', {class: 'table-wrap'}, el('table', {},
      el('caption', {class: 'visually-hidden'}, 'Health transitions, newest first'),
      el('thead', {}, el('tr', {}, ['When', 'Health', 'Event'].map((h) => el('th', {scope: 'col'}, h)))),
      el('tbody', {}, rows))),
      el('p', {class: 'sub'}, `The last ${answer.json.limit} transitions at most (node.ui.healthHistory).`)]);
  });
  return section;
}

function descriptorSection(skill) {
  const section = el('section', {'aria-labelledby': 'descriptor-h'},
    el('h2', {id: 'descriptor-h'}, 'Descriptor'),
    fields([['Name', skill.name || '—'], ['Description', skill.description || '—'],
            ['Tags', (skill.tags || []).join(', ') || '—'],
            ['Capability type', skill.capabilityType || '—']]));
  for (const key of ['inputSchema', 'outputSchema']) {
    if (skill[key] !== undefined) append(section, [el('h3', {}, key), json(skill[key])]);
  }
  const major = String(skill.version || '').split('.')[0];
  if (skill.agentId && major) {
    const url = `/skills/${enc(`${skill.agentId}.${skill.skillId || skill.id}-v${major}`)}/descriptor.json`;
    const holder = el('div', {class: 'descriptor-full'});
    section.append(holder);
    get(url).then((answer) => {
      if (answer.ok) append(holder, [el('h3', {}, 'Full Skill Descriptor'), json(answer.json)]);
    });
  }
  return section;
}

function skillMdSection(skill) {
  const base = `/api/skills/${enc(skill.id)}/skill.md?agentId=${enc(skill.agentId || '')}`;
  const section = el('section', {'aria-labelledby': 'skillmd-h'},
    el('h2', {id: 'skillmd-h'}, 'SKILL.md'));
  if (!skill.skillMdSha256) {
    section.append(message('info', 'This skill was not registered from a SKILL.md folder.'));
    return section;
  }
  const body = el('div', {'aria-busy': 'true'});
  append(section, [el('p', {},
    el('a', {href: base, download: `${skill.skillId || skill.id}-SKILL.md`, id: 'skillmd-download'},
       'Download SKILL.md'),
    ` (SHA-256 `, el('span', {class: 'mono wrap'}, skill.skillMdSha256), ')'), body]);
  getExactText(base).then((answer) => {
    body.setAttribute('aria-busy', 'false');
    if (!answer.ok) {
      body.append(message('error', `SKILL.md could not be fetched (HTTP ${answer.status}).`));
      return;
    }
    const rendered = renderMarkdown(answer.text);
    append(body, [el('h3', {}, 'Rendered'),
      rendered ? el('article', {class: 'markdown', id: 'skillmd-rendered'}, rendered)
               : message('error', 'The Markdown libraries did not load.'),
      el('h3', {}, `Raw (${answer.bytes} bytes)`),
      el('pre', {class: 'code raw', id: 'skillmd-raw', tabindex: '0'}, answer.text)]);
  });
  return section;
}

function tryItSection(skill) {
  const output = el('div', {'aria-live': 'polite', id: 'invoke-output'});
  const input = el('textarea', {id: 'invoke-input', rows: '6', spellcheck: 'false',
                                class: 'mono'});
  input.value = '{}';
  const form = el('form', {class: 'try-it'},
    el('label', {for: 'invoke-input'}, 'Input (JSON)'), input,
    el('button', {type: 'submit'}, 'Invoke'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clear(output);
    let value;
    try {
      value = JSON.parse(input.value);
    } catch (e) {
      output.append(message('error', `The input is not JSON: ${e.message}`));
      return;
    }
    const problems = checkAgainstSchema(skill.inputSchema, value);
    if (problems.length) {
      output.append(message('error', 'The input does not match inputSchema; nothing was sent.'),
        el('ul', {}, problems.map((p) => el('li', {}, el('span', {class: 'mono'}, p.pointer), ': ', p.reason))));
      return;
    }
    output.append(message('info', 'Invoking…'));
    const answer = await post(`/api/skills/${enc(skill.id)}/invoke`,
                              {input: value, agentId: skill.agentId});
    clear(output);
    output.append(answer.ok ? message('info', `Done (${answer.json?.status ?? answer.status}).`)
                            : message('error', `Invocation failed: ${answer.error}`));
    if (answer.json) output.append(json(answer.json));
  });
  return el('section', {'aria-labelledby': 'try-h'}, el('h2', {id: 'try-h'}, 'Try it'),
    el('p', {}, 'The node checks the input again, calls the skill\'s endpoint and waits for the result.'),
    form, output);
}

export function render(main, {arg, params, current}) {
  document.title = `${arg} - skillnode`;
  main.append(el('p', {}, pageLink('/ui/skills', '← Skills')), el('h1', {}, arg));
  const status = el('div', {'aria-live': 'polite'});
  main.append(status);
  const agent = params.get('agentId');
  get(`/api/skills/${enc(arg)}`).then((answer) => {
    if (!current()) return;
    if (!answer.ok) {
      status.append(message('error', answer.status === 404 ? `No skill ${arg} was found.` : `Failed: ${answer.error}`));
      return;
    }
    const providers = answer.json.providers || [answer.json];
    const skill = providers.find((p) => agent && p.agentId === agent) || providers[0];
    main.querySelector('h1').textContent = skill.name || skill.id;
    document.title = `${skill.name || skill.id} - skillnode`;
    append(main, [recordSection(skill, providers), originSection(skill, providers),
                  historySection(skill), descriptorSection(skill),
                  skillMdSection(skill), tryItSection(skill)]);
  });
}
