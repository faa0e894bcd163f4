import { describe, expect, it } from 'vitest';
import { call, reply, resultsAfterTurn, ruleState, runCommander } from './commander-harness.ts';

const finish = call('task_complete', { summary: 'done' });

describe('commander planning rules', () => {
  it('answers set_subtasks with the records, the first in_progress', async () => {
    const run = await runCommander([
      reply(call('set_subtasks', { subtasks: ['Fetch data', 'Write report'] })),
    ]);
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      {
        status: 'ok',
        subtasks: [
          { index: 0, title: 'Fetch data', status: 'in_progress' },
          { index: 1, title: 'Write report', status: 'pending' },
        ],
      },
    ]);
  });

  it('rejects every commander tool but the exceptions until a plan exists, changing nothing', async () => {
    const run = await runCommander([
      reply(
        call('complete_subtask'),
        call('call_agent', { name: 'researcher', task: 'x' }),
        call('task_complete', { summary: 'done' }),
        call('get_subtasks'),
      ),
    ]);
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      {
        status: 'error',
        error: 'plan first: call set_subtasks with 1-10 subtasks before complete_subtask',
      },
      {
        status: 'error',
        error: 'plan first: call set_subtasks with 1-10 subtasks before call_agent',
      },
      {
        status: 'error',
        error: 'plan first: call set_subtasks with 1-10 subtasks before task_complete',
      },
      { status: 'ok', subtasks: [], note: 'no plan yet: call set_subtasks' },
    ]);
    expect(run.executed).toEqual([]);
    expect(run.result.plan).toBeNull();
    expect(run.result.completion).toBeNull();
  });

  it('lets task_complete with succeed false through before any plan', async () => {
    const run = await runCommander([
      reply(call('task_complete', { succeed: false, reason: 'no data' })),
    ]);
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([{ status: 'ok', outcome: 'failed' }]);
    expect(run.result.completion).toEqual({
      outcome: 'failed',
      summary: '',
      reason: 'no data',
      route: null,
      missionInputs: null,
    });
  });

  it('replaces the plan while no subtask is completed', async () => {
    const run = await runCommander([
      reply(
        call('set_subtasks', { subtasks: ['A'] }),
        call('set_subtasks', { subtasks: ['B', 'C'] }),
      ),
    ]);
    expect(run.result.plan).toEqual([
      { index: 0, title: 'B', status: 'in_progress' },
      { index: 1, title: 'C', status: 'pending' },
    ]);
  });

  it('completes subtasks in order and reports the next one', async () => {
    const run = await runCommander([
      reply(call('set_subtasks', { subtasks: ['Fetch data', 'Write report'] })),
      reply(call('complete_subtask'), call('complete_subtask'), call('complete_subtask')),
    ]);
    expect(resultsAfterTurn(run.result.messages, 2)).toEqual([
      {
        status: 'ok',
        completed: { index: 0, title: 'Fetch data' },
        next: { index: 1, title: 'Write report' },
        remaining: 1,
      },
      { status: 'ok', completed: { index: 1, title: 'Write report' }, next: null, remaining: 0 },
      { status: 'error', error: 'all subtasks are already completed' },
    ]);
    expect(run.result.plan?.map((subtask) => subtask.status)).toEqual(['completed', 'completed']);
  });

  it('locks the plan once a subtask is completed, leaving the rule state unchanged', async () => {
    const run = await runCommander([
      reply(
        call('set_subtasks', { subtasks: ['Fetch data', 'Write report'] }),
        call('complete_subtask'),
      ),
      reply(call('set_subtasks', { subtasks: ['Something else'] })),
      reply(finish),
    ]);
    expect(resultsAfterTurn(run.result.messages, 2)).toEqual([
      {
        status: 'error',
        error:
          'plan is locked: subtask 0 "Fetch data" is already completed; finish it with complete_subtask',
      },
    ]);
    const [, before, after] = run.contexts;
    expect(before?.planLocked).toBe(true);
    expect(ruleState(after!)).toEqual(ruleState(before!));
  });

  it('gets the plan with statuses', async () => {
    const run = await runCommander([
      reply(
        call('set_subtasks', { subtasks: ['A', 'B', 'C'] }),
        call('complete_subtask'),
        call('get_subtasks'),
      ),
    ]);
    expect(resultsAfterTurn(run.result.messages, 1)[2]).toEqual({
      status: 'ok',
      subtasks: [
        { index: 0, title: 'A', status: 'completed' },
        { index: 1, title: 'B', status: 'in_progress' },
        { index: 2, title: 'C', status: 'pending' },
      ],
    });
  });

  it('rejects a plan of more than 10 or empty subtasks with path: message problems, changing nothing', async () => {
    const eleven = Array.from({ length: 11 }, (_, index) => `step ${index}`);
    const run = await runCommander([
      reply(
        call('set_subtasks', { subtasks: eleven }),
        call('set_subtasks', { subtasks: ['ok', ''] }),
      ),
      reply(call('get_subtasks')),
    ]);
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      {
        status: 'error',
        error: 'invalid arguments for set_subtasks',
        problems: ['/subtasks: must have at most 10 items'],
      },
      {
        status: 'error',
        error: 'invalid arguments for set_subtasks',
        problems: ['/subtasks/1: must have at least 1 character'],
      },
    ]);
    expect(ruleState(run.contexts[1]!)).toEqual(ruleState(run.contexts[0]!));
  });

  it('continues from a restored rule state (resume)', async () => {
    const restored = {
      plan: [
        { index: 0, title: 'Fetch data', status: 'completed' as const },
        { index: 1, title: 'Write report', status: 'in_progress' as const },
      ],
      planLocked: true,
      output: null,
    };
    const run = await runCommander(
      [reply(call('set_subtasks', { subtasks: ['Other'] }), call('complete_subtask'), finish)],
      restored,
    );
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      {
        status: 'error',
        error:
          'plan is locked: subtask 0 "Fetch data" is already completed; finish it with complete_subtask',
      },
      { status: 'ok', completed: { index: 1, title: 'Write report' }, next: null, remaining: 0 },
      { status: 'ok', outcome: 'succeeded', route: null },
    ]);
  });
});
