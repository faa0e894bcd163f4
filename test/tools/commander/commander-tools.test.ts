import { describe, expect, it } from 'vitest';
import type { TaskShape } from '../../../src/tools/commander/index.ts';
import { commanderTools } from '../../../src/tools/commander/index.ts';

const names = (task: TaskShape) => commanderTools(task).map((tool) => tool.name);
const bare: TaskShape = { hasAgents: false, hasAskableAgents: false, hasAncestors: false };
const plain: TaskShape = { hasAgents: true, hasAskableAgents: true, hasAncestors: false };
const outputSchema = {
  type: 'object',
  properties: {
    total: { type: 'number', description: 'Sum of sales' },
    top_product: { type: 'string' },
  },
  required: ['total', 'top_product'],
};

/** The tools exactly as serialised into a model request. */
const wire = (task: TaskShape) => `${JSON.stringify(commanderTools(task), null, 2)}\n`;

describe('commanderTools presence and order', () => {
  it('always offers planning and task_complete', () => {
    expect(names(bare)).toEqual([
      'set_subtasks',
      'get_subtasks',
      'complete_subtask',
      'task_complete',
    ]);
  });

  it('adds call_agent and ask_agent with agents, ask_agent alone for askable ancestors', () => {
    expect(names(plain)).toEqual([
      'set_subtasks',
      'get_subtasks',
      'complete_subtask',
      'call_agent',
      'ask_agent',
      'task_complete',
    ]);
    expect(names({ ...bare, hasAskableAgents: true })).toContain('ask_agent');
    expect(names({ ...bare, hasAskableAgents: true })).not.toContain('call_agent');
  });

  it('lists every tool in the fixed order: planning, delegation, data, completion, dataset_next', () => {
    expect(names({ ...plain, hasAncestors: true, outputSchema, iterator: 'sequential' })).toEqual([
      'set_subtasks',
      'get_subtasks',
      'complete_subtask',
      'call_agent',
      'ask_agent',
      'query_task_output',
      'ask_commander',
      'list_commander_questions',
      'get_commander_answer',
      'task_complete',
      'submit_output',
      'dataset_next',
    ]);
  });

  it('offers dataset_next only to sequential tasks', () => {
    expect(names({ ...plain, iterator: 'parallel' })).not.toContain('dataset_next');
  });

  it('offers route only with a router, mission_inputs only with a mission route', () => {
    const complete = (task: TaskShape) =>
      commanderTools(task).find((tool) => tool.name === 'task_complete');
    const properties = (task: TaskShape) =>
      Object.keys(complete(task)?.parameters.properties as object);
    expect(properties(plain)).toEqual(['summary', 'succeed', 'reason']);
    expect(properties({ ...plain, routes: [{ key: 'publish', kind: 'task' }] })).toEqual([
      'summary',
      'succeed',
      'reason',
      'route',
    ]);
    expect(properties({ ...plain, routes: [{ key: 'report', kind: 'mission' }] })).toEqual([
      'summary',
      'succeed',
      'reason',
      'route',
      'mission_inputs',
    ]);
  });

  it('embeds the real output schema in submit_output', () => {
    const submit = commanderTools({ ...plain, outputSchema }).find(
      (tool) => tool.name === 'submit_output',
    );
    expect(submit?.parameters).toEqual({
      type: 'object',
      properties: { output: outputSchema },
      required: ['output'],
      additionalProperties: false,
    });
  });

  it('keeps a plain commander small: its tools serialise to under 3,200 characters', () => {
    expect(JSON.stringify(commanderTools(plain)).length).toBeLessThan(3200);
  });
});

describe('commander tool schemas as sent to models', () => {
  it('plain task', async () => {
    await expect(wire(plain)).toMatchFileSnapshot('./__snapshots__/plain-task.json.snap');
  });

  it('router task with a mission route', async () => {
    const task: TaskShape = {
      ...plain,
      hasAncestors: true,
      routes: [
        { key: 'publish', kind: 'task' },
        { key: 'follow_up', kind: 'mission' },
      ],
    };
    await expect(wire(task)).toMatchFileSnapshot('./__snapshots__/router-task.json.snap');
  });

  it('output task', async () => {
    await expect(wire({ ...plain, outputSchema })).toMatchFileSnapshot(
      './__snapshots__/output-task.json.snap',
    );
  });

  it('sequential task', async () => {
    const task: TaskShape = { ...plain, outputSchema, iterator: 'sequential' };
    await expect(wire(task)).toMatchFileSnapshot('./__snapshots__/sequential-task.json.snap');
  });
});

describe('commanderTools reuse', () => {
  it('gives the same shape object the same frozen list while its fields stay the same', () => {
    const shape: TaskShape = { ...plain, outputSchema };
    const first = commanderTools(shape);
    expect(commanderTools(shape)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => first.push(first[0]!)).toThrow(TypeError);
  });

  it('builds a new list when a field of the shape object changed', () => {
    const shape: TaskShape = { ...bare };
    const before = commanderTools(shape);
    shape.routes = [{ key: 'next', kind: 'task' }];
    const after = commanderTools(shape);
    expect(after).not.toBe(before);
    const route = after.find((tool) => tool.name === 'task_complete')?.parameters as {
      properties: Record<string, { enum?: string[] }>;
    };
    expect(route.properties.route?.enum).toEqual(['next', 'none']);
  });
});
