/**
 * A mission's task results are read from the mission machine's task states (their one store):
 * declaration order, the settled task's outcome, and `pending` for a task that never settled.
 */
import { describe, expect, it } from 'vitest';
import { taskResults } from '../../../src/actors/mission/task-results.ts';
import type { MissionConfig } from '../../../src/config/config-types.ts';
import type { MissionTaskStates } from '../../../src/machines/mission-scheduling.ts';

function mission(names: string[]): MissionConfig {
  const tasks = new Map(names.map((name) => [name, { name }]));
  return { name: 'm', tasks } as unknown as MissionConfig;
}

describe('taskResults', () => {
  it('lists every task in declaration order with what its settled actor ended with', () => {
    const states: MissionTaskStates = {
      statuses: {
        route: 'succeeded',
        broken: 'failed',
        never: 'skipped',
        stuck: 'running',
        waiting: 'pending',
      },
      activators: {},
      settled: {
        route: {
          task: 'route',
          status: 'succeeded',
          outcome: {
            status: 'succeeded',
            summary: 'chose b',
            output: { pick: 'b' },
            route: 'b',
            missionInputs: null,
          },
          error: null,
        },
        broken: { task: 'broken', status: 'failed', outcome: null, error: 'boom' },
      },
    };
    expect(taskResults(mission(['waiting', 'route', 'broken', 'never', 'stuck']), states)).toEqual([
      { mission: 'm', name: 'waiting', status: 'pending' },
      {
        mission: 'm',
        name: 'route',
        status: 'succeeded',
        summary: 'chose b',
        output: { pick: 'b' },
        route: 'b',
      },
      { mission: 'm', name: 'broken', status: 'failed', error: 'boom' },
      { mission: 'm', name: 'never', status: 'skipped' },
      { mission: 'm', name: 'stuck', status: 'pending' },
    ]);
  });
});
