/** Lays the detail blocks out as the lines that fit the pane, around the cursor block. */
import type { DetailBlock } from './detail-blocks.ts';
import { truncate, wrapLines } from '../../present/columns.ts';
import { countOf } from '../../present/numbers.ts';

/** One screen line of the detail pane. */
export interface DetailLine {
  text: string;
  /** A block's title line. */
  title: boolean;
  /** Part of the block under the cursor. */
  selected: boolean;
}

export interface DetailLayoutOptions {
  cursor: number;
  expanded: ReadonlySet<string>;
  width: number;
  height: number;
  /** Lines scrolled past the cursor block's title (page keys). */
  offset: number;
}

function blockLines(block: DetailBlock, expanded: boolean, width: number): string[] {
  // Bodies sit two columns right of their title (which leaves room for the cursor mark).
  const body = wrapLines(block.body, width - 4).map((line) => `    ${line}`);
  const limit = expanded ? Infinity : block.collapsedLines;
  if (body.length <= limit) return body;
  const hidden = body.length - limit;
  return [...body.slice(0, limit), `    … ${countOf(hidden, 'more line', 'more lines')} (enter)`];
}

/** The visible lines, the cursor block's title first unless near the end. */
export function layoutDetail(
  blocks: readonly DetailBlock[],
  options: DetailLayoutOptions,
): DetailLine[] {
  const lines: DetailLine[] = [];
  let cursorStart = 0;
  blocks.forEach((block, position) => {
    const selected = position === options.cursor;
    if (selected) cursorStart = lines.length;
    const marker = selected ? '▸ ' : '  ';
    lines.push({ text: truncate(`${marker}${block.title}`, options.width), title: true, selected });
    for (const text of blockLines(block, options.expanded.has(block.key), options.width)) {
      lines.push({ text, title: false, selected });
    }
  });
  const maxStart = Math.max(0, lines.length - options.height);
  const start = Math.max(0, Math.min(cursorStart + options.offset, maxStart));
  return lines.slice(start, start + options.height);
}
