import { describe, expect, it } from 'vitest';
import type { ScheduleConfig } from '../../src/config/serve-config-types.ts';
import { formatZonedTime } from '../../src/present/schedule-text.ts';
import { cronPatternsOf, scheduleTimes } from '../../src/serve/schedule-times.ts';

const SPAN = {
  file: 'main.hcl',
  start: { line: 1, column: 1, offset: 0 },
  end: { line: 1, column: 2, offset: 1 },
};

function schedule(fields: Partial<ScheduleConfig>): ScheduleConfig {
  return { span: SPAN, inputs: {}, ...fields };
}

/** The next `count` fire times after `from`, as wall-clock times in the schedule's zone. */
function upcoming(config: ScheduleConfig, from: string, count: number): string[] {
  return scheduleTimes(config)
    .upcoming(count, new Date(from))
    .map((date) => formatZonedTime(date, config.timezone ?? 'UTC'));
}

describe('schedule fire times', () => {
  it('fires several at times at exactly those times, not at their hours and minutes crossed', () => {
    const config = schedule({
      at: [
        { hour: 9, minute: 0 },
        { hour: 17, minute: 0 },
        { hour: 17, minute: 30 },
      ],
      timezone: 'UTC',
    });
    expect(cronPatternsOf(config)).toEqual(['0 9,17 * * *', '30 17 * * *']);
    expect(upcoming(config, '2026-11-28T08:00:00Z', 4)).toEqual([
      '2026-11-28 09:00 +00:00',
      '2026-11-28 17:00 +00:00',
      '2026-11-28 17:30 +00:00',
      '2026-11-29 09:00 +00:00',
    ]);
  });

  it('fires at times only on the given weekdays, in the schedule time zone', () => {
    const config = schedule({
      at: [{ hour: 9, minute: 0 }],
      weekdays: [1, 5],
      timezone: 'Europe/Paris',
    });
    expect(cronPatternsOf(config)).toEqual(['0 9 * * 1,5']);
    // 2026-11-28 is a Saturday.
    expect(upcoming(config, '2026-11-28T12:00:00Z', 3)).toEqual([
      '2026-11-30 09:00 +01:00',
      '2026-12-04 09:00 +01:00',
      '2026-12-07 09:00 +01:00',
    ]);
  });

  it('aligns every on the clock, minutes within the hour and hours within the day', () => {
    const quarter = schedule({ every: '15m', timezone: 'UTC' });
    expect(cronPatternsOf(quarter)).toEqual(['*/15 * * * *']);
    expect(upcoming(quarter, '2026-11-28T10:07:00Z', 3)).toEqual([
      '2026-11-28 10:15 +00:00',
      '2026-11-28 10:30 +00:00',
      '2026-11-28 10:45 +00:00',
    ]);
    const sixHours = schedule({ every: '6h', weekdays: [0], timezone: 'Asia/Tokyo' });
    expect(cronPatternsOf(sixHours)).toEqual(['0 */6 * * 0']);
    expect(upcoming(sixHours, '2026-11-28T00:00:00Z', 5)).toEqual([
      '2026-11-29 00:00 +09:00',
      '2026-11-29 06:00 +09:00',
      '2026-11-29 12:00 +09:00',
      '2026-11-29 18:00 +09:00',
      '2026-12-06 00:00 +09:00',
    ]);
  });

  it('takes a cron pattern as written', () => {
    const config = schedule({ cron: '0 9 * * 1-5', timezone: 'America/New_York' });
    expect(upcoming(config, '2026-11-28T00:00:00Z', 2)).toEqual([
      '2026-11-30 09:00 -05:00',
      '2026-12-01 09:00 -05:00',
    ]);
  });

  it('fires an at time that the spring DST change skips when the clock resumes', () => {
    // America/Chicago springs from 02:00 CST to 03:00 CDT on 2026-03-08.
    const config = schedule({ at: [{ hour: 2, minute: 30 }], timezone: 'America/Chicago' });
    expect(upcoming(config, '2026-03-07T00:00:00Z', 3)).toEqual([
      '2026-03-07 02:30 -06:00',
      '2026-03-08 03:00 -05:00',
      '2026-03-09 02:30 -05:00',
    ]);
    const hourly = schedule({ every: '1h', timezone: 'America/Chicago' });
    expect(upcoming(hourly, '2026-03-08T06:30:00Z', 3)).toEqual([
      '2026-03-08 01:00 -06:00',
      '2026-03-08 03:00 -05:00',
      '2026-03-08 04:00 -05:00',
    ]);
  });

  it('fires an at time that the autumn DST change repeats once, and every in both passes', () => {
    // America/Chicago falls back from 02:00 CDT to 01:00 CST on 2026-11-01.
    const config = schedule({ at: [{ hour: 1, minute: 30 }], timezone: 'America/Chicago' });
    expect(upcoming(config, '2026-10-31T12:00:00Z', 3)).toEqual([
      '2026-11-01 01:30 -05:00',
      '2026-11-02 01:30 -06:00',
      '2026-11-03 01:30 -06:00',
    ]);
    const halfHourly = schedule({ every: '30m', timezone: 'America/Chicago' });
    expect(upcoming(halfHourly, '2026-11-01T05:00:00Z', 6)).toEqual([
      '2026-11-01 00:30 -05:00',
      '2026-11-01 01:00 -05:00',
      '2026-11-01 01:30 -05:00',
      '2026-11-01 01:00 -06:00',
      '2026-11-01 01:30 -06:00',
      '2026-11-01 02:00 -06:00',
    ]);
  });

  it('finds the last fire time before an instant', () => {
    const times = scheduleTimes(
      schedule({
        at: [
          { hour: 9, minute: 0 },
          { hour: 17, minute: 30 },
        ],
        timezone: 'UTC',
      }),
    );
    expect(times.previous(new Date('2026-11-28T12:00:00Z'))?.toISOString()).toBe(
      '2026-11-28T09:00:00.000Z',
    );
    expect(times.previous(new Date('2026-11-28T08:00:00Z'))?.toISOString()).toBe(
      '2026-11-27T17:30:00.000Z',
    );
  });
});
