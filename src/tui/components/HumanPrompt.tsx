/**
 * `a`: the oldest question an agent asks the person, with its context and choices, and the
 * answer being typed, or the form being filled when the question asks for one (replaces the
 * body while open; the run goes on behind it).
 */
import { Box, Text } from 'ink';
import type { OpenQuestion } from '../store/index.ts';
import { formKey, formOf, type AnswerForm } from '../view/answer-form.ts';
import { formLines, type FormLine } from '../view/form-lines.ts';
import { PromptFrame, titledRows, wrapRows, type PromptRow } from './PromptFrame.tsx';

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

/** How each kind of form line is drawn: the title bold, the focused field cyan, a problem red. */
const FORM_LOOKS: Record<FormLine['kind'], Omit<PromptRow, 'text'>> = {
  title: { bold: true },
  text: {},
  field: {},
  focused: { color: 'cyan' },
  help: { dimColor: true },
  problem: { color: 'red' },
};

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
  if (question.form === undefined) {
    const rows = titledRows(promptLines(question), width, { bold: true });
    return <PromptFrame rows={rows} typed={typed} height={height} width={width} />;
  }
  // A form: the question's words wrap; the other lines keep one row each.
  const form = formOf(props.form, formKey(question), question.form);
  const rows = formLines(question, form).flatMap(({ text, kind }) =>
    kind === 'text' ? wrapRows([{ text }], width) : [{ text, ...FORM_LOOKS[kind] }],
  );
  return <PromptFrame rows={rows} height={height} width={width} />;
}
