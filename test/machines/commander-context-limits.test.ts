import { describe, expect, it } from 'vitest';
import type { ContextCut } from '../../src/runtime/context-window.ts';
import { emptyUsage } from '../../src/models/usage.ts';
import { call, reply, runCommander } from './commander-harness.ts';

const plan = call('set_subtasks', { subtasks: ['Look', 'Tell'] });
const look = call('get_subtasks');
const finish = [
  call('complete_subtask'),
  call('complete_subtask'),
  call('task_complete', { summary: 'told' }),
];

describe('commander context limits', () => {
  it('prunes to prune_to turns, keeping the objective, before the request that follows', async () => {
    const cuts: ContextCut[] = [];
    const run = await runCommander([reply(plan), reply(look), reply(look), reply(...finish)], {
      context: { pruning: { pruneOn: 3, pruneTo: 1 } },
      actions: { emitContextCut: (_, { cut }) => void cuts.push(cut) },
    });
    expect(run.result.completion?.outcome).toBe('succeeded');
    expect(run.turns.map((turn) => turn.messages.length)).toEqual([1, 3, 5, 3]);
    expect(run.turns[3]?.messages[0]).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'Do the task.' }],
    });
    expect(cuts).toMatchObject([{ kind: 'pruned', from: 5, turnsBefore: 3, turnsAfter: 1 }]);
  });

  it('compacts with its plan in the summary, which the dropped turns had set up', async () => {
    const cuts: ContextCut[] = [];
    const heavy = { ...reply(look), usage: { ...emptyUsage(), input: 5000 } };
    const run = await runCommander([reply(plan), heavy, reply(...finish)], {
      context: { compaction: { tokenLimit: 1000, turnRetention: 1 } },
      actions: { emitContextCut: (_, { cut }) => void cuts.push(cut) },
    });
    expect(run.result.completion?.outcome).toBe('succeeded');
    expect(run.turns.map((turn) => turn.messages.length)).toEqual([1, 3, 3]);
    const summary = cuts[0]?.head.parts.at(-1);
    expect(summary?.type === 'text' && summary.text.split('\n').slice(-3)).toEqual([
      'Where things stand now:',
      '- plan: [in_progress] Look; [pending] Tell',
      '</compacted_context>',
    ]);
    expect(cuts).toMatchObject([{ kind: 'compacted', inputTokens: 5000, turnsAfter: 1 }]);
  });
});
