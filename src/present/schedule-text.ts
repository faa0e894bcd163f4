/**
 * How a schedule and its fire times read: `every 15m on mon, fri`, and a time in the
 * schedule's zone with its UTC offset, `2026-11-30 09:00 -06:00`.
 */
import type { ScheduleConfig } from '../config/serve-config-types.ts';

const WEEKDAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The schedule as written, in short: `at 09:00, 17:30 on mon, fri`, `cron "0 9 * * 1-5"`. */
export function describeSchedule(schedule: ScheduleConfig): string {
  const mode =
    schedule.at !== undefined
      ? `at ${schedule.at.map(({ hour, minute }) => `${twoDigits(hour)}:${twoDigits(minute)}`).join(', ')}`
      : schedule.every !== undefined
        ? `every ${schedule.every}`
        : `cron "${schedule.cron ?? ''}"`;
  const days =
    schedule.weekdays === undefined
      ? ''
      : ` on ${schedule.weekdays.map((day) => WEEKDAY_NAMES[day] ?? String(day)).join(', ')}`;
  return `${mode}${days}`;
}

/** The zone a schedule's times are in: its own, else this machine's. */
export function scheduleTimeZone(schedule: ScheduleConfig): string {
  return schedule.timezone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** `2026-11-30 09:00 -06:00`: the wall-clock time in `timeZone`, with its offset from UTC. */
export function formatZonedTime(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((candidate) => candidate.type === type)?.value ?? '';
  // longOffset reads "GMT-06:00", and plain "GMT" at offset zero.
  const offset = part('timeZoneName').replace(/^GMT/, '') || '+00:00';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${offset}`;
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}
