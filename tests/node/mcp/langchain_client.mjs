// LangChain's MCP adapters (@langchain/mcp-adapters, pinned in package-lock.json) loading
// skillnode's tools: MultiServerMCPClient over stdio (`skillnode mcp`) and loadMcpTools on an
// SDK client over the node's /mcp. Checks the three tools and that the selection phase
// (list_skills) gives only name and description. Run by mcp_test.py with one JSON argument:
//   {"binary", "node", "public": [{name, description}]}
import { MultiServerMCPClient, loadMcpTools } from '@langchain/mcp-adapters';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const spec = JSON.parse(process.argv[2]);
let failures = 0;
function check(condition, what, detail = '') {
  console.log(`${condition ? 'ok' : 'FAIL'} - [langchain] ${what}` +
              (condition || !detail ? '' : `: ${detail}`));
  if (!condition) failures += 1;
}

// A LangChain tool's answer as text, whatever shape the adapter chose.
function textOf(answer) {
  if (typeof answer === 'string') return answer;
  if (Array.isArray(answer)) {
    if (answer.length === 2 && !answer[0]?.type) return textOf(answer[0]);  // [content, artifact]
    return answer.map((part) => (typeof part === 'string' ? part : part.text ?? '')).join('');
  }
  if (answer?.content !== undefined) return textOf(answer.content);
  if (typeof answer?.text === 'string') return answer.text;  // one content block
  return JSON.stringify(answer);
}

async function checkTools(tools, how) {
  const names = tools.map((t) => t.name).sort();
  check(JSON.stringify(names) === JSON.stringify(['get_skill_info', 'list_skills', 'run_skill']),
        `${how}: the three tools load`, names.join(','));
  const list = tools.find((t) => t.name === 'list_skills');
  for (const skill of spec.public) {
    check(!list.description.includes(skill.name) && !list.description.includes(skill.description),
          `${how}: list_skills' own description names no skill (${skill.name})`);
  }
  const answer = await list.invoke({});
  let skills = null;
  try {
    skills = JSON.parse(textOf(answer));
    // The adapter may hand over the content block itself as JSON text: take its text.
    if (!Array.isArray(skills) && typeof skills?.text === 'string') skills = JSON.parse(skills.text);
  } catch (error) {
    check(false, `${how}: list_skills answers JSON text`, `${textOf(answer)}`);
    return;
  }
  check(Array.isArray(skills) && skills.length >= spec.public.length,
        `${how}: list_skills lists the skills`, JSON.stringify(skills));
  check(skills.every((s) => JSON.stringify(Object.keys(s).sort()) === '["description","name"]'),
        `${how}: the selection phase sees only name and description`, JSON.stringify(skills));
  for (const expected of spec.public) {
    check(skills.some((s) => s.name === expected.name && s.description === expected.description),
          `${how}: ${expected.name} is listed with its description`);
  }
}

try {
  const multi = new MultiServerMCPClient({
    throwOnLoadError: true,
    prefixToolNameWithServerName: false,
    mcpServers: {
      skillnode: { transport: 'stdio', command: spec.binary, args: ['mcp', '--http', spec.node] },
    },
  });
  await checkTools(await multi.getTools(), 'MultiServerMCPClient over stdio');
  await multi.close();

  const client = new Client({ name: 'skillnode-langchain-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${spec.node}/mcp`)));
  await checkTools(await loadMcpTools('skillnode', client), 'loadMcpTools over /mcp');
  await client.close();
} catch (error) {
  check(false, 'the adapters ran to the end', `${error?.stack ?? error}`);
}
process.exit(failures === 0 ? 0 : 1);
