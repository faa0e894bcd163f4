/**
 * Dollar cost of token usage in exact integer arithmetic. Amounts are pico-dollars
 * (1e-12 USD) held in bigint: a price of $P per 1M tokens is P×10^6 pico-dollars per token,
 * an integer for any price with up to 6 decimals (finer prices are rounded to that), so
 * sums never drift and have no upper bound.
 */
import type { Pricing, Usage } from './model-types.ts';

/** Pico-dollars per USD. */
export const PICO_PER_DOLLAR = 1_000_000_000_000n;

/** Pico-dollars per token for a price in USD per 1M tokens. */
export function picoPerToken(pricePerMillion: number): bigint {
  return BigInt(Math.round(pricePerMillion * 1_000_000));
}

/** A dollar amount (e.g. a budget) as pico-dollars, to 1e-12 USD. */
export function dollarsToPico(dollars: number): bigint {
  const [whole = '0', fraction = ''] = dollars.toFixed(12).split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return (
    sign * (BigInt(whole.replace('-', '')) * PICO_PER_DOLLAR + BigInt(fraction.padEnd(12, '0')))
  );
}

/** The cost of one turn; `unpriced` when the model has no known price (its cost counts as 0). */
export interface TurnCost {
  pico: bigint;
  unpriced: boolean;
}

/** Σ class tokens × class price; no pricing → 0 and `unpriced`. */
export function usageCost(usage: Usage, pricing: Pricing | undefined): TurnCost {
  if (pricing === undefined) return { pico: 0n, unpriced: true };
  const pico =
    BigInt(usage.input) * picoPerToken(pricing.input) +
    BigInt(usage.output) * picoPerToken(pricing.output) +
    BigInt(usage.cacheRead) * picoPerToken(pricing.cacheRead) +
    BigInt(usage.cacheWrite) * picoPerToken(pricing.cacheWrite);
  return { pico, unpriced: false };
}
