/**
 * Fires missions' `schedule` blocks while `sortie serve` runs. Fire times missed while no
 * server was running are not caught up: on start each schedule logs the last one it missed
 * and its next one, then waits for that.
 */
import type { MissionConfig } from '../config/config-types.ts';
import type { ScheduleConfig } from '../config/serve-config-types.ts';
import { describeSchedule, formatZonedTime, scheduleTimeZone } from '../present/schedule-text.ts';
import { systemClock, type ClockTimer, type SchedulerClock } from './scheduler-clock.ts';
import { scheduleTimes, type ScheduleTimes } from './schedule-times.ts';
import { reasonOf } from '../base/reason.ts';

/** Starts one run of a mission for a schedule; what it returns (a promise) is not awaited. */
export type ScheduleFire = (
  missionName: string,
  inputs: Record<string, unknown>,
  schedule: ScheduleConfig,
  firedAt: Date,
) => unknown;

/** What the scheduler runs on. */
export interface SchedulerOptions {
  missions: Iterable<Pick<MissionConfig, 'name' | 'schedules'>>;
  fire: ScheduleFire;
  /** One line per event worth a person's attention: start-up, missed times, failed fires. */
  log: (line: string) => void;
  /** The system clock unless a test gives its own. */
  clock?: SchedulerClock;
}

/** A running scheduler. */
export interface Scheduler {
  /** Cancels every pending wake-up; nothing fires afterwards. */
  stop(): void;
}

interface Entry {
  mission: string;
  schedule: ScheduleConfig;
  times: ScheduleTimes;
  label: string;
  timer?: ClockTimer;
}

/** Starts firing every schedule of `missions`; returns the handle that stops it. */
export function startScheduler(options: SchedulerOptions): Scheduler {
  const clock = options.clock ?? systemClock;
  let stopped = false;
  const entries: Entry[] = [];
  for (const mission of options.missions) {
    for (const schedule of mission.schedules) {
      entries.push({
        mission: mission.name,
        schedule,
        times: scheduleTimes(schedule),
        label: `schedule of mission "${mission.name}" (${describeSchedule(schedule)}, ${schedule.span.file}:${schedule.span.start.line}:${schedule.span.start.column})`,
      });
    }
  }

  const at = (entry: Entry, date: Date): string =>
    formatZonedTime(date, scheduleTimeZone(entry.schedule));

  const arm = (entry: Entry, target: Date): void => {
    entry.timer = clock.setTimer(() => wake(entry, target), target.getTime() - clock.now());
  };

  const armNext = (entry: Entry, after: Date): void => {
    const next = entry.times.next(after);
    if (next === null) options.log(`${entry.label}: never fires again`);
    else arm(entry, next);
  };

  const wake = (entry: Entry, target: Date): void => {
    entry.timer = undefined;
    if (stopped) return;
    const now = clock.now();
    // Woken before its time (a long wait cut into timer-sized pieces): wait the rest.
    if (now < target.getTime()) return arm(entry, target);
    fire(entry, target);
    // After a fire time long past (the machine slept), the times in between are not caught up.
    armNext(entry, new Date(Math.max(now, target.getTime())));
  };

  const fire = (entry: Entry, target: Date): void => {
    const failed = (error: unknown): void =>
      options.log(`${entry.label}: firing at ${at(entry, target)} failed: ${reasonOf(error)}`);
    try {
      const result = options.fire(
        entry.mission,
        { ...entry.schedule.inputs },
        entry.schedule,
        target,
      );
      if (result instanceof Promise) result.catch(failed);
    } catch (error) {
      failed(error);
    }
  };

  const start = new Date(clock.now());
  for (const entry of entries) {
    const missed = entry.times.previous(start);
    const next = entry.times.next(start);
    const nextText = next === null ? 'never fires again' : `next ${at(entry, next)}`;
    const missedText =
      missed === null ? '' : `; ${at(entry, missed)} missed while not serving, not caught up`;
    options.log(`${entry.label}: ${nextText}${missedText}`);
    if (next !== null) arm(entry, next);
  }

  return {
    stop: () => {
      stopped = true;
      for (const entry of entries) {
        entry.timer?.cancel();
        entry.timer = undefined;
      }
    },
  };
}
