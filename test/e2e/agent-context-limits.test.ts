/**
 * An agent's `compaction` and `pruning` through the real CLI and the scripted model server:
 * the request after the limit carries the cut conversation (every call still with its
 * result), `--json` shows the `context.compacted` event, and a run killed after a compaction
 * resumes from the compacted conversation, not the full history.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptTurn } from '../../src/testing/index.ts';
import {
  call,
  cleanUpAll,
  delegatingTask,
  jsonLines,
  reply,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { journalOf, killAtModelRequest, resumeToEnd } from './cli-resume-harness.ts';

afterEach(cleanUpAll);

const AGENT = 'agent:look/watcher';
const COMMANDER = 'commander:look';

function project(limits: string, commanderLimits = ''): Promise<string> {
  return writeProject(`
agent "watcher" {
  model       = MODEL
  personality = "You watch the clock."
  tools       = [builtins.utils.current_time]
  ${limits}
}

mission "clock" {
  commander {
    model = MODEL
    ${commanderLimits}
  }
  agents = [agents.watcher]
  task "look" {
    objective = "Look at the clock"
  }
}
`);
}

const COMPACTION = 'compaction {\n    token_limit    = 1000\n    turn_retention = 1\n  }';
const PRUNING = 'pruning {\n    prune_on = 2\n    prune_to = 1\n  }';

/** An agent turn calling the clock, reporting a prompt of `input` tokens. */
function clockTurn(text: string, input: number): ScriptTurn {
  return {
    match: { actor: AGENT },
    text,
    toolCalls: [{ name: 'builtins_utils_current_time', arguments: {} }],
    usage: { input, output: 10 },
  };
}

/** The Responses API input items of one request of the agent. */
function inputOf(body: unknown): Array<{ type?: string; role?: string; content?: unknown }> {
  return (body as { input: Array<{ type?: string; role?: string }> }).input;
}

function cliArgs(baseUrl: string, stateDir: string): string[] {
  return ['--var', 'api_key=test-key', '--var', `base_url=${baseUrl}`, '--state-dir', stateDir];
}

/** What each input item of a request is: a message, a function call or a call's output. */
function kindsOf(input: ReturnType<typeof inputOf>): Array<string | undefined> {
  return input.map((item) => item.type ?? item.role);
}

/** Runs the mission with the agent's limits and turns; the CLI must succeed quietly. */
async function runDelegating(limits: string, agentTurns: ScriptTurn[], output: string) {
  const dir = await project(limits);
  const server = await startModelServer(delegatingTask('look', 'watcher', agentTurns, 'Noon'));
  const stateDir = join(await temporaryDirectory('state'), 'state');
  const run = await sortie(['run', dir, output, ...cliArgs(server.baseUrl('openai'), stateDir)]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  server.assertDone();
  const agentRequests = server.requests.filter((request) => request.actor === AGENT);
  return { run, agentInputs: agentRequests.map((request) => inputOf(request.body)) };
}

describe('agent context limits (CLI)', () => {
  it('compacts the conversation once a reply reports a prompt over token_limit', async () => {
    const { run, agentInputs } = await runDelegating(
      COMPACTION,
      [clockTurn('first look', 400), clockTurn('second look', 1500), reply(AGENT, 'noon')],
      '--json',
    );
    const compacted = jsonLines(run.stdout).filter((event) => event.type === 'context.compacted');
    expect(compacted).toMatchObject([
      {
        actor: AGENT,
        kind: 'compacted',
        from: 3,
        turnsBefore: 2,
        turnsAfter: 1,
        inputTokens: 1500,
      },
    ]);
    const last = agentInputs[2] ?? [];
    // The summary message, then the kept turn: its call and the call's result.
    expect(kindsOf(last)).toEqual(['message', 'message', 'function_call', 'function_call_output']);
    const head = JSON.stringify(last[0]);
    expect(head).toContain('<compacted_context>');
    expect(head).toContain('- first look');
  }, 60_000);

  it('prunes to prune_to turns when the conversation reaches prune_on', async () => {
    const { run, agentInputs } = await runDelegating(
      'pruning {\n    prune_on = 3\n    prune_to = 1\n  }',
      [clockTurn('one', 10), clockTurn('two', 10), clockTurn('three', 10), reply(AGENT, 'noon')],
      '--plain',
    );
    expect(run.stdout).toContain('context pruned: 3 turns → 1');
    const last = agentInputs[3] ?? [];
    expect(JSON.stringify(last[0])).toContain('work on look');
    expect(kindsOf(last)).toEqual(['message', 'message', 'function_call', 'function_call_output']);
  }, 60_000);

  it.each([
    { cut: 'compaction', limits: COMPACTION, head: '<compacted_context>' },
    { cut: 'pruning', limits: PRUNING, head: 'look at the clock, please' },
  ])(
    'resumed after a SIGKILL that followed a $cut, continues from the cut conversation',
    async ({ limits, head }) => {
      const dir = await project(limits);
      const stateDir = join(await temporaryDirectory('state'), 'state');
      const first = await startModelServer([
        call(COMMANDER, 'set_subtasks', { subtasks: ['Look'] }),
        call(COMMANDER, 'call_agent', { name: 'watcher', task: 'look at the clock, please' }),
        clockTurn('first look', 400),
        clockTurn('second look', 1500),
        // Never answered: the CLI is killed while it waits for this reply.
        { match: { actor: AGENT }, text: 'never sent', delayMs: 600_000 },
      ]);
      const runId = await killAtModelRequest(
        dir,
        { stateDir, baseUrl: first.baseUrl('openai') },
        { actor: AGENT, turn: 3 },
      );

      const second = await startModelServer([
        reply(AGENT, 'noon'),
        call(COMMANDER, 'complete_subtask'),
        call(COMMANDER, 'task_complete', { summary: 'Noon' }),
      ]);
      await resumeToEnd(runId, dir, { stateDir, baseUrl: second.baseUrl('openai') });
      second.assertDone();
      const resent = inputOf(second.requests.find((request) => request.actor === AGENT)?.body);
      expect(kindsOf(resent)).toEqual([
        'message',
        'message',
        'function_call',
        'function_call_output',
      ]);
      expect(JSON.stringify(resent[0])).toContain(head);
      const journal = journalOf(stateDir, runId);
      expect(journal.filter((event) => event.type === 'context.compacted')).toHaveLength(1);
    },
    60_000,
  );

  it('a commander compacts too, with its plan in the summary, and resumes from that after a SIGKILL', async () => {
    const dir = await project('', COMPACTION);
    const stateDir = join(await temporaryDirectory('state'), 'state');
    const first = await startModelServer([
      { ...call(COMMANDER, 'set_subtasks', { subtasks: ['Look', 'Tell'] }), usage: { input: 300 } },
      {
        ...call(COMMANDER, 'call_agent', { name: 'watcher', task: 'look at the clock, please' }),
        usage: { input: 1800 },
      },
      reply(AGENT, 'noon'),
      // Never answered: the CLI is killed while it waits for this reply.
      { match: { actor: COMMANDER }, text: 'never sent', delayMs: 600_000 },
    ]);
    const runId = await killAtModelRequest(
      dir,
      { stateDir, baseUrl: first.baseUrl('openai') },
      { actor: COMMANDER, turn: 3 },
    );
    const before = inputOf(
      first.requests.filter((request) => request.actor === COMMANDER)[2]?.body,
    );

    const second = await startModelServer([
      call(COMMANDER, 'complete_subtask'),
      call(COMMANDER, 'complete_subtask'),
      call(COMMANDER, 'task_complete', { summary: 'Noon' }),
    ]);
    await resumeToEnd(runId, dir, { stateDir, baseUrl: second.baseUrl('openai') });
    second.assertDone();
    const after = inputOf(second.requests.find((request) => request.actor === COMMANDER)?.body);
    // Before the kill and after the resume, the same compacted conversation: summary, the call
    // kept, its result.
    for (const input of [before, after]) {
      expect(kindsOf(input)).toEqual(['message', 'function_call', 'function_call_output']);
      expect(JSON.stringify(input[0])).toContain('- plan: [in_progress] Look; [pending] Tell');
    }
    const journal = journalOf(stateDir, runId);
    expect(
      journal.filter((event) => event.type === 'context.compacted').map((event) => event.actor),
    ).toEqual([COMMANDER]);
  }, 60_000);
});
