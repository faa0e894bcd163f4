/**
 * A commander's `tool_response { max_tokens }` through the real CLI and the scripted model
 * server: an agent answer over the limit reaches the commander as the `partial` summary of a
 * stored result, the result tools join its tools, and `result_chunk` pages the answer; a run
 * killed after the answer was stored, or while the agent was still answering, resumes with the
 * stored result and the result tools.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  cleanUpAll,
  reply,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { killAtModelRequest, resumeToEnd } from './cli-resume-harness.ts';

afterEach(cleanUpAll);

const AGENT = 'agent:read/reader';
const COMMANDER = 'commander:read';

/** The reader's answer: 1,000 numbered lines, 10,000 characters. */
const ANSWER = Array.from(
  { length: 1_000 },
  (_, line) => `line ${String(line).padStart(4, '0')}\n`,
).join('');

/** What the commander receives for the answer: its summary, the answer stored as `result_1`. */
const SUMMARY = JSON.stringify({
  status: 'partial',
  result_id: 'result_1',
  type: 'text',
  agent: 'reader',
  preview: ANSWER.slice(0, 2_000),
  total_bytes: 10_000,
});

function project(): Promise<string> {
  return writeProject(`
agent "reader" {
  model       = MODEL
  personality = "You read long reports."
}

mission "report" {
  commander {
    model = MODEL
    tool_response {
      max_tokens = 1000
    }
  }
  agents = [agents.reader]
  task "read" {
    objective = "Read the report"
  }
}
`);
}

interface ResponsesBody {
  tools?: Array<{ name: string }>;
  input: Array<{ type?: string; call_id?: string; output?: unknown }>;
}

function toolNames(body: unknown): string[] {
  return ((body as ResponsesBody).tools ?? []).map((tool) => tool.name);
}

/** The outputs of the function calls in a request, in order. */
function callOutputs(body: unknown): unknown[] {
  return (body as ResponsesBody).input
    .filter((item) => item.type === 'function_call_output')
    .map((item) => item.output);
}

/** A stored result of the state directory's only run, as its file holds it. */
async function storedResult(stateDir: string, id: string): Promise<unknown> {
  const [runId = ''] = await readdir(join(stateDir, 'runs'));
  return JSON.parse(await readFile(join(stateDir, 'runs', runId, 'results', `${id}.json`), 'utf8'));
}

function cliArgs(baseUrl: string, stateDir: string): string[] {
  return ['--var', 'api_key=test-key', '--var', `base_url=${baseUrl}`, '--state-dir', stateDir];
}

const PLAN = call(COMMANDER, 'set_subtasks', { subtasks: ['Read it'] });
const DELEGATE = call(COMMANDER, 'call_agent', { name: 'reader', task: 'read the report' });
const CHUNK = call(COMMANDER, 'result_chunk', { id: 'result_1', offset: 5_000, length: 30 });
const FINISH = [
  call(COMMANDER, 'complete_subtask', {}, { lastMessageContains: 'line 0500' }),
  call(COMMANDER, 'task_complete', { summary: 'Read' }),
];

describe('commander tool_response (CLI)', () => {
  it('stores an agent answer over max_tokens and pages it with result_chunk', async () => {
    const dir = await project();
    const stateDir = join(await temporaryDirectory('state'), 'state');
    const server = await startModelServer([PLAN, DELEGATE, reply(AGENT, ANSWER), CHUNK, ...FINISH]);
    const run = await sortie([
      'run',
      dir,
      '--plain',
      ...cliArgs(server.baseUrl('openai'), stateDir),
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    server.assertDone();
    const requests = server.requests.filter((request) => request.actor === COMMANDER);
    expect(requests).toHaveLength(5);
    const tools = requests.map((request) =>
      toolNames(request.body).filter((name) => name.startsWith('result_')),
    );
    const resultTools = [
      'result_info',
      'result_items',
      'result_get',
      'result_keys',
      'result_chunk',
    ];
    expect(tools).toEqual([[], [], resultTools, resultTools, resultTools]);
    expect(callOutputs(requests[2]!.body).at(-1)).toBe(SUMMARY);
    expect(callOutputs(requests[3]!.body).at(-1)).toBe(ANSWER.slice(5_000, 5_030));
    // The answer is stored whole in the run's results, never sent to the commander's model.
    expect(await storedResult(stateDir, 'result_1')).toBe(ANSWER);
    expect(JSON.stringify(requests.map((request) => request.body))).not.toContain('line 0999');
  }, 60_000);

  it.each([
    { killed: 'after the answer was stored', at: { actor: COMMANDER, turn: 3 }, agentAnswers: 0 },
    { killed: 'while the agent was answering', at: { actor: AGENT, turn: 1 }, agentAnswers: 1 },
  ])(
    'resumed after a SIGKILL $killed, pages the stored answer with the result tools',
    async ({ at, agentAnswers }) => {
      const dir = await project();
      const stateDir = join(await temporaryDirectory('state'), 'state');
      const first = await startModelServer([
        PLAN,
        DELEGATE,
        ...(at.actor === COMMANDER ? [reply(AGENT, ANSWER)] : []),
        // Never answered: the CLI is killed while it waits for this reply.
        { match: { actor: at.actor }, text: 'never sent', delayMs: 600_000 },
      ]);
      const runId = await killAtModelRequest(
        dir,
        { stateDir, baseUrl: first.baseUrl('openai') },
        at,
      );

      const second = await startModelServer([
        ...(agentAnswers === 1 ? [reply(AGENT, ANSWER)] : []),
        CHUNK,
        ...FINISH,
      ]);
      await resumeToEnd(runId, dir, { stateDir, baseUrl: second.baseUrl('openai') });
      second.assertDone();
      const [resumed] = second.requests.filter((request) => request.actor === COMMANDER);
      expect(toolNames(resumed!.body)).toContain('result_chunk');
      expect(callOutputs(resumed!.body).at(-1)).toBe(SUMMARY);
      const chunked = second.requests.filter((request) => request.actor === COMMANDER)[1];
      expect(callOutputs(chunked!.body).at(-1)).toBe(ANSWER.slice(5_000, 5_030));
      expect(await storedResult(stateDir, 'result_1')).toBe(ANSWER);
    },
    90_000,
  );
});
