/**
 * The only door from the TUI into src/models: dollar formatting, so the TUI shows money
 * exactly as the plain log and `sortie show` do. cost.ts imports nothing but types.
 */
export { formatDollars } from '../models/cost.ts';

/** An integer with thousands separators: 48210 → `48,210`. */
export function formatCount(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
