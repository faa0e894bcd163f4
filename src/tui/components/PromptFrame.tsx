/**
 * The frame the prompts to the person share (a question, a form, a budget at its warning): rows
 * that replace the body, then the line being typed, which a short screen never hides.
 */
import { Box, Text } from 'ink';
import { truncate, wrapLines } from '../../present/columns.ts';

/** One row of a prompt and how it is drawn. */
export interface PromptRow {
  text: string;
  bold?: boolean;
  dimColor?: boolean;
  color?: string;
}

/** Rows broken at `width`; a piece of a broken row is drawn as the row was, blank rows stay. */
export function wrapRows(rows: readonly PromptRow[], width: number): PromptRow[] {
  return rows.flatMap((row) =>
    row.text === '' ? [row] : wrapLines(row.text, width).map((text) => ({ ...row, text })),
  );
}

/** Lines broken at `width`, the first row drawn with `look` (the prompt's title). */
export function titledRows(
  lines: readonly string[],
  width: number,
  look: Omit<PromptRow, 'text'>,
): PromptRow[] {
  const unwrapped = lines.map((text) => ({ text }));
  return wrapRows(unwrapped, width).map((row, position) =>
    position === 0 ? { ...row, ...look } : row,
  );
}

/** The rows that fit above the typed line (absent: a form, typed into its fields), and that line. */
export function PromptFrame(props: {
  rows: readonly PromptRow[];
  typed?: string;
  height: number;
  width: number;
}) {
  const { typed, height, width } = props;
  // The typed line always shows; a long prompt loses its last rows, not the input.
  const rows = props.rows.slice(0, Math.max(0, typed === undefined ? height : height - 1));
  return (
    <Box flexDirection="column" height={height}>
      {rows.map(({ text, ...look }, position) => (
        // A box of one row keeps a blank line a line.
        <Box key={position} height={1}>
          <Text {...look}>{truncate(text, width)}</Text>
        </Box>
      ))}
      {typed === undefined ? null : <Text color="cyan">{truncate(`> ${typed}▌`, width)}</Text>}
    </Box>
  );
}
