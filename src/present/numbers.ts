/** Counts, durations and elapsed times as text: one way to write each, everywhere. */

/** `10412` → `10,412` (digits only). */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A count rounded to an integer, thousands grouped with commas: `48,210`, `-1,200`. */
export function formatCount(value: number): string {
  const rounded = Math.round(value);
  const text = groupThousands(String(Math.abs(rounded)));
  return rounded < 0 ? `-${text}` : text;
}

/** `1 message`, `3 messages`, `1,204 tokens`. */
export function countOf(value: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(value)} ${value === 1 ? singular : plural}`;
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/** How long something took: `340ms`, `4.2s`, `3m 05s`, `1h 02m`. */
export function formatDuration(milliseconds: number): string {
  const shown = Math.max(0, Math.round(milliseconds));
  if (shown < 1000) return `${shown}ms`;
  // Tenths are rounded down, so 59.96 s reads `59.9s`, not `60.0s`.
  if (shown < 60_000) return `${(Math.floor(shown / 100) / 10).toFixed(1)}s`;
  const seconds = Math.floor(shown / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${pad2(seconds % 60)}s`;
  return `${Math.floor(seconds / 3600)}h ${pad2(Math.floor((seconds % 3600) / 60))}m`;
}

/**
 * Time since the start of a run, as a clock: `00:03.2`, `12:40.0`; from an hour on
 * `1:02:03.4`. Tenths are rounded down, so the clock never runs ahead.
 */
export function formatElapsed(milliseconds: number): string {
  const tenths = Math.max(0, Math.floor(milliseconds / 100));
  const clock = `${pad2(Math.floor(tenths / 600) % 60)}:${pad2(Math.floor(tenths / 10) % 60)}.${tenths % 10}`;
  const hours = Math.floor(tenths / 36_000);
  return hours === 0 ? clock : `${hours}:${clock}`;
}
