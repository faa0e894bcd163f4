/**
 * A schedule's fire times, computed by croner. Each schedule becomes as few cron patterns as
 * express it exactly: one for `every` and `cron`, and for `at` one per distinct minute (times
 * sharing a minute share a pattern: "0 9,17 * * *"), since one pattern for `at = ["09:00",
 * "17:30"]` would also fire at 09:30 and 17:00, as the reference runtime's does.
 */
import { Cron } from 'croner';
import type { ScheduleConfig } from '../config/serve-config-types.ts';
import { parseEvery } from '../config/schedule-rules.ts';

/** When a schedule fires: the first time after an instant, and the last one before it. */
export interface ScheduleTimes {
  /** The cron patterns the schedule compiles to. */
  patterns: string[];
  /** The first fire time strictly after `after`; null when it never fires again. */
  next(after: Date): Date | null;
  /** The last fire time strictly before `before`; null when there was none. */
  previous(before: Date): Date | null;
  /** The next `count` fire times after `after`. */
  upcoming(count: number, after: Date): Date[];
}

/** The cron patterns (minute hour day-of-month month day-of-week) of a decoded schedule. */
export function cronPatternsOf(schedule: ScheduleConfig): string[] {
  if (schedule.cron !== undefined) return [schedule.cron];
  const days = schedule.weekdays === undefined ? '*' : schedule.weekdays.join(',');
  if (schedule.at !== undefined) {
    const hoursByMinute = new Map<number, number[]>();
    for (const { hour, minute } of schedule.at) {
      hoursByMinute.set(minute, [...(hoursByMinute.get(minute) ?? []), hour]);
    }
    return [...hoursByMinute].map(([minute, hours]) => `${minute} ${hours.join(',')} * * ${days}`);
  }
  const every = parseEvery(schedule.every ?? '');
  if (!('value' in every)) throw new Error(`schedule without a valid mode: ${schedule.every}`);
  const minutes = every.value;
  return [minutes < 60 ? `*/${minutes} * * * ${days}` : `0 */${minutes / 60} * * ${days}`];
}

/** Compiles a schedule (already checked by config) into its fire times. */
export function scheduleTimes(schedule: ScheduleConfig): ScheduleTimes {
  const patterns = cronPatternsOf(schedule);
  const jobs = patterns.map(
    (pattern) =>
      new Cron(pattern, {
        paused: true,
        mode: '5-part',
        ...(schedule.timezone === undefined ? {} : { timezone: schedule.timezone }),
        // Lists of hours count as fixed times too: an `at` time a DST change skips fires when
        // the clock resumes, and one it repeats fires once. Steps (`every`) keep real-time pace.
        fixedTimeRule: 'no-wildcard',
      }),
  );
  const next = (after: Date): Date | null =>
    earliest(jobs.map((job) => job.nextRun(after)).filter((date) => date !== null));
  return {
    patterns,
    next,
    previous: (before) => {
      const dates = jobs.flatMap((job) => job.previousRuns(1, before));
      const last = dates.reduce<Date | null>(
        (latest, date) => (latest === null || date > latest ? date : latest),
        null,
      );
      return last;
    },
    upcoming: (count, after) => {
      const dates: Date[] = [];
      let cursor: Date | null = after;
      while (dates.length < count && cursor !== null) {
        cursor = next(cursor);
        if (cursor !== null) dates.push(cursor);
      }
      return dates;
    },
  };
}

function earliest(dates: Date[]): Date | null {
  return dates.reduce<Date | null>(
    (first, date) => (first === null || date < first ? date : first),
    null,
  );
}
