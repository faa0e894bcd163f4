/**
 * Parallel tool calls: an agent reply with `CALLS` calls of an HTTP tool whose loopback server
 * answers each request after `DELAY_MS`, run through the library (`runMission`) against the
 * scripted model server, once as agents run by default (the calls of one reply together) and
 * once with `parallel_tool_calls = false` (one after another). Measured is the wall time of
 * the agent's tool round: from the start of its first call (a `tool.completed` less its
 * `durationMs`) to the end of its last.
 * Prints Markdown on stdout (see bench/run.ts).
 *
 * `tsx bench/parallel-tools.ts [CALLS] [DELAY_MS]` (defaults 5 and 1,000).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openProject, runMission, type MissionEvent } from '../src/index.ts';
import { ScriptedModelServer, type ScriptTurn } from '../src/testing/index.ts';

const CALLS = Number(process.argv[2] ?? 5);
const DELAY_MS = Number(process.argv[3] ?? 1_000);
const AGENT = 'agent:fetch/fetcher';

const slow = createServer((request, response) => {
  setTimeout(() => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(`page ${request.url ?? ''}`);
  }, DELAY_MS);
});
await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
const pages = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;

function project(parallel: string): string {
  return `
variable "base_url" {}
model "main" {
  provider = "openai"
  api_key  = "sk-bench"
  base_url = vars.base_url
}
agent "fetcher" {
  model       = models.main.gpt_4o_mini
  personality = "You fetch pages over HTTP."
  tools       = [builtins.http.get]
  ${parallel}
}
mission "pages" {
  commander {
    model = models.main.gpt_4o_mini
  }
  agents = [agents.fetcher]
  task "fetch" {
    objective = "Fetch pages"
  }
}
`;
}

function turns(): ScriptTurn[] {
  const commander = 'commander:fetch';
  const tool = (name: string, args: Record<string, unknown> = {}): ScriptTurn => ({
    match: { actor: commander },
    toolCalls: [{ name, arguments: args }],
  });
  return [
    tool('set_subtasks', { subtasks: ['Fetch'] }),
    tool('call_agent', { name: 'fetcher', task: 'fetch the pages' }),
    {
      match: { actor: AGENT },
      toolCalls: Array.from({ length: CALLS }, (_, index) => ({
        name: 'builtins_http_get',
        arguments: { url: `${pages}/page/${index + 1}` },
      })),
    },
    { match: { actor: AGENT }, text: 'Fetched.' },
    tool('complete_subtask'),
    tool('task_complete', { summary: 'Done' }),
  ];
}

/** The wall time of the agent's tool round, in milliseconds. */
async function toolRoundMs(parallel: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'sortie-bench-parallel-'));
  const server = await ScriptedModelServer.start({ turns: turns() });
  try {
    writeFileSync(join(dir, 'main.hcl'), project(parallel));
    const opened = await openProject(dir, { vars: { base_url: server.baseUrl('openai') } });
    const starts: number[] = [];
    const ends: number[] = [];
    const onEvent = (event: MissionEvent): void => {
      if (event.type !== 'tool.completed' || event.actor !== AGENT) return;
      ends.push(performance.now());
      starts.push(performance.now() - event.durationMs);
    };
    const run = runMission(opened, { stateDir: join(dir, 'state'), onEvent, otel: false });
    const result = await run.result;
    if (result.status !== 'succeeded') throw new Error(`the run ${result.status}`);
    server.assertDone();
    return Math.round(Math.max(...ends) - Math.min(...starts));
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const together = await toolRoundMs('');
const oneByOne = await toolRoundMs('parallel_tool_calls = false');
slow.close();
process.stdout.write(
  [
    '### Parallel tool calls',
    '',
    `An agent reply with ${CALLS} calls of \`builtins.http.get\` to a server answering each after ${DELAY_MS} ms (\`bench/parallel-tools.ts\`): the wall time of the tool round.`,
    '',
    '| agent | tool round |',
    '| --- | --- |',
    `| default (calls of one reply together) | ${together} ms |`,
    `| \`parallel_tool_calls = false\` | ${oneByOne} ms |`,
    '',
  ].join('\n'),
);
