/** Choices and start times of the `runs` and `show` reports. */

/** Formatting choices; plain text unless `color` is set. */
export interface TextFormatOptions {
  /** Colour statuses with ANSI escapes (only when asked). */
  color?: boolean;
  /** IANA zone for start times (default: the machine's). */
  timeZone?: string;
}

/** `2026-11-22 05:23:02` in the chosen zone; '' for ''. */
export function formatStart(iso: string, options: TextFormatOptions): string {
  if (iso === '') return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // The Swedish locale writes ISO-like dates: 2026-11-22 05:23:02.
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: options.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(date);
}
