// The official MCP TypeScript SDK's client (pinned in package-lock.json) driving skillnode's
// MCP server, over stdio (`skillnode mcp`, StdioClientTransport) or over the node's /mcp
// (StreamableHTTPClientTransport). Run by mcp_test.py with one JSON argument:
//   {"transport": "stdio" | "http", "binary", "node", "token"?, "step": "tools" | "skillmd",
//    "public": [{name, description}], "private": {name, description}, "run": {...},
//    "queries": [{"text", "names"}] (list_skills' word search and the names it must find),
//    "fixtures": [{"name", "file"}]}
// The tools step also checks logging (client.setLoggingLevel and the notifications/message it
// lets through) and, over http, requests sent under another supported protocol version.
// Prints one "ok - ..." or "FAIL - ..." line per check; exits 1 if any failed.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EmptyResultSchema, ErrorCode, LATEST_PROTOCOL_VERSION, LoggingMessageNotificationSchema,
         McpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

const spec = JSON.parse(process.argv[2]);
let failures = 0;
function check(condition, what, detail = '') {
  console.log(`${condition ? 'ok' : 'FAIL'} - [${spec.transport}] ${what}` +
              (condition || !detail ? '' : `: ${detail}`));
  if (!condition) failures += 1;
  return condition;
}

async function connect(token) {
  const client = new Client({ name: 'skillnode-mcp-test', version: '1.0.0' });
  let transport;
  if (spec.transport === 'stdio') {
    const args = ['mcp', '--http', spec.node];
    if (token) args.push('--token', token);
    transport = new StdioClientTransport({ command: spec.binary, args, stderr: 'pipe' });
  } else {
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    transport = new StreamableHTTPClientTransport(new URL(`${spec.node}/mcp`),
                                                  { requestInit: { headers } });
  }
  await client.connect(transport);
  return { client, transport };
}

// JSON text with object keys sorted, to compare values whatever order the server wrote.
const canonical = (value) => JSON.stringify(value, (key, v) => (
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));

const textOf = (result) => (result.content ?? []).filter((c) => c.type === 'text')
  .map((c) => c.text).join('');

async function expectRpcError(promise, code, what) {
  try {
    await promise;
    check(false, what, 'no error');
  } catch (error) {
    check(error instanceof McpError && error.code === code, what, `${error}`);
  }
}

async function toolsStep() {
  const { client, transport } = await connect(null);
  check(client.getServerVersion()?.name === 'skillnode', 'initialize names the server skillnode');
  const caps = client.getServerCapabilities() ?? {};
  check(caps.tools !== undefined && caps.logging !== undefined && Object.keys(caps).length === 2,
        'the server declares the tools and logging capabilities only', JSON.stringify(caps));
  if (spec.transport === 'http') {
    check(transport.sessionId && /^[0-9a-f]{32}$/.test(transport.sessionId),
          'the node issued an Mcp-Session-Id', `${transport.sessionId}`);
    check(transport.protocolVersion === LATEST_PROTOCOL_VERSION,
          `the SDK's newest version ${LATEST_PROTOCOL_VERSION} was negotiated`,
          `${transport.protocolVersion}`);
  }
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check(JSON.stringify(names) === JSON.stringify(['get_skill_info', 'list_skills', 'run_skill']),
        'tools/list has exactly list_skills, get_skill_info and run_skill', names.join(','));
  const list = tools.find((t) => t.name === 'list_skills');
  const queryText = list?.inputSchema?.properties?.query?.description ?? '';
  check(['name', 'description', 'capabilities', 'tags', 'scenes', 'network'].every((w) => queryText.includes(w)),
        'list_skills\' query says it searches the words of every skill across the network', queryText);
  const schemas = JSON.stringify(tools.map((t) => t.inputSchema));
  check(!schemas.includes('maxLength":100') && !schemas.includes('"text"'),
        'no tool carries a skill\'s own input schema', schemas);

  const listed = await client.callTool({ name: 'list_skills', arguments: {} });
  const skills = listed.structuredContent?.skills ?? [];
  check(!listed.isError && skills.length >= spec.public.length, 'list_skills lists the skills',
        JSON.stringify(listed));
  check(skills.every((s) => JSON.stringify(Object.keys(s).sort()) === '["description","name"]'),
        'each listed skill has only name and description', JSON.stringify(skills));
  check(JSON.stringify(JSON.parse(textOf(listed))) === JSON.stringify(skills),
        'the text content is the same list as structuredContent');
  for (const expected of spec.public) {
    check(skills.some((s) => s.name === expected.name && s.description === expected.description),
          `list_skills shows ${expected.name} with its front matter's description`);
  }
  check(!skills.some((s) => s.name === spec.private.name),
        'a private skill is not listed without a token');
  // The query is the node's word search (q): words of the name and description, in other
  // inflections, the last one as a prefix; words of nothing find nothing.
  for (const query of spec.queries) {
    const filtered = await client.callTool({ name: 'list_skills',
                                             arguments: { query: query.text, limit: 10 } });
    const filteredNames = (filtered.structuredContent?.skills ?? []).map((s) => s.name);
    check(!filtered.isError && JSON.stringify(filteredNames) === JSON.stringify(query.names),
          `list_skills with query "${query.text}" finds only ${JSON.stringify(query.names)}`,
          JSON.stringify(filtered.isError ? filtered : filteredNames));
  }
  const refused = await client.callTool({ name: 'list_skills',
                                          arguments: { query: 'w '.repeat(17).trim() } })
    .then((r) => r, (e) => e);
  check(refused instanceof Error && /query: must have at most 16 words/.test(refused.message),
        'list_skills refuses a query of more than 16 words, naming query', String(refused));

  const ran = await client.callTool({ name: 'run_skill',
                                      arguments: { name: spec.run.name, input: spec.run.input } });
  check(!ran.isError && canonical(JSON.parse(textOf(ran))) === canonical(spec.run.output),
        `run_skill runs ${spec.run.name}`, JSON.stringify(ran));
  const failed = await client.callTool({ name: 'run_skill', arguments: {
    name: spec.run.broken, input: spec.run.input } });
  check(failed.isError === true && textOf(failed).length > 0,
        'run_skill on a skill whose provider is down is a tool error with the reason',
        JSON.stringify(failed));
  const unknown = await client.callTool({ name: 'get_skill_info',
                                          arguments: { name: 'no-such-skill-anywhere' } });
  check(unknown.isError === true && textOf(unknown).includes('no skill named'),
        'get_skill_info on an unknown name is a tool error naming it', JSON.stringify(unknown));
  const hidden = await client.callTool({ name: 'run_skill', arguments: {
    name: spec.private.name, input: spec.run.input } });
  check(hidden.isError === true, 'run_skill cannot reach a private skill without a token',
        JSON.stringify(hidden));

  await expectRpcError(client.callTool({ name: 'list_skills', arguments: { limit: 0 } }),
                       ErrorCode.InvalidParams, 'a bad argument is answered -32602');
  await expectRpcError(client.callTool({ name: 'no_such_tool', arguments: {} }),
                       ErrorCode.InvalidParams, 'an unknown tool is answered -32602');
  await expectRpcError(client.request({ method: 'resources/list', params: {} }, EmptyResultSchema),
                       ErrorCode.MethodNotFound, 'an unknown method is answered -32601');
  check((await client.ping()) !== undefined, 'ping is answered');
  await loggingChecks(client);
  if (spec.transport === 'http') await versionChecks(client, transport);
  if (spec.transport === 'http') {
    await transport.terminateSession();
    check(transport.sessionId === undefined, 'DELETE ends the session');
  }
  await client.close();

  // With a token: the private skill appears and runs.
  const withToken = await connect(spec.token);
  const all = await withToken.client.callTool({ name: 'list_skills', arguments: {} });
  check((all.structuredContent?.skills ?? []).some((s) => s.name === spec.private.name),
        'with a token the private skill is listed');
  const secret = await withToken.client.callTool({ name: 'run_skill', arguments: {
    name: spec.private.name, input: spec.run.input } });
  check(!secret.isError, 'with a token the private skill runs', JSON.stringify(secret));
  await withToken.client.close();
}

// Lets the notification handlers run before the caller looks at what they got.
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function loggingChecks(client) {
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema,
                                (notification) => { logs.push(notification.params); });
  const run = (name) => client.callTool({ name: 'run_skill',
                                          arguments: { name, input: spec.run.input } });
  await run(spec.run.broken);
  await settle();
  check(logs.length === 0, 'no log notification before the client sets a level',
        JSON.stringify(logs));
  check(JSON.stringify(await client.setLoggingLevel('warning')) === '{}',
        'setLoggingLevel("warning") is answered');
  const ran = await run(spec.run.name);
  await settle();
  check(!ran.isError && logs.length === 0,
        'at level warning, a run\'s debug and info notifications are not delivered',
        JSON.stringify(logs));
  const failed = await run(spec.run.broken);
  await settle();
  check(failed.isError === true && logs.length === 1 && logs[0].level === 'warning' &&
        logs[0].logger === 'run_skill' && `${logs[0].data?.message}`.includes(spec.run.broken),
        'a run whose provider is down is delivered as one warning naming the skill',
        JSON.stringify(logs));
  logs.length = 0;
  await client.setLoggingLevel('debug');
  await run(spec.run.name);
  await settle();
  const levels = logs.map((l) => l.level);
  check(JSON.stringify(levels) === '["debug","info"]',
        'at level debug, a run is delivered as debug (the name resolved) and info (it ran)',
        JSON.stringify(logs));
  await client.setLoggingLevel('emergency');
  logs.length = 0;
  await run(spec.run.broken);
  await settle();
  check(logs.length === 0, 'at level emergency a failed run sends nothing', JSON.stringify(logs));
  await expectRpcError(client.request({ method: 'logging/setLevel', params: { level: 'verbose' } },
                                      EmptyResultSchema),
                       ErrorCode.InvalidParams, 'an unknown level is answered -32602');
}

// Requests under a supported version other than the negotiated one are served; an unsupported
// one is refused naming the supported versions. The SDK sends transport.protocolVersion.
async function versionChecks(client, transport) {
  const negotiated = transport.protocolVersion;
  for (const version of SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== negotiated)) {
    transport.setProtocolVersion(version);
    try {
      const { tools } = await client.listTools();
      check(tools.length === 3, `a request with MCP-Protocol-Version ${version} is served`);
    } catch (error) {
      check(false, `a request with MCP-Protocol-Version ${version} is served`, `${error}`);
    }
  }
  transport.setProtocolVersion('1900-01-01');
  try {
    await client.listTools();
    check(false, 'an unsupported MCP-Protocol-Version is refused', 'it was served');
  } catch (error) {
    check(`${error}`.includes('1900-01-01') && `${error}`.includes(LATEST_PROTOCOL_VERSION),
          'an unsupported MCP-Protocol-Version is refused naming the supported versions',
          `${error}`);
  }
  transport.setProtocolVersion(negotiated);
}

async function skillMdStep() {
  const { client } = await connect(null);
  for (const fixture of spec.fixtures) {
    const expected = readFileSync(fixture.file);
    const got = await client.callTool({ name: 'get_skill_info', arguments: { name: fixture.name } });
    const bytes = Buffer.from(textOf(got), 'utf8');
    check(!got.isError && bytes.equals(expected),
          `get_skill_info(${fixture.name}) is ${fixture.file} byte for byte (${expected.length} bytes)`,
          got.isError ? textOf(got).slice(0, 300) : `got ${bytes.length} bytes`);
  }
  await client.close();
}

try {
  if (spec.step === 'skillmd') await skillMdStep(); else await toolsStep();
} catch (error) {
  check(false, 'the client ran to the end', `${error?.stack ?? error}`);
}
process.exit(failures === 0 ? 0 : 1);
