/** `sortie show`'s task durations over a run's sessions (summarizeRun), at exact times. */
import { describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent } from '../../src/base/events.ts';
import { summarizeRun } from '../../src/journal/summary.ts';

const START = Date.parse('2026-11-28T09:00:00.000Z');

/** Events stamped at the given seconds after START. */
function events(...timed: Array<[seconds: number, event: EventInput]>): MissionEvent[] {
  return timed.map(
    ([seconds, event], index) =>
      ({
        ...event,
        seq: index + 1,
        runId: 'run-1',
        time: new Date(START + seconds * 1000).toISOString(),
      }) as MissionEvent,
  );
}

const runStarted = (resumed: boolean): EventInput => ({
  type: 'run.started',
  actor: 'run',
  mission: 'm',
  resumed,
});
const missionStarted: EventInput = {
  type: 'mission.started',
  actor: 'mission:m',
  mission: 'm',
  inputs: {},
  chainedFrom: null,
};
const started = (task: string, restored = false): EventInput => ({
  type: 'task.started',
  actor: `task:${task}`,
  task,
  activatedBy: null,
  iterated: false,
  ...(restored ? { restored } : {}),
});
const succeeded = (task: string, durationMs: number): EventInput => ({
  type: 'task.succeeded',
  actor: `task:${task}`,
  task,
  summary: 'done',
  output: null,
  route: null,
  durationMs,
});

function durations(journal: MissionEvent[]): Record<string, number | undefined> {
  return Object.fromEntries(
    summarizeRun(journal).tasks.map((task) => [task.name, task.durationMs]),
  );
}

describe('task durations over sessions', () => {
  it('adds a cancelled part and the resumed part; a restored task keeps its time', () => {
    const journal = events(
      [0, runStarted(false)],
      [0, missionStarted],
      [1, started('a')],
      [4, succeeded('a', 3000)],
      [5, started('b')],
      [12, { type: 'task.cancelled', actor: 'task:b', task: 'b', reason: 'cancelled by the user' }],
      [100, runStarted(true)],
      [100, missionStarted],
      [100, started('a', true)],
      [100, succeeded('a', 2)],
      [101, started('b')],
      [110, succeeded('b', 9000)],
    );
    expect(durations(journal)).toEqual({ a: 3000, b: 7000 + 9000 });
  });

  it('a part a crash ended runs to the last event of its session', () => {
    const journal = events(
      [0, runStarted(false)],
      [0, missionStarted],
      [2, started('b')],
      [7, { type: 'warning', actor: 'run', code: 'slow', message: 'slow' }],
      [60, runStarted(true)],
      [60, missionStarted],
      [61, started('b')],
      [64, succeeded('b', 3000)],
    );
    expect(durations(journal)).toEqual({ b: 5000 + 3000 });
  });

  it('a run in one session shows the time its task.succeeded says', () => {
    const journal = events(
      [0, runStarted(false)],
      [0, missionStarted],
      [1, started('a')],
      [3, succeeded('a', 1234)],
    );
    expect(durations(journal)).toEqual({ a: 1234 });
  });
});
