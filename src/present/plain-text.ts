/** Small text helpers of the headless printers: numbers, durations, shortening, colour. */

/** `48210` → `48,210` (the journal's formatter, shared so `show` and the log agree). */
export { formatCount } from './report-text.ts';

/** Elapsed milliseconds as `mm:ss.d` (minutes grow past 99 rather than wrap). */
export function formatElapsed(milliseconds: number): string {
  const tenths = Math.max(0, Math.floor(milliseconds / 100));
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor((tenths % 600) / 10);
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}.${tenths % 10}`;
}

/** A duration for a summary: `340ms`, `4.2s`, `3m 05s`. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.round(milliseconds)}ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)}s`;
  const seconds = Math.round(milliseconds / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/** The first non-blank line of a text, whitespace collapsed, cut to `limit` characters with `…`. */
export function shorten(text: string, limit: number): string {
  const line = (text.split('\n').find((candidate) => candidate.trim() !== '') ?? '')
    .trim()
    .replace(/\s+/g, ' ');
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

/** A value as compact JSON cut to `limit` characters (`…` marks the cut). */
export function compactJson(value: unknown, limit: number): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** Colour roles of the line log. */
export type Tone = 'dim' | 'good' | 'bad' | 'warn' | 'accent';

const ANSI: Record<Tone, [string, string]> = {
  dim: ['\u001b[2m', '\u001b[22m'],
  good: ['\u001b[32m', '\u001b[39m'],
  bad: ['\u001b[31m', '\u001b[39m'],
  warn: ['\u001b[33m', '\u001b[39m'],
  accent: ['\u001b[36m', '\u001b[39m'],
};

/** Paints text for a terminal, or returns it unchanged when colour is off. */
export type Painter = (tone: Tone, text: string) => string;

/** The painter for a colour setting. */
export function painter(color: boolean): Painter {
  if (!color) return (_tone, text) => text;
  return (tone, text) => `${ANSI[tone][0]}${text}${ANSI[tone][1]}`;
}
