/**
 * The finished run's summary line, written once the TUI has left the screen (renderTui): it
 * stays in the terminal's scrollback under the last frame. Written while Ink draws, it would
 * land above the frame and push it down a line.
 */
import { totalsText } from '../../present/money.ts';
import type { RunHeader } from '../store/index.ts';

/** `mission:research succeeded · 12 tasks · 48,210 tokens · $0.4121`. */
export function summaryLine(header: RunHeader): string {
  const totals = totalsText(header.taskCount, header.tokens, header.costPico, header.unpriced);
  return `mission:${header.mission ?? '?'} ${header.status} · ${totals}`;
}
