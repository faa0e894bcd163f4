/**
 * The readable difference between a recorded request and the one a replayed run makes: the
 * first section that differs (model, reasoning, system, messages, tools), then its first
 * differing region as unified-style lines with a little context.
 */
import type { ModelReference } from '../../base/events.ts';
import type { CassetteRequest } from './cassette-format.ts';

/** Lines of unchanged context shown around the differing region. */
const CONTEXT_LINES = 3;
/** Changed lines shown per side before eliding the rest. */
const MAX_CHANGED_LINES = 8;
/** Longest line shown; longer ones are cut around their first difference. */
const MAX_LINE_LENGTH = 160;

/** A request as compared: the model it went to plus its content. */
export interface ComparableRequest extends CassetteRequest {
  model: ModelReference;
}

/** Undefined when the requests are equal, else the diff text (without a title line). */
export function requestDiff(
  recorded: ComparableRequest,
  actual: ComparableRequest,
): string | undefined {
  for (const section of ['model', 'reasoning', 'system', 'messages', 'tools'] as const) {
    const before = sectionLines(section, recorded);
    const after = sectionLines(section, actual);
    if (before.join('\n') !== after.join('\n'))
      return `in ${section}:\n${regionDiff(before, after)}`;
  }
  return undefined;
}

function sectionLines(section: keyof ComparableRequest, request: ComparableRequest): string[] {
  // The system prompt is prose: diff it by its own lines, not as one long JSON string.
  if (section === 'system') return request.system.split('\n');
  return (JSON.stringify(sortKeys(request[section]), null, 2) ?? 'null').split('\n');
}

function regionDiff(before: string[], after: string[]): string {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix])
    prefix += 1;
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const removed = before.slice(prefix, before.length - suffix);
  const added = after.slice(prefix, after.length - suffix);
  const focus =
    removed.length === 1 && added.length === 1
      ? firstDifference(removed[0] ?? '', added[0] ?? '')
      : 0;
  const lines = [
    '--- cassette',
    '+++ this run',
    `@@ line ${prefix + 1} @@`,
    ...before
      .slice(Math.max(0, prefix - CONTEXT_LINES), prefix)
      .map((line) => `  ${clip(line, 0)}`),
    ...changed('-', removed, focus),
    ...changed('+', added, focus),
    ...before
      .slice(before.length - suffix, before.length - suffix + CONTEXT_LINES)
      .map((line) => `  ${clip(line, 0)}`),
  ];
  return lines.join('\n');
}

function changed(sign: '-' | '+', lines: string[], focus: number): string[] {
  const shown = lines.slice(0, MAX_CHANGED_LINES).map((line) => `${sign} ${clip(line, focus)}`);
  if (lines.length > MAX_CHANGED_LINES)
    shown.push(`${sign} … ${lines.length - MAX_CHANGED_LINES} more lines`);
  return shown;
}

function firstDifference(left: string, right: string): number {
  let index = 0;
  while (index < left.length && index < right.length && left[index] === right[index]) index += 1;
  return index;
}

/** Cuts a long line to a window that starts a little before `focus`. */
function clip(line: string, focus: number): string {
  if (line.length <= MAX_LINE_LENGTH) return line;
  const start = Math.max(0, Math.min(focus - 40, line.length - MAX_LINE_LENGTH));
  const window = line.slice(start, start + MAX_LINE_LENGTH);
  return `${start > 0 ? '…' : ''}${window}${start + MAX_LINE_LENGTH < line.length ? '…' : ''}`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
