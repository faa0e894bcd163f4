import { describe, expect, it } from 'vitest';
import {
  isFinished,
  TaskCycleError,
  TaskGraph,
  type TaskNode,
  type TaskStatus,
} from '../../src/runtime/task-graph.ts';

const node = (name: string, parts: Partial<TaskNode> = {}): TaskNode => ({
  name,
  dependsOn: [],
  routes: [],
  sendTo: [],
  ...parts,
});

/** classify routes to urgent or normal (or another mission); urgent sends to alert and log. */
const TASKS: TaskNode[] = [
  node('classify', { dependsOn: ['fetch'], routes: ['urgent', 'normal', 'other_mission'] }),
  node('fetch'),
  node('urgent', { sendTo: ['alert', 'log'] }),
  node('normal'),
  node('report', { dependsOn: ['fetch'] }),
  node('alert'),
  node('log'),
  node('final', { dependsOn: ['report', 'normal'] }),
];

const states = (entries: Record<string, TaskStatus>) => new Map(Object.entries(entries));

describe('TaskGraph', () => {
  const graph = new TaskGraph(TASKS);

  it('knows which tasks some later task can ask about (has descendants)', () => {
    const askable = TASKS.map((task) => task.name).filter((name) => graph.hasDescendants(name));
    // fetch and report have dependents, classify routes, urgent sends, normal feeds final.
    expect(askable).toEqual(['classify', 'fetch', 'urgent', 'normal', 'report']);
  });

  it('tells static tasks from route and send_to targets', () => {
    expect(graph.isDynamic('urgent')).toBe(true);
    expect(graph.isDynamic('alert')).toBe(true);
    expect(graph.isDynamic('final')).toBe(false);
    expect(graph.activatorsOf('alert')).toEqual(['urgent']);
    expect(graph.activatorsOf('fetch')).toEqual([]);
  });

  it('orders tasks topologically with declaration order breaking ties', () => {
    expect(graph.topologicalOrder()).toEqual([
      'fetch',
      'classify',
      'urgent',
      'normal',
      'report',
      'alert',
      'log',
      'final',
    ]);
  });

  it('finds ancestors through depends_on and the activating task, transitively', () => {
    const activatedBy = (task: string) =>
      ({ urgent: 'classify', normal: 'classify', alert: 'urgent' })[task];
    expect(graph.ancestors('alert', activatedBy)).toEqual(['fetch', 'classify', 'urgent']);
    expect(graph.ancestors('final', activatedBy)).toEqual([
      'fetch',
      'classify',
      'normal',
      'report',
    ]);
    expect(graph.ancestors('report', activatedBy)).toEqual(['fetch']);
    expect(graph.ancestors('fetch', activatedBy)).toEqual([]);
    expect(graph.ancestors('alert', () => undefined)).toEqual([]);
  });

  it('finds ready tasks: pending, dependencies succeeded, static or activated', () => {
    expect(graph.readyTasks(states({}), new Set())).toEqual(['fetch']);
    expect(graph.readyTasks(states({ fetch: 'running' }), new Set())).toEqual([]);
    expect(graph.readyTasks(states({ fetch: 'succeeded' }), new Set())).toEqual([
      'classify',
      'report',
    ]);
    expect(
      graph.readyTasks(
        states({ fetch: 'succeeded', classify: 'succeeded', report: 'running' }),
        new Set(['normal']),
      ),
    ).toEqual(['normal']);
    expect(
      graph.readyTasks(
        states({
          fetch: 'succeeded',
          classify: 'succeeded',
          report: 'succeeded',
          normal: 'succeeded',
        }),
        new Set(['normal']),
      ),
    ).toEqual(['final']);
  });

  it('skips route targets nobody can activate any more, cascading through send_to', () => {
    const finished = states({ fetch: 'succeeded', classify: 'succeeded' });
    expect(graph.unreachableTasks(finished, new Set(['normal']))).toEqual([
      { task: 'urgent', reason: 'not_activated', cause: null },
      { task: 'alert', reason: 'not_activated', cause: null },
      { task: 'log', reason: 'not_activated', cause: null },
    ]);
    expect(
      graph.unreachableTasks(states({ fetch: 'succeeded', classify: 'running' }), new Set()),
    ).toEqual([]);
  });

  it('skips everything downstream of a failure', () => {
    expect(graph.unreachableTasks(states({ fetch: 'failed' }), new Set())).toEqual([
      { task: 'classify', reason: 'upstream_failed', cause: 'fetch' },
      { task: 'urgent', reason: 'not_activated', cause: null },
      { task: 'normal', reason: 'not_activated', cause: null },
      { task: 'report', reason: 'upstream_failed', cause: 'fetch' },
      { task: 'alert', reason: 'not_activated', cause: null },
      { task: 'log', reason: 'not_activated', cause: null },
      { task: 'final', reason: 'upstream_skipped', cause: 'report' },
    ]);
    expect(
      graph.unreachableTasks(
        states({ fetch: 'succeeded', classify: 'succeeded', report: 'cancelled' }),
        new Set(['normal']),
      ),
    ).toEqual([
      { task: 'urgent', reason: 'not_activated', cause: null },
      { task: 'alert', reason: 'not_activated', cause: null },
      { task: 'log', reason: 'not_activated', cause: null },
      { task: 'final', reason: 'upstream_failed', cause: 'report' },
    ]);
  });

  it('rejects cycles through depends_on or routes', () => {
    expect(
      () => new TaskGraph([node('a', { dependsOn: ['b'] }), node('b', { dependsOn: ['a'] })]),
    ).toThrow(TaskCycleError);
    let caught: unknown;
    try {
      new TaskGraph([node('x'), node('a', { routes: ['b'] }), node('b', { sendTo: ['a'] })]);
    } catch (error) {
      caught = error;
    }
    expect((caught as TaskCycleError).tasks).toEqual(['a', 'b']);
    expect((caught as TaskCycleError).message).toBe('tasks form a cycle: a, b');
  });

  it('names only the tasks on a cycle, not the tasks waiting behind it', () => {
    let caught: unknown;
    try {
      new TaskGraph([
        node('late', { dependsOn: ['a'] }),
        node('a', { dependsOn: ['b'] }),
        node('b', { dependsOn: ['a'] }),
        node('self', { dependsOn: ['self'] }),
      ]);
    } catch (error) {
      caught = error;
    }
    expect((caught as TaskCycleError).tasks).toEqual(['a', 'b', 'self']);
  });
});

describe('isFinished', () => {
  it('is true for final states only', () => {
    const all: TaskStatus[] = ['pending', 'running', 'succeeded', 'failed', 'cancelled', 'skipped'];
    expect(all.filter(isFinished)).toEqual(['succeeded', 'failed', 'cancelled', 'skipped']);
  });
});
