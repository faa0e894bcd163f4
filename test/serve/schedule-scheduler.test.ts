import { describe, expect, it } from 'vitest';
import type { ScheduleConfig } from '../../src/config/serve-config-types.ts';
import { startScheduler } from '../../src/serve/scheduler.ts';
import { ManualClock } from './schedule-clock.ts';

function schedule(line: number, fields: Partial<ScheduleConfig>): ScheduleConfig {
  const start = { line, column: 3, offset: 0 };
  return { span: { file: 'main.hcl', start, end: start }, inputs: {}, ...fields };
}

/** A scheduler on a manual clock, recording fires and log lines. */
function harness(
  missions: Array<{ name: string; schedules: ScheduleConfig[] }>,
  start: string,
  fire: (missionName: string) => unknown = () => undefined,
  longestTimerMs?: number,
) {
  const clock = new ManualClock(start, longestTimerMs);
  const fires: string[] = [];
  const log: string[] = [];
  const scheduler = startScheduler({
    missions,
    clock,
    log: (line) => log.push(line),
    fire: (missionName, inputs, _schedule, firedAt) => {
      fires.push(`${firedAt.toISOString()} ${missionName} ${JSON.stringify(inputs)}`);
      return fire(missionName);
    },
  });
  return { clock, fires, log, scheduler };
}

describe('the scheduler', () => {
  it('logs each schedule at start with its next time and the one it missed, then fires on time', () => {
    const { clock, fires, log, scheduler } = harness(
      [
        {
          name: 'report',
          schedules: [
            schedule(18, {
              at: [
                { hour: 9, minute: 0 },
                { hour: 17, minute: 30 },
              ],
              timezone: 'America/Chicago',
              inputs: { kind: 'daily' },
            }),
            schedule(24, {
              every: '2h',
              weekdays: [1],
              timezone: 'UTC',
              inputs: { kind: 'hourly' },
            }),
          ],
        },
        { name: 'idle', schedules: [] },
      ],
      // Saturday 2026-11-28, 10:07 in Chicago.
      '2026-11-28T16:07:00Z',
    );
    expect(log).toEqual([
      'schedule of mission "report" (at 09:00, 17:30, main.hcl:18:3): next 2026-11-28 17:30 -06:00; 2026-11-28 09:00 -06:00 missed while not serving, not caught up',
      'schedule of mission "report" (every 2h on mon, main.hcl:24:3): next 2026-11-30 00:00 +00:00; 2026-11-23 22:00 +00:00 missed while not serving, not caught up',
    ]);
    expect(fires).toEqual([]);
    clock.advanceTo('2026-11-30T04:00:00Z');
    expect(fires).toEqual([
      '2026-11-28T23:30:00.000Z report {"kind":"daily"}',
      '2026-11-29T15:00:00.000Z report {"kind":"daily"}',
      '2026-11-29T23:30:00.000Z report {"kind":"daily"}',
      '2026-11-30T00:00:00.000Z report {"kind":"hourly"}',
      '2026-11-30T02:00:00.000Z report {"kind":"hourly"}',
      '2026-11-30T04:00:00.000Z report {"kind":"hourly"}',
    ]);
    expect(clock.pending()).toBe(2);
    scheduler.stop();
    expect(clock.pending()).toBe(0);
    clock.advanceTo('2026-12-07T00:00:00Z');
    expect(fires).toHaveLength(6);
  });

  it('fires across a DST change at the shifted time, once', () => {
    const { clock, fires } = harness(
      [
        {
          name: 'night',
          schedules: [schedule(18, { at: [{ hour: 2, minute: 30 }], timezone: 'America/Chicago' })],
        },
      ],
      '2026-03-07T00:00:00Z',
    );
    clock.advanceTo('2026-03-10T00:00:00Z');
    expect(fires).toEqual([
      '2026-03-07T08:30:00.000Z night {}',
      '2026-03-08T08:00:00.000Z night {}',
      '2026-03-09T07:30:00.000Z night {}',
    ]);
  });

  it('does not catch up the times it slept through: it fires the overdue one once, late, and waits for the next', () => {
    const { clock, fires } = harness(
      [{ name: 'tick', schedules: [schedule(18, { every: '15m', timezone: 'UTC' })] }],
      '2026-11-28T10:07:00Z',
    );
    // The machine sleeps from 10:14 to 11:02: the 10:15 timer runs late, 10:30 to 11:00 never.
    const late = '2026-11-28T11:02:00Z';
    clock.advanceTo('2026-11-28T10:14:00Z');
    clock.jumpTo(late);
    clock.advanceTo(late);
    clock.advanceTo('2026-11-28T11:20:00Z');
    expect(fires).toEqual(['2026-11-28T10:15:00.000Z tick {}', '2026-11-28T11:15:00.000Z tick {}']);
  });

  it('waits longer than one timer can in several, and still fires on time', () => {
    const day = 24 * 60 * 60 * 1000;
    const { clock, fires } = harness(
      [{ name: 'yearly', schedules: [schedule(18, { cron: '0 0 1 1 *', timezone: 'UTC' })] }],
      '2026-11-28T00:00:00Z',
      undefined,
      10 * day,
    );
    clock.advanceTo('2026-12-31T23:59:00Z');
    expect(fires).toEqual([]);
    clock.advanceTo('2027-01-01T00:00:00Z');
    expect(fires).toEqual(['2027-01-01T00:00:00.000Z yearly {}']);
  });

  it('logs a fire that throws or rejects, and keeps firing', async () => {
    let count = 0;
    const { clock, fires, log } = harness(
      [{ name: 'flaky', schedules: [schedule(18, { every: '1m', timezone: 'UTC' })] }],
      '2026-11-28T10:00:30Z',
      () => {
        count += 1;
        if (count === 1) throw new Error('queue is full');
        return Promise.reject(new Error('mission "flaky" failed to start'));
      },
    );
    clock.advanceTo('2026-11-28T10:02:00Z');
    await Promise.resolve();
    expect(fires).toHaveLength(2);
    expect(log.slice(1)).toEqual([
      'schedule of mission "flaky" (every 1m, main.hcl:18:3): firing at 2026-11-28 10:01 +00:00 failed: queue is full',
      'schedule of mission "flaky" (every 1m, main.hcl:18:3): firing at 2026-11-28 10:02 +00:00 failed: mission "flaky" failed to start',
    ]);
  });
});
