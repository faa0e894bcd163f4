/**
 * The event log, newest at the bottom, filterable with `/` by actor and type. Each line starts
 * with its seq (what `sortie fork --at` takes); ↑/↓ move a cursor over the lines (`f` and `e`
 * fork at the one under it).
 */
import { Box, Text } from 'ink';
import { windowStart, type EventLine } from '../store/index.ts';
import { formatElapsed } from '../../present/numbers.ts';
import { shortActorId } from '../../present/actor-text.ts';
import { padEnd, textWidth, truncate } from '../../present/columns.ts';

export interface EventsTabProps {
  lines: readonly EventLine[];
  /** First line shown; null follows the newest events. */
  start: number | null;
  /** The seq under the cursor; null: no cursor (the log follows the newest events). */
  selected: number | null;
  height: number;
  width: number;
  filter: string;
  editing: boolean;
  /** When the run started; times are shown relative to it. */
  origin: string | null;
}

/** Widths of the actor and type columns: as wide as the lines shown need, within limits. */
export interface EventColumns {
  seq: number;
  actor: number;
  type: number;
}

/** The columns for the lines on screen (the actor column takes at most a quarter of the width). */
export function eventColumns(lines: readonly EventLine[], width: number): EventColumns {
  let seq = 0;
  let actor = 0;
  let type = 0;
  for (const line of lines) {
    seq = Math.max(seq, String(line.seq).length);
    actor = Math.max(actor, textWidth(line.actor));
    type = Math.max(type, line.type.length);
  }
  return { seq, actor: Math.min(actor, Math.max(12, Math.floor(width / 4))), type };
}

/** One event as a log line: cursor mark, seq, time, actor, type, text (exported for tests). */
export function eventLineText(
  line: EventLine,
  origin: string | null,
  width: number,
  columns: EventColumns = { seq: 4, actor: 28, type: 20 },
  selected = false,
): string {
  const since = origin === null ? 0 : Date.parse(line.time) - Date.parse(origin);
  const seq = String(line.seq).padStart(columns.seq);
  const head = `${selected ? '▸' : ' '}${seq} ${formatElapsed(since)} ${padEnd(shortActorId(line.actor, columns.actor), columns.actor)} ${padEnd(line.type, columns.type)}`;
  return truncate(`${head} ${line.text}`, width);
}

/** The filter line and the visible slice of the log. */
export function EventsTab(props: EventsTabProps) {
  const showFilter = props.editing || props.filter !== '';
  const height = Math.max(1, props.height - (showFilter ? 1 : 0));
  const total = props.lines.length;
  // A null start follows the newest lines (windowStart clamps it to the last screen); with no
  // cursor, the start itself is what stays in view.
  const following = props.start ?? total;
  const cursor = props.lines.findIndex((line) => line.seq === props.selected);
  const start = windowStart(following, cursor < 0 ? following : cursor, height, total);
  const visible = props.lines.slice(start, start + height);
  const columns = eventColumns(visible, props.width);
  return (
    <Box flexDirection="column" height={props.height}>
      {showFilter ? (
        <Text color="cyan">
          {`/ ${props.filter}${props.editing ? '▏' : ''}  (${props.lines.length} events)`}
        </Text>
      ) : null}
      {visible.map((line) => {
        const selected = line.seq === props.selected;
        return (
          <Text key={line.seq} inverse={selected}>
            {eventLineText(line, props.origin, props.width, columns, selected)}
          </Text>
        );
      })}
      {props.lines.length === 0 ? <Text dimColor>no events match</Text> : null}
    </Box>
  );
}
