/**
 * The `sortie diff` report: the two runs, the conversations that are the same in one line, then
 * for each that differs the message where it parts and every message after it (equal ones
 * folded), then the tasks that ended differently.
 */
import type { Message, Part } from '../base/conversation.ts';
import {
  sameMessage,
  type ConversationDiff,
  type RunDiff,
  type TaskDiff,
} from '../journal/run-diff.ts';
import { firstLine } from '../present/columns.ts';
import { compactJson } from '../present/json-text.ts';
import { countOf } from '../present/numbers.ts';

/** How wide a message's or a value's excerpt is. */
const WIDTH = 100;

/** The report, one trailing newline. */
export function formatRunDiff(diff: RunDiff, runA: string, runB: string): string {
  const lineage =
    diff.lineage === null
      ? ['', '']
      : diff.lineage.child === 'b'
        ? ['', ` · forked from A at seq ${diff.lineage.seq}`]
        : [` · forked from B at seq ${diff.lineage.seq}`, ''];
  const lines = [`A ${runA}${lineage[0]}`, `B ${runB}${lineage[1]}`];
  const same = diff.conversations.filter((conversation) => conversation.partsAt === null);
  const parted = diff.conversations.filter((conversation) => conversation.partsAt !== null);
  if (same.length > 0) {
    const names = same.map((each) => `${each.conversation} (${countOf(each.a.length, 'message')})`);
    lines.push(`same in both: ${names.join(', ')}`);
  }
  for (const conversation of parted) lines.push(...conversationLines(conversation));
  if (diff.tasks.length > 0) lines.push('tasks', ...diff.tasks.flatMap(taskLines));
  if (parted.length === 0 && diff.tasks.length === 0) lines.push('no difference');
  return `${lines.join('\n')}\n`;
}

function conversationLines(diff: ConversationDiff): string[] {
  const from = diff.partsAt ?? 0;
  const lines = [
    `${diff.conversation}: parts at message ${from + 1} (A ${countOf(diff.a.length, 'message')}, B ${diff.b.length})`,
  ];
  const length = Math.max(diff.a.length, diff.b.length);
  let sameFrom: number | null = null;
  const flushSame = (end: number): void => {
    if (sameFrom === null) return;
    lines.push(`  ${sameFrom === end - 1 ? `${end}` : `${sameFrom + 1}–${end}`} same`);
    sameFrom = null;
  };
  for (let index = from; index < length; index += 1) {
    const a = messageText(diff.a[index]);
    const b = messageText(diff.b[index]);
    if (index > from && sameMessage(diff.a[index], diff.b[index])) {
      sameFrom ??= index;
      continue;
    }
    flushSame(index);
    const number = String(index + 1);
    lines.push(`  ${number} A ${a}`, `  ${' '.repeat(number.length)} B ${b}`);
  }
  flushSame(length);
  return lines;
}

function taskLines(diff: TaskDiff): string[] {
  const pad = ' '.repeat(diff.task.length + 2);
  return [`  ${diff.task}  A ${taskEnd(diff.a)}`, `  ${pad}B ${taskEnd(diff.b)}`];
}

function taskEnd(task: TaskDiff['a']): string {
  if (task === undefined) return '(no such task)';
  const said = task.error ?? task.summary;
  const output =
    task.output === undefined || task.output === null
      ? ''
      : ` · output ${compactJson(task.output, WIDTH)}`;
  return `${task.status}${said === undefined ? '' : `: ${firstLine(said, WIDTH)}`}${output}`;
}

/** A message on one line: its role, then each part (text, → tool call, ← tool result). */
export function messageText(message: Message | undefined): string {
  if (message === undefined) return '(no message)';
  return `${message.role} ${message.parts.map(partText).join(' · ')}`;
}

function partText(part: Part): string {
  switch (part.type) {
    case 'text':
      return `"${firstLine(part.text, WIDTH)}"`;
    case 'tool_call':
      return `→ ${part.name} ${jsonText(part.arguments)}`;
    case 'tool_result': {
      const content =
        typeof part.content === 'string'
          ? jsonText(part.content)
          : `(${countOf(part.content.length, 'part')})`;
      return `← ${part.name}${part.isError ? ' (error)' : ''} ${content}`;
    }
    case 'reasoning':
      return `(reasoning) ${firstLine(part.text, WIDTH)}`;
    case 'image':
    case 'document':
      return `(${part.type})`;
  }
}

/** JSON text compactly, other text as its first line. */
function jsonText(text: string): string {
  try {
    return compactJson(JSON.parse(text), WIDTH);
  } catch {
    return firstLine(text, WIDTH);
  }
}
