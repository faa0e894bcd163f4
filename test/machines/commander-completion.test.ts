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

const plan = (...titles: string[]) => call('set_subtasks', { subtasks: titles });
const outputSchema = {
  type: 'object',
  properties: { total: { type: 'number' }, top_product: { type: 'string' } },
  required: ['total', 'top_product'],
  additionalProperties: false,
};
const outputTask: CommanderTask = { ...plainTask, outputSchema };
const routerTask: CommanderTask = {
  ...plainTask,
  routes: [
    { key: 'publish', kind: 'task' },
    {
      key: 'report_mission',
      kind: 'mission',
      inputSchema: {
        type: 'object',
        properties: { topic: { type: 'string' } },
        required: ['topic'],
      },
    },
  ],
};

describe('task_complete checks, in order', () => {
  it('1: succeed false needs a reason, and with one fails the task at any time', async () => {
    const run = await runCommander([
      reply(plan('A'), call('task_complete', { succeed: false, reason: '  ' })),
      reply(call('task_complete', { succeed: false, reason: 'source is down', summary: 'tried' })),
    ]);
    expect(resultsAfterTurn(run.result.messages, 1)[1]).toEqual({
      status: 'error',
      error: 'reason is required when succeed is false',
    });
    expect(ruleState(run.contexts[1]!).completion).toBeNull();
    expect(resultsAfterTurn(run.result.messages, 2)).toEqual([{ status: 'ok', outcome: 'failed' }]);
    expect(run.result.completion).toEqual({
      outcome: 'failed',
      summary: 'tried',
      reason: 'source is down',
      route: null,
      missionInputs: null,
    });
    expect(run.result.failure).toBeNull();
  });

  it('2: succeed true needs a summary (before the open-subtask check)', async () => {
    const run = await runCommander([reply(plan('A'), call('task_complete', {}))]);
    expect(resultsAfterTurn(run.result.messages, 1)[1]).toEqual({
      status: 'error',
      error:
        'summary is required when succeed is true: say what was done and found (dependent tasks receive it)',
    });
  });

  it('3: all subtasks completed, counting the open ones', async () => {
    const run = await runCommander([
      reply(plan('A', 'B', 'C', 'D', 'E'), call('complete_subtask'), call('complete_subtask')),
      reply(call('task_complete', { summary: 'done' })),
    ]);
    expect(resultsAfterTurn(run.result.messages, 2)).toEqual([
      {
        status: 'error',
        error:
          '3 of 5 subtasks are not completed; call complete_subtask for each before task_complete',
      },
    ]);
    expect(ruleState(run.contexts[2]!)).toEqual(ruleState(run.contexts[1]!));
  });

  it('4: an output task needs an accepted output (after the subtask check)', async () => {
    const run = await runCommander(
      [
        reply(plan('A'), call('task_complete', { summary: 'done' })),
        reply(call('complete_subtask'), call('task_complete', { summary: 'done' })),
      ],
      { task: outputTask },
    );
    expect(resultsAfterTurn(run.result.messages, 1)[1]).toMatchObject({
      error:
        '1 of 1 subtasks are not completed; call complete_subtask for each before task_complete',
    });
    expect(resultsAfterTurn(run.result.messages, 2)[1]).toEqual({
      status: 'error',
      error: 'no output submitted: call submit_output before task_complete',
    });
  });

  it('6: a router task needs a route, listing the keys; an unknown key fails the schema', async () => {
    const run = await runCommander(
      [
        reply(
          plan('A'),
          call('complete_subtask'),
          call('task_complete', { summary: 'done' }),
          call('task_complete', { summary: 'done', route: 'elsewhere' }),
        ),
      ],
      { task: routerTask },
    );
    expect(resultsAfterTurn(run.result.messages, 1).slice(2)).toEqual([
      { status: 'error', error: 'route is required: one of publish, report_mission, none' },
      {
        status: 'error',
        error: 'invalid arguments for task_complete',
        problems: [
          '/route: must be equal to one of the allowed values: publish, report_mission, none',
        ],
      },
    ]);
    expect(run.result.completion).toBeNull();
  });

  it('6: a mission route needs valid mission_inputs', async () => {
    const run = await runCommander(
      [
        reply(plan('A'), call('complete_subtask')),
        reply(
          call('task_complete', {
            summary: 'done',
            route: 'report_mission',
            mission_inputs: { topic: 7 },
          }),
        ),
        reply(
          call('task_complete', {
            summary: 'done',
            route: 'report_mission',
            mission_inputs: { topic: 'ai' },
          }),
        ),
      ],
      { task: routerTask },
    );
    expect(resultsAfterTurn(run.result.messages, 2)).toEqual([
      {
        status: 'error',
        error: 'mission_inputs do not match the inputs of mission "report_mission"',
        problems: ['/topic: must be string'],
      },
    ]);
    expect(ruleState(run.contexts[2]!)).toEqual(ruleState(run.contexts[1]!));
    expect(resultsAfterTurn(run.result.messages, 3)).toEqual([
      { status: 'ok', outcome: 'succeeded', route: 'report_mission' },
    ]);
    expect(run.result.completion).toEqual({
      outcome: 'succeeded',
      summary: 'done',
      reason: null,
      route: 'report_mission',
      missionInputs: { topic: 'ai' },
    });
  });

  it('records a null route for none and without a router', async () => {
    const routed = await runCommander(
      [
        reply(
          plan('A'),
          call('complete_subtask'),
          call('task_complete', { summary: 's', route: 'none' }),
        ),
      ],
      { task: routerTask },
    );
    expect(resultsAfterTurn(routed.result.messages, 1)[2]).toEqual({
      status: 'ok',
      outcome: 'succeeded',
      route: null,
    });
    expect(routed.result.completion?.route).toBeNull();
    const plain = await runCommander([
      reply(plan('A'), call('complete_subtask'), call('task_complete', { summary: 's' })),
    ]);
    expect(resultsAfterTurn(plain.result.messages, 1)[2]).toEqual({
      status: 'ok',
      outcome: 'succeeded',
      route: null,
    });
    expect(plain.result.completion?.route).toBeNull();
  });

  it('answers every call after an accepted task_complete with task already completed, then stops', async () => {
    const run = await runCommander([
      reply(
        plan('A'),
        call('complete_subtask'),
        call('task_complete', { summary: 'done' }),
        call('call_agent', { name: 'researcher', task: 'more' }),
        call('no_such_tool'),
      ),
    ]);
    expect(resultsAfterTurn(run.result.messages, 1).slice(2)).toEqual([
      { status: 'ok', outcome: 'succeeded', route: null },
      { status: 'error', error: 'task already completed' },
      { status: 'error', error: 'task already completed' },
    ]);
    expect(run.executed).toEqual([]);
    expect(run.turns).toHaveLength(1);
    expect(run.result.completion?.outcome).toBe('succeeded');
  });
});

describe('submit_output', () => {
  it('validates the output against the schema and lists the problems, changing nothing', async () => {
    const run = await runCommander(
      [
        reply(plan('A'), call('submit_output', { output: { total: 'many' } })),
        reply(call('get_subtasks')),
      ],
      { task: outputTask },
    );
    expect(resultsAfterTurn(run.result.messages, 1)[1]).toEqual({
      status: 'error',
      error: 'output does not match the schema',
      problems: ["/: must have required property 'top_product'", '/total: must be number'],
    });
    expect(ruleState(run.contexts[1]!).output).toBeNull();
  });

  it('rejects a call without the output envelope as invalid arguments', async () => {
    const run = await runCommander([reply(plan('A'), call('submit_output', { total: 1 }))], {
      task: outputTask,
    });
    expect(resultsAfterTurn(run.result.messages, 1)[1]).toEqual({
      status: 'error',
      error: 'invalid arguments for submit_output',
      problems: [
        "/: must have required property 'output'",
        "/: must NOT have additional property 'total'",
      ],
    });
  });

  it('accepts a valid output and replaces it on resubmission', async () => {
    const run = await runCommander(
      [
        reply(
          plan('A'),
          call('submit_output', { output: { total: 1, top_product: 'tea' } }),
          call('submit_output', { output: { total: 2, top_product: 'coffee' } }),
          call('complete_subtask'),
          call('task_complete', { summary: 'sales summed' }),
        ),
      ],
      { task: outputTask },
    );
    expect(resultsAfterTurn(run.result.messages, 1).slice(1, 3)).toEqual([
      { status: 'ok' },
      { status: 'ok', replaced: true },
    ]);
    expect(run.result.output).toEqual({ value: { total: 2, top_product: 'coffee' } });
    expect(run.result.completion?.outcome).toBe('succeeded');
  });

  it('records the output with its defaults filled in', async () => {
    const schema = {
      ...outputSchema,
      properties: { ...outputSchema.properties, currency: { type: 'string', default: 'EUR' } },
    };
    const run = await runCommander(
      [reply(plan('A'), call('submit_output', { output: { total: 1, top_product: 'tea' } }))],
      { task: { ...outputTask, outputSchema: schema } },
    );
    expect(run.result.output).toEqual({
      value: { total: 1, top_product: 'tea', currency: 'EUR' },
    });
  });

  it('answers with the item index on a parallel item commander', async () => {
    const run = await runCommander(
      [reply(plan('A'), call('submit_output', { output: { total: 1, top_product: 'tea' } }))],
      { task: { ...outputTask, iterator: 'parallel' }, itemIndex: 4 },
    );
    expect(resultsAfterTurn(run.result.messages, 1)[1]).toEqual({ status: 'ok', index: 4 });
  });
});
