/** The event log, newest at the bottom, filterable with `/` by actor and type. */
import { Box, Text } from 'ink';
import type { EventLine } from '../store/index.ts';
import { formatElapsed } from '../../present/numbers.ts';
import { padEnd, textWidth, truncate } from '../../present/columns.ts';

export interface EventsTabProps {
  lines: readonly EventLine[];
  /** First line shown; null follows the newest events. */
  start: number | null;
  height: number;
  width: number;
  filter: string;
  editing: boolean;
  /** When the run started; times are shown relative to it. */
  origin: string | null;
}

/** Widths of the actor and type columns: as wide as the lines shown need, within limits. */
export interface EventColumns {
  actor: number;
  type: number;
}

/** The columns for the lines on screen (the actor column takes at most a quarter of the width). */
export function eventColumns(lines: readonly EventLine[], width: number): EventColumns {
  let actor = 0;
  let type = 0;
  for (const line of lines) {
    actor = Math.max(actor, textWidth(line.actor));
    type = Math.max(type, line.type.length);
  }
  return { actor: Math.min(actor, Math.max(12, Math.floor(width / 4))), type };
}

/** One event as a log line (exported for tests). */
export function eventLineText(
  line: EventLine,
  origin: string | null,
  width: number,
  columns: EventColumns = { actor: 28, type: 20 },
): string {
  const since = origin === null ? 0 : Date.parse(line.time) - Date.parse(origin);
  const head = `${formatElapsed(since)} ${padEnd(line.actor, columns.actor, 'middle')} ${padEnd(line.type, columns.type)}`;
  return truncate(`${head} ${line.text}`, width);
}

/** The filter line and the visible slice of the log. */
export function EventsTab(props: EventsTabProps) {
  const showFilter = props.editing || props.filter !== '';
  const height = Math.max(1, props.height - (showFilter ? 1 : 0));
  const maxStart = Math.max(0, props.lines.length - height);
  const start = props.start === null ? maxStart : Math.min(props.start, maxStart);
  const visible = props.lines.slice(start, start + height);
  const columns = eventColumns(visible, props.width);
  return (
    <Box flexDirection="column" height={props.height}>
      {showFilter ? (
        <Text color="cyan">
          {`/ ${props.filter}${props.editing ? '▏' : ''}  (${props.lines.length} events)`}
        </Text>
      ) : null}
      {visible.map((line) => (
        <Text key={line.seq}>{eventLineText(line, props.origin, props.width, columns)}</Text>
      ))}
      {props.lines.length === 0 ? <Text dimColor>no events match</Text> : null}
    </Box>
  );
}
