import { describe, expect, it } from 'vitest';
import type { CommanderTask } from '../../src/machines/commander-context.ts';
import {
  call,
  plainTask,
  reply,
  resultsAfterTurn,
  ruleState,
  runCommander,
} from './commander-harness.ts';

const task: CommanderTask = {
  ...plainTask,
  hasAncestors: true,
  outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  routes: [
    { key: 'publish', kind: 'task' },
    {
      key: 'follow_up',
      kind: 'mission',
      inputSchema: {
        type: 'object',
        properties: { topic: { type: 'string' } },
        required: ['topic'],
      },
    },
  ],
};

describe('rejected calls', () => {
  it('leave plan, lock, outputs and completion exactly as they were', async () => {
    const turns = [
      {
        setup: true,
        reply: reply(call('set_subtasks', { subtasks: ['A', 'B'] }), call('complete_subtask')),
      },
      { setup: false, reply: reply(call('set_subtasks', { subtasks: ['X'] })) },
      { setup: false, reply: reply(call('task_complete', {})) },
      { setup: false, reply: reply(call('task_complete', { summary: 's' })) },
      { setup: false, reply: reply(call('submit_output', { output: { n: 'one' } })) },
      { setup: false, reply: reply(call('task_complete', { succeed: false })) },
      { setup: false, reply: reply(call('delete_everything')) },
      { setup: false, reply: reply(call('complete_subtask', '{"oops"')) },
      { setup: true, reply: reply(call('complete_subtask')) },
      { setup: false, reply: reply(call('complete_subtask')) },
      { setup: false, reply: reply(call('task_complete', { summary: 's' })) },
      { setup: true, reply: reply(call('submit_output', { output: { n: 1 } })) },
      { setup: false, reply: reply(call('task_complete', { summary: 's' })) },
      {
        setup: false,
        reply: reply(
          call('task_complete', { summary: 's', route: 'follow_up', mission_inputs: {} }),
        ),
      },
      { setup: false, reply: reply(call('query_task_output', { task: 'x', limit: 1000 })) },
    ];
    const run = await runCommander(
      turns.map((turn) => turn.reply),
      { task },
    );
    turns.forEach((turn, index) => {
      const results = resultsAfterTurn(run.result.messages, index + 1) as Array<{ status: string }>;
      expect(results.every((result) => result.status === (turn.setup ? 'ok' : 'error'))).toBe(true);
      if (turn.setup) return;
      expect(ruleState(run.contexts[index + 1]!)).toEqual(ruleState(run.contexts[index]!));
    });
    expect(run.executed).toEqual([]);
    expect(run.result.completion).toBeNull();
    expect(run.result.output).toEqual({ value: { n: 1 } });
  });
});
