/**
 * `B`: the breakpoint list. The kinds that are on or off as a whole (stall, loop, route, error)
 * are always listed with their mark; other breakpoints are listed while set. `space`, `enter`
 * or `b` toggles the row under the cursor; `a` opens a line below the rows where a breakpoint
 * is typed as for `--break` (`cost:0.50`), with what is wrong with a bad one under it.
 */
import { Box, Text } from 'ink';
import { truncate, wrapLines } from '../../present/columns.ts';
import { BREAKPOINT_MEANINGS, type BreakpointRow } from '../view/breakpoint-rows.ts';

/** The line a breakpoint is typed on, while it is open. */
export interface BreakpointTyping {
  typed: string;
  /** What was wrong with the spec last sent; null: the forms it takes are shown instead. */
  problem: string | null;
}

export interface BreakpointListProps {
  rows: readonly BreakpointRow[];
  cursor: number;
  height: number;
  width: number;
  /** The typed line (`a`); null while the list alone is open. */
  typing: BreakpointTyping | null;
}

const FORMS = 'as for --break: cost:0.50, tokens:20000, tool:NAME, actor:ID, model';

/** The typed line and, under it, the problem or the forms it takes (wrapped to `width`). */
export function typingLines(typing: BreakpointTyping, width: number): string[] {
  const below = typing.problem === null ? [`  ${FORMS}`] : wrapLines(`✗ ${typing.problem}`, width);
  return [`add: ${typing.typed}▌`, ...below];
}

/** The list (replaces the body while open). */
export function BreakpointList({ rows, cursor, height, width, typing }: BreakpointListProps) {
  const typed = typing === null ? [] : typingLines(typing, width);
  // The typed line and its problem always show; a short screen loses the last rows.
  const room = Math.max(0, height - 1 - typed.length);
  return (
    <Box flexDirection="column" height={height}>
      <Text bold>Breakpoints — space/enter/b toggles, a adds, esc closes</Text>
      {rows.slice(0, room).map((row, position) => (
        <Text key={row.spec} inverse={position === cursor} wrap="truncate-end">
          {`${position === cursor ? '▸' : ' '} [${row.on ? 'x' : ' '}] ${row.spec.padEnd(6)}`}
          {BREAKPOINT_MEANINGS[row.spec] === undefined ? '' : `  ${BREAKPOINT_MEANINGS[row.spec]}`}
        </Text>
      ))}
      {typed.map((line, position) => (
        <Text
          key={`typing-${position}`}
          bold={position === 0}
          {...(position > 0 && typing?.problem !== null ? { color: 'red' } : {})}
        >
          {truncate(line, width)}
        </Text>
      ))}
    </Box>
  );
}
