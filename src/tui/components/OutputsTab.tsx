/** Submitted outputs per task and per item. */
import { Box, Text } from 'ink';
import type { OutputLine } from '../view/output-lines.ts';

export interface OutputsTabProps {
  lines: readonly OutputLine[];
  start: number;
  height: number;
}

/** The visible slice of the outputs. */
export function OutputsTab({ lines, start, height }: OutputsTabProps) {
  return (
    <Box flexDirection="column" height={height}>
      {lines.slice(start, start + height).map((line, position) => (
        <Text key={start + position} bold={line.heading}>
          {line.text}
        </Text>
      ))}
    </Box>
  );
}
