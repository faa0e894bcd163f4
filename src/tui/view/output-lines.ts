/** The Outputs tab as text lines: each task's output, then its items. */
import type { TaskOutput } from '../store/state.ts';
import { statusIcon } from './status.ts';
import { oneLine, wrapLines } from '../../present/columns.ts';
import { showValue } from '../../present/json-text.ts';

const ITEM_ICONS = { running: '●', succeeded: '✓', failed: '✗' } as const;

/** One line of the Outputs tab; task titles are bold. */
export interface OutputLine {
  text: string;
  heading: boolean;
}

function taskLines(output: TaskOutput, width: number): OutputLine[] {
  const lines: OutputLine[] = [
    { text: `${statusIcon(output.status)} ${output.task}`, heading: true },
  ];
  const indented = (text: string): OutputLine[] =>
    wrapLines(text, width - 2).map((line) => ({ text: `  ${line}`, heading: false }));
  if (output.summary !== null) lines.push(...indented(output.summary));
  if (output.output !== null && output.output !== undefined) {
    lines.push(...indented(showValue(output.output)));
  }
  // The vector yields its items in index order.
  for (const item of output.items.values()) {
    const value =
      item.error !== null ? item.error : item.output === null ? '' : JSON.stringify(item.output);
    lines.push({
      text: `  ${oneLine(`[${item.index}] ${item.itemId} ${ITEM_ICONS[item.status]} ${value ?? ''}`, width - 2)}`,
      heading: false,
    });
  }
  lines.push({ text: '', heading: false });
  return lines;
}

/** Every line of the tab; tasks in the order they started. */
export function outputLines(outputs: ReadonlyMap<string, TaskOutput>, width: number): OutputLine[] {
  const lines: OutputLine[] = [];
  for (const output of outputs.values()) lines.push(...taskLines(output, width));
  if (lines.length === 0) lines.push({ text: '(no outputs yet)', heading: false });
  return lines;
}
