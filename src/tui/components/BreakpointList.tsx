/** `B`: the breakpoints set now; `b` removes the one under the cursor. */
import { Box, Text } from 'ink';

export interface BreakpointListProps {
  breakpoints: readonly string[];
  cursor: number;
  height: number;
}

/** The list (replaces the body while open). */
export function BreakpointList({ breakpoints, cursor, height }: BreakpointListProps) {
  return (
    <Box flexDirection="column" height={height}>
      <Text bold>Breakpoints — b removes, esc closes</Text>
      {breakpoints.length === 0 ? <Text dimColor>(none)</Text> : null}
      {breakpoints.slice(0, Math.max(0, height - 1)).map((breakpoint, position) => (
        <Text key={breakpoint} inverse={position === cursor}>
          {`${position === cursor ? '▸' : ' '} ${breakpoint}`}
        </Text>
      ))}
    </Box>
  );
}
