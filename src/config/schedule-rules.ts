/**
 * The rules of a `schedule` block's values, as the reference runtime checks them: `at` times,
 * `every` intervals, weekday names, IANA time zones and 5-field cron patterns (croner parses
 * them here only to validate; src/serve computes fire times).
 */
import { Cron } from 'croner';
import { reasonOf } from '../base/reason.ts';

/** Weekday names as written in `weekdays`, by their cron number (0 = Sunday). */
export const WEEKDAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** `every` values below an hour must divide an hour; from an hour on, they must divide a day. */
const MINUTE_INTERVALS = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30];
const HOUR_INTERVALS = [1, 2, 3, 4, 6, 8, 12];

/** A checked value, or the problem to report. */
export type RuleResult<T> = { value: T } | { problem: string };

/** An `at` time, `HH:MM` on a 24-hour clock with two digits each. */
export function parseAtTime(text: string): RuleResult<{ hour: number; minute: number }> {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  if (!match)
    return {
      problem: `invalid at time "${text}": use HH:MM on a 24-hour clock, such as "09:00" or "17:30"`,
    };
  return { value: { hour: Number(match[1]), minute: Number(match[2]) } };
}

/** A weekday name (`mon` … `sun`, any case) as its cron number, 0 = Sunday. */
export function parseWeekday(text: string): RuleResult<number> {
  const index = WEEKDAY_NAMES.indexOf(text.toLowerCase() as (typeof WEEKDAY_NAMES)[number]);
  if (index < 0)
    return { problem: `invalid weekday "${text}": use mon, tue, wed, thu, fri, sat or sun` };
  return { value: index };
}

const UNIT_NANOSECONDS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** A Go duration (`30m`, `1h`, `1h30m`, `90s`) in nanoseconds, as the reference reads `every`. */
function durationNanoseconds(text: string): number | undefined {
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  let position = 0;
  while (position < text.length) {
    part.lastIndex = position;
    const match = part.exec(text);
    if (!match) return undefined;
    total += Number(match[1]) * (UNIT_NANOSECONDS[match[2] ?? ''] ?? Number.NaN);
    position = part.lastIndex;
  }
  return text === '' || !Number.isFinite(total) ? undefined : total;
}

/** An `every` interval in whole minutes: one that divides an hour, or whole hours that divide a day. */
export function parseEvery(text: string): RuleResult<number> {
  const nanoseconds = durationNanoseconds(text);
  if (nanoseconds === undefined)
    return { problem: `invalid every interval "${text}": use a duration such as "15m" or "2h"` };
  if (nanoseconds < 60e9) return { problem: `every must be at least 1m, got "${text}"` };
  const minutes = Math.floor(nanoseconds / 60e9);
  if (minutes < 60) {
    if (MINUTE_INTERVALS.includes(minutes)) return { value: minutes };
    return {
      problem: `every "${text}" must divide an hour evenly: ${MINUTE_INTERVALS.map((value) => `${value}m`).join(', ')}`,
    };
  }
  if (minutes % 60 !== 0)
    return { problem: `every "${text}" must be a whole number of hours when it is 1h or more` };
  if (HOUR_INTERVALS.includes(minutes / 60)) return { value: minutes };
  return {
    problem: `every "${text}" must divide a day evenly: ${HOUR_INTERVALS.map((value) => `${value}h`).join(', ')}`,
  };
}

/** Whether the runtime knows `name` as an IANA time zone. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Why a cron pattern is not a valid 5-field pattern; undefined when it is one. */
export function cronPatternProblem(pattern: string): string | undefined {
  const fields = pattern
    .trim()
    .split(/\s+/)
    .filter((field) => field !== '');
  if (fields.length !== 5) {
    return `invalid cron pattern "${pattern}": it needs 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`;
  }
  try {
    const job = new Cron(pattern, { paused: true, mode: '5-part' });
    // A pattern such as "0 0 31 2 *" parses but names no date at all.
    if (job.nextRun() === null) return `cron pattern "${pattern}" never fires: no date matches it`;
    return undefined;
  } catch (error) {
    const reason = reasonOf(error);
    return `invalid cron pattern "${pattern}": ${reason.replace(/^CronPattern: /, '')}`;
  }
}
