import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool } from './agent-tool.ts';
import { errorOutcome, okOutcome } from './agent-tool.ts';

/**
 * Formats `date` as ISO-8601 local time in the IANA zone `timeZone`, with its UTC offset
 * (`2026-03-01T14:05:09+01:00`), to the second. Throws RangeError for an unknown zone.
 */
export function isoTimeInZone(date: Date, timeZone: string): string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(date)) parts[part.type] = part.value;
  const year = Number(parts.year);
  const local = Date.UTC(
    year,
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const wholeSeconds = Math.floor(date.getTime() / 1000) * 1000;
  const offsetMinutes = Math.round((local - wholeSeconds) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const offset = `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
  const yearText = String(year).padStart(4, '0');
  return `${yearText}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function isKnownZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** `builtins_utils_current_time {timezone?}`; `clock` is replaceable for tests. */
export function createCurrentTimeTool(clock: () => Date = () => new Date()): AgentTool {
  return {
    definition: defineTool({
      name: 'builtins_utils_current_time',
      description: 'The current date and time (ISO-8601 with offset) in an IANA time zone.',
      parameters: objectSchema([], {
        timezone: {
          type: 'string',
          description: 'IANA time zone such as Europe/Paris; default UTC',
        },
      }),
    }),
    async execute(args) {
      const timeZone = typeof args.timezone === 'string' ? args.timezone : 'UTC';
      if (!isKnownZone(timeZone)) {
        return errorOutcome(
          `unknown time zone "${timeZone}": use an IANA name such as UTC, Europe/Paris or America/New_York`,
        );
      }
      return okOutcome({ time: isoTimeInZone(clock(), timeZone), timezone: timeZone });
    },
  };
}

/** The current-time tool on the real clock. */
export const currentTimeTool = createCurrentTimeTool();
