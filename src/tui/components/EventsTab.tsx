/** The event log, newest at the bottom, filterable with `/` by actor and type. */
import { Box, Text } from 'ink';
import type { EventLine } from '../store/index.ts';
import { elapsedText } from '../view/status.ts';
import { padEnd, truncate } from '../../present/columns.ts';

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

/** One event as a log line (exported for tests). */
export function eventLineText(line: EventLine, origin: string | null, width: number): string {
  const since = origin === null ? 0 : Date.parse(line.time) - Date.parse(origin);
  const head = `${elapsedText(since)} ${padEnd(line.actor, 28)} ${padEnd(line.type, 20)}`;
  return truncate(`${head} ${line.text}`, width);
}

/** The filter line and the visible slice of the log. */
export function EventsTab(props: EventsTabProps) {
  const showFilter = props.editing || props.filter !== '';
  const height = Math.max(1, props.height - (showFilter ? 1 : 0));
  const maxStart = Math.max(0, props.lines.length - height);
  const start = props.start === null ? maxStart : Math.min(props.start, maxStart);
  return (
    <Box flexDirection="column" height={props.height}>
      {showFilter ? (
        <Text color="cyan">
          {`/ ${props.filter}${props.editing ? '▏' : ''}  (${props.lines.length} events)`}
        </Text>
      ) : null}
      {props.lines.slice(start, start + height).map((line) => (
        <Text key={line.seq}>{eventLineText(line, props.origin, props.width)}</Text>
      ))}
      {props.lines.length === 0 ? <Text dimColor>no events match</Text> : null}
    </Box>
  );
}
