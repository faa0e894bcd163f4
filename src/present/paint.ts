/**
 * Colour for the headless printers (the plain log, `runs`, `show`): roles, not colours, so a
 * status reads the same everywhere and no escape is written when colour is off.
 */

/** Colour roles. */
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

/** The painter that never colours. */
export const noPaint: Painter = painter(false);

/** The tone of a run, task or item status; a status not listed is shown plain. */
const STATUS_TONES: Record<string, Tone | undefined> = {
  succeeded: 'good',
  failed: 'bad',
  corrupt: 'bad',
  cancelled: 'warn',
  interrupted: 'warn',
  skipped: 'dim',
  running: 'accent',
};

/**
 * A status word inside an already padded cell, painted (callers pad first: escapes take no
 * columns, so padding after painting would misalign).
 */
export function paintStatus(status: string, padded: string, paint: Painter): string {
  const tone = STATUS_TONES[status];
  return tone === undefined ? padded : padded.replace(status, paint(tone, status));
}
