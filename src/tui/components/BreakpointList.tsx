/**
 * `B`: the breakpoint list. The kinds that are on or off as a whole (stall, loop, route, error)
 * are always listed with their mark; other breakpoints are listed while set. `space`, `enter`
 * or `b` toggles the row under the cursor.
 */
import { Box, Text } from 'ink';
import { BREAKPOINT_MEANINGS, type BreakpointRow } from '../view/breakpoint-rows.ts';

export interface BreakpointListProps {
  rows: readonly BreakpointRow[];
  cursor: number;
  height: number;
}

/** The list (replaces the body while open). */
export function BreakpointList({ rows, cursor, height }: BreakpointListProps) {
  return (
    <Box flexDirection="column" height={height}>
      <Text bold>Breakpoints — space/enter/b toggles, esc closes</Text>
      {rows.slice(0, Math.max(0, height - 1)).map((row, position) => (
        <Text key={row.spec} inverse={position === cursor} wrap="truncate-end">
          {`${position === cursor ? '▸' : ' '} [${row.on ? 'x' : ' '}] ${row.spec.padEnd(6)}`}
          {BREAKPOINT_MEANINGS[row.spec] === undefined ? '' : `  ${BREAKPOINT_MEANINGS[row.spec]}`}
        </Text>
      ))}
    </Box>
  );
}
