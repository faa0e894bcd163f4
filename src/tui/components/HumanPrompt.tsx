/**
 * `a`: the oldest question an agent asks the person, with its context and choices, and the
 * answer being typed, or the form being filled when the question asks for one (replaces the
 * body while open; the run goes on behind it).
 */
import { Box, Text } from 'ink';
import { truncate, wrapLines } from '../../present/columns.ts';
import type { OpenQuestion } from '../store/index.ts';
import { formKey, formOf, type AnswerForm } from '../view/answer-form.ts';
import { formLines, type FormLine } from '../view/form-lines.ts';

export interface HumanPromptProps {
  question: OpenQuestion | undefined;
  typed: string;
  /** The form being filled (a question with `form`); null before a key touched it. */
  form: AnswerForm | null;
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
export function HumanPrompt(props: HumanPromptProps) {
  const { question, typed, height, width } = props;
  if (question === undefined) {
    return (
      <Box height={height}>
        <Text dimColor>No question is waiting for you.</Text>
      </Box>
    );
  }
  if (question.form !== undefined) {
    const form = formOf(props.form, formKey(question), question.form);
    return <FormPrompt lines={formLines(question, form)} height={height} width={width} />;
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

/** A form: who asks, the question, one line per field (the focused one marked), how, a problem. */
function FormPrompt({
  lines,
  height,
  width,
}: {
  lines: FormLine[];
  height: number;
  width: number;
}) {
  // The question's words wrap; the other lines keep one row each.
  const rows = lines
    .flatMap((line) =>
      line.kind !== 'text' || line.text === ''
        ? [line]
        : wrapLines(line.text, width).map((text) => ({ ...line, text })),
    )
    .slice(0, height);
  return (
    <Box flexDirection="column" height={height}>
      {rows.map((line, position) => (
        <Box key={position} height={1}>
          <Text
            bold={line.kind === 'title'}
            dimColor={line.kind === 'help'}
            {...(line.kind === 'focused'
              ? { color: 'cyan' }
              : line.kind === 'problem'
                ? { color: 'red' }
                : {})}
          >
            {truncate(line.text, width)}
          </Text>
        </Box>
      ))}
    </Box>
  );
}
