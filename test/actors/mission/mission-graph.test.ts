/**
 * A loaded mission's task graph is built once per process (its cycles checked, its tasks
 * sorted), not once per run; a graph that cannot be built is refused every time.
 */
import { describe, expect, it } from 'vitest';
import { graphOfMission } from '../../../src/actors/mission/mission-runtime.ts';
import type { MissionConfig, TaskConfig } from '../../../src/config/config-types.ts';
import { TaskCycleError } from '../../../src/runtime/task-graph.ts';

function mission(tasks: Array<Pick<TaskConfig, 'name' | 'dependsOn'>>): MissionConfig {
  const configs = tasks.map(
    (task) => ({ ...task, sendTo: [], routes: [] }) as unknown as TaskConfig,
  );
  return { tasks: new Map(configs.map((task) => [task.name, task])) } as unknown as MissionConfig;
}

describe('graphOfMission', () => {
  it('gives the same graph for the same loaded mission, and another for another mission', () => {
    const first = mission([
      { name: 'a', dependsOn: [] },
      { name: 'b', dependsOn: ['a'] },
    ]);
    const graph = graphOfMission(first);
    expect(graph.names).toEqual(['a', 'b']);
    expect(graphOfMission(first)).toBe(graph);
    expect(graphOfMission(mission([{ name: 'a', dependsOn: [] }]))).not.toBe(graph);
  });

  it('refuses a mission with a cycle on every call', () => {
    const cyclic = mission([
      { name: 'a', dependsOn: ['b'] },
      { name: 'b', dependsOn: ['a'] },
    ]);
    expect(() => graphOfMission(cyclic)).toThrow(TaskCycleError);
    expect(() => graphOfMission(cyclic)).toThrow(TaskCycleError);
  });
});
