/**
 * `sortie verify`'s lines about schedules: each schedule's next three fire times, in its time
 * zone with the UTC offset, so a person sees when `sortie serve` would start the mission.
 */
import type { Config } from '../config/config-types.ts';
import { describeSchedule, formatZonedTime, scheduleTimeZone } from '../present/schedule-text.ts';
import { scheduleTimes } from '../serve/schedule-times.ts';

/** How many fire times verify shows per schedule. */
const SHOWN_FIRE_TIMES = 3;

/** One line per schedule of the project: where it is, what it says, its next fire times. */
export function formatScheduleTimes(config: Config, now: Date): string {
  let text = '';
  for (const mission of config.missions.values()) {
    for (const schedule of mission.schedules) {
      const zone = scheduleTimeZone(schedule);
      const times = scheduleTimes(schedule)
        .upcoming(SHOWN_FIRE_TIMES, now)
        .map((date) => formatZonedTime(date, zone));
      const { file, start } = schedule.span;
      const next = times.length === 0 ? 'never fires' : `next ${times.join(', ')}`;
      text += `schedule ${file}:${start.line}:${start.column} mission "${mission.name}" (${describeSchedule(schedule)}, ${zone}): ${next}\n`;
    }
  }
  return text;
}
