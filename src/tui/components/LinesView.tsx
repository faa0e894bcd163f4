/** A tab made of prepared text lines (the Costs and Outputs tabs); scrolls when taller than the screen. */
import { Box, Text } from 'ink';

/** One prepared line; headings are bold. */
export interface ViewLine {
  text: string;
  heading?: boolean;
}

export interface LinesViewProps {
  lines: readonly ViewLine[];
  start: number;
  height: number;
}

/** The visible slice of the lines. */
export function LinesView({ lines, start, height }: LinesViewProps) {
  return (
    <Box flexDirection="column" height={height}>
      {lines.slice(start, start + height).map((line, position) => (
        <Text key={start + position} bold={line.heading === true}>
          {/* An empty <Text> takes no row in Ink: a blank separator line needs a space. */}
          {line.text === '' ? ' ' : line.text}
        </Text>
      ))}
    </Box>
  );
}
