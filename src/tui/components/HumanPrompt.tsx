/**
 * `a`: the oldest question an agent asks the person, with its context and choices, and the
 * answer being typed (replaces the body while open; the run goes on behind it).
 */
import { Box, Text } from 'ink';
import { truncate, wrapLines } from '../../present/columns.ts';
import type { OpenQuestion } from '../store/index.ts';

export interface HumanPromptProps {
  question: OpenQuestion | undefined;
  typed: string;
  height: number;
  width: number;
}

/** The prompt's lines above the answer line: who asks, the question, context, choices, how. */
export function promptLines(question: OpenQuestion): string[] {
  const lines = [`? ${question.actor} asks you:`, ...question.question.split('\n')];
  if (question.additionalContext !== null) {
    lines.push('', ...question.additionalContext.split('\n'));
  }
  if (question.choices.length > 0) lines.push('');
  question.choices.forEach((choice, index) => lines.push(`  ${index + 1}) ${choice}`));
  const how = question.multiSelect
    ? 'several: numbers or texts separated by commas'
    : question.choices.length > 0
      ? 'a number or the text'
      : 'type your answer';
  const wait = question.timeoutSeconds === null ? '' : ` · waits ${question.timeoutSeconds}s`;
  lines.push('', `(${how}; enter sends, esc answers later${wait})`);
  return lines;
}

/** The question and the answer line. */
export function HumanPrompt({ question, typed, height, width }: HumanPromptProps) {
  if (question === undefined) {
    return (
      <Box height={height}>
        <Text dimColor>No question is waiting for you.</Text>
      </Box>
    );
  }
  // The answer line always shows; long questions lose their last lines, not the input.
  const lines = promptLines(question)
    .flatMap((line) => (line === '' ? [''] : wrapLines(line, width)))
    .slice(0, Math.max(0, height - 1));
  return (
    <Box flexDirection="column" height={height}>
      {lines.map((line, position) => (
        // A box of one row keeps a blank line a line.
        <Box key={position} height={1}>
          <Text bold={position === 0}>{truncate(line, width)}</Text>
        </Box>
      ))}
      <Text color="cyan">{truncate(`> ${typed}▌`, width)}</Text>
    </Box>
  );
}
