/** Cost tables per task, model and actor, with totals; scrolls when taller than the screen. */
import { Box, Text } from 'ink';
import type { CostLine } from '../view/cost-lines.ts';

export interface CostsTabProps {
  lines: readonly CostLine[];
  start: number;
  height: number;
}

/** The visible slice of the cost tables. */
export function CostsTab({ lines, start, height }: CostsTabProps) {
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
