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

const outputSchema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};
const sequentialTask: CommanderTask = { ...plainTask, outputSchema, iterator: 'sequential' };
const items = [{ name: 'Oslo' }, { name: 'Lima' }];
const plan = (...titles: string[]) => call('set_subtasks', { subtasks: titles });
const next = () => call('dataset_next');
const submit = (city: string) => call('submit_output', { output: { city } });

describe('commander on a sequential dataset task', () => {
  it('hands out items, takes one output per item and completes after exhaustion', async () => {
    const run = await runCommander(
      [
        reply(next(), plan('Look up'), call('complete_subtask'), submit('Oslo')),
        reply(
          next(),
          plan('Look up again'),
          call('complete_subtask'),
          submit('Lima'),
          submit('Lima, Peru'),
        ),
        reply(next(), next(), call('task_complete', { summary: 'both cities' })),
      ],
      { task: sequentialTask, items },
    );
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      { status: 'ok', index: 0, total: 2, item: { name: 'Oslo' } },
      { status: 'ok', subtasks: [{ index: 0, title: 'Look up', status: 'in_progress' }] },
      { status: 'ok', completed: { index: 0, title: 'Look up' }, next: null, remaining: 0 },
      { status: 'ok', index: 0 },
    ]);
    expect(resultsAfterTurn(run.result.messages, 2)).toEqual([
      { status: 'ok', index: 1, total: 2, item: { name: 'Lima' } },
      { status: 'ok', subtasks: [{ index: 0, title: 'Look up again', status: 'in_progress' }] },
      { status: 'ok', completed: { index: 0, title: 'Look up again' }, next: null, remaining: 0 },
      { status: 'ok', index: 1 },
      { status: 'ok', index: 1, replaced: true },
    ]);
    expect(resultsAfterTurn(run.result.messages, 3)).toEqual([
      { status: 'exhausted', total: 2, processed: 2 },
      { status: 'exhausted', total: 2, processed: 2 },
      { status: 'ok', outcome: 'succeeded', route: null },
    ]);
    expect(run.result.itemOutputs).toEqual({ 0: { city: 'Oslo' }, 1: { city: 'Lima, Peru' } });
  });

  it('keeps the plan locked when re-planning the same item after a completion', async () => {
    const run = await runCommander(
      [reply(next(), plan('A', 'B'), call('complete_subtask')), reply(plan('C'))],
      { task: sequentialTask, items },
    );
    expect(resultsAfterTurn(run.result.messages, 2)).toEqual([
      {
        status: 'error',
        error:
          'plan is locked: subtask 0 "A" is already completed; finish it with complete_subtask; or call dataset_next to move to the next item and plan again',
      },
    ]);
    expect(ruleState(run.contexts[2]!)).toEqual(ruleState(run.contexts[1]!));
  });

  it('refuses the next item before the current one has an output, changing nothing', async () => {
    const run = await runCommander(
      [reply(next(), plan('A'), call('complete_subtask')), reply(next())],
      {
        task: sequentialTask,
        items,
      },
    );
    expect(resultsAfterTurn(run.result.messages, 2)).toEqual([
      { status: 'error', error: 'submit_output for item 0 first' },
    ]);
    expect(ruleState(run.contexts[2]!)).toEqual(ruleState(run.contexts[1]!));
    expect(run.contexts[2]?.planLocked).toBe(true);
  });

  it('refuses the next item while subtasks are open', async () => {
    const run = await runCommander(
      [reply(next(), plan('A', 'B', 'C', 'D'), call('complete_subtask'), submit('Oslo'), next())],
      {
        task: sequentialTask,
        items,
      },
    );
    expect(resultsAfterTurn(run.result.messages, 1)[4]).toEqual({
      status: 'error',
      error: 'complete the remaining subtasks first: 3 of 4 open',
    });
  });

  it('allows dataset_next before any plan (plan-first exception)', async () => {
    const run = await runCommander([reply(next())], { task: sequentialTask, items });
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      { status: 'ok', index: 0, total: 2, item: { name: 'Oslo' } },
    ]);
  });

  it('refuses submit_output before the first item and task_complete before exhaustion', async () => {
    const run = await runCommander(
      [
        reply(
          plan('A'),
          call('complete_subtask'),
          submit('Oslo'),
          call('task_complete', { summary: 'x' }),
        ),
      ],
      { task: sequentialTask, items },
    );
    expect(resultsAfterTurn(run.result.messages, 1).slice(2)).toEqual([
      { status: 'error', error: 'no current item: call dataset_next first' },
      {
        status: 'error',
        error:
          'the dataset is not finished: call dataset_next until it returns "exhausted", then task_complete',
      },
    ]);
  });

  it('refuses submit_output after exhaustion', async () => {
    const run = await runCommander(
      [
        reply(
          next(),
          plan('A'),
          call('complete_subtask'),
          submit('Oslo'),
          next(),
          next(),
          submit('x'),
        ),
      ],
      { task: sequentialTask, items: [{ name: 'Oslo' }] },
    );
    expect(resultsAfterTurn(run.result.messages, 1).slice(4)).toEqual([
      { status: 'exhausted', total: 1, processed: 1 },
      { status: 'exhausted', total: 1, processed: 1 },
      {
        status: 'error',
        error: 'no current item: the dataset is exhausted',
      },
    ]);
  });

  it('a retry continues from the first item without an accepted output, keeping earlier outputs', async () => {
    const run = await runCommander(
      [
        reply(
          next(),
          plan('A'),
          call('complete_subtask'),
          submit('Lima'),
          next(),
          call('task_complete', { summary: 's' }),
        ),
      ],
      { task: sequentialTask, items, acceptedOutputs: { 0: { city: 'Oslo' } } },
    );
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      { status: 'ok', index: 1, total: 2, item: { name: 'Lima' } },
      { status: 'ok', subtasks: [{ index: 0, title: 'A', status: 'in_progress' }] },
      { status: 'ok', completed: { index: 0, title: 'A' }, next: null, remaining: 0 },
      { status: 'ok', index: 1 },
      { status: 'exhausted', total: 2, processed: 2 },
      { status: 'ok', outcome: 'succeeded', route: null },
    ]);
    expect(run.result.itemOutputs).toEqual({ 0: { city: 'Oslo' }, 1: { city: 'Lima' } });
  });

  it('without an output schema, moves on once subtasks are completed', async () => {
    const run = await runCommander(
      [
        reply(
          next(),
          plan('A'),
          call('complete_subtask'),
          next(),
          next(),
          next(),
          call('task_complete', { summary: 's' }),
        ),
      ],
      { task: { ...plainTask, iterator: 'sequential' }, items },
    );
    expect(resultsAfterTurn(run.result.messages, 1).slice(3)).toEqual([
      { status: 'ok', index: 1, total: 2, item: { name: 'Lima' } },
      { status: 'exhausted', total: 2, processed: 2 },
      { status: 'exhausted', total: 2, processed: 2 },
      { status: 'ok', outcome: 'succeeded', route: null },
    ]);
  });

  it('reports plan updates and outputs with the item they belong to', async () => {
    const effects: string[] = [];
    await runCommander(
      [
        reply(
          next(),
          next(),
          plan('A'),
          call('complete_subtask'),
          submit('Oslo'),
          next(),
          plan('B'),
        ),
      ],
      {
        task: sequentialTask,
        items,
        actions: {
          emitPlanUpdated: (_, params) => effects.push(`plan ${String(params.index)}`),
          emitOutputSubmitted: (_, params) =>
            effects.push(`output ${String(params.index)} ${String(params.replaced)}`),
        },
      },
    );
    expect(effects).toEqual(['plan 0', 'plan 0', 'output 0 false', 'plan 1']);
  });
});
