/**
 * Money as text, from pico-dollars (the exact integer unit of src/models/cost.ts): spending,
 * configured limits and per-token prices all group thousands and round half up the same way.
 */
import { countOf, formatCount, groupThousands } from './numbers.ts';

const PICO_DIGITS = 12;

/** Non-negative pico-dollars with `maxDigits` decimals, trailing zeros trimmed down to `minDigits`. */
function dollarsText(pico: bigint, minDigits: number, maxDigits: number): string {
  const unit = 10n ** BigInt(PICO_DIGITS - maxDigits);
  const rounded = (pico + unit / 2n) / unit;
  const scale = 10n ** BigInt(maxDigits);
  let fraction = String(rounded % scale).padStart(maxDigits, '0');
  while (fraction.length > minDigits && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const whole = `$${groupThousands(String(rounded / scale))}`;
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/**
 * Spending with `digits` decimals (default 4), rounded half up: `$0.4121`, `$1,234.5679`.
 * A non-zero amount that rounds to zero shows as `<$0.0001`.
 */
export function formatDollars(pico: bigint, digits = 4): string {
  const sign = pico < 0n ? '-' : '';
  const magnitude = pico < 0n ? -pico : pico;
  const unit = 10n ** BigInt(PICO_DIGITS - digits);
  if (magnitude > 0n && magnitude < unit / 2n)
    return `${sign}<$${(1 / 10 ** digits).toFixed(digits)}`;
  return `${sign}${dollarsText(magnitude, digits, digits)}`;
}

/** A configured limit with 2 to 6 decimals: `$1.00`, `$0.125`, `$1,000.00`. */
export function formatDollarLimit(pico: bigint): string {
  return dollarsText(pico, 2, 6);
}

/** A price per million tokens, in dollars: `$0.15`, `$2.50`, `$0.075`, `$0`. */
export function formatPrice(dollarsPerMillion: number): string {
  if (dollarsPerMillion === 0) return '$0';
  return dollarsText(BigInt(Math.round(dollarsPerMillion * 10 ** PICO_DIGITS)), 2, 6);
}

/** Spending, with `*` when some model had no known price (see UNPRICED_NOTE). */
export function formatCost(pico: bigint, unpriced: boolean): string {
  return unpriced ? `${formatDollars(pico)}*` : formatDollars(pico);
}

/** The footnote explaining `*`. */
export const UNPRICED_NOTE = '* some models have no known price; their turns count as $0';

/** What a run has done: `12 tasks · 48,210 tokens · $0.4121`. */
export function totalsText(tasks: number, tokens: number, pico: bigint, unpriced: boolean): string {
  return `${countOf(tasks, 'task')} · ${formatCount(tokens)} tokens · ${formatCost(pico, unpriced)}`;
}
