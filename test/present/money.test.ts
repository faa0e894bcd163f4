import { describe, expect, it } from 'vitest';
import {
  formatCost,
  formatDollarLimit,
  formatDollars,
  formatPrice,
  totalsText,
} from '../../src/present/money.ts';

const PICO = 1_000_000_000_000n;

describe('formatDollars', () => {
  it('rounds half up to four decimals', () => {
    expect(formatDollars(412_050_000_000n)).toBe('$0.4121');
    expect(formatDollars(412_049_999_999n)).toBe('$0.4120');
    expect(formatDollars(0n)).toBe('$0.0000');
    expect(formatDollars(12_345_678_000_000n, 2)).toBe('$12.35');
    expect(formatDollars(12_345_678_000_000n, 0)).toBe('$12');
  });

  it('writes a non-zero amount that rounds to nothing as less than the smallest step', () => {
    expect(formatDollars(50_000_000n)).toBe('$0.0001');
    expect(formatDollars(49_999_999n)).toBe('<$0.0001');
    expect(formatDollars(-49_999_999n)).toBe('-<$0.0001');
  });

  it('groups thousands like every other number', () => {
    expect(formatDollars(1_234_567_890_000_000n)).toBe('$1,234.5679');
    expect(formatDollars(-1_234_567_890_000_000n)).toBe('-$1,234.5679');
  });
});

describe('formatDollarLimit', () => {
  it('shows limits with 2 to 6 decimals', () => {
    expect(formatDollarLimit(PICO)).toBe('$1.00');
    expect(formatDollarLimit(PICO / 2n)).toBe('$0.50');
    expect(formatDollarLimit(PICO / 8n)).toBe('$0.125');
    expect(formatDollarLimit(1_000n * PICO)).toBe('$1,000.00');
    expect(formatDollarLimit(1_000_000n)).toBe('$0.000001');
  });
});

describe('formatPrice', () => {
  it('shows dollars per 1M tokens with at least two decimals, zero as $0', () => {
    expect([0, 0.15, 2.5, 0.075, 15, 1.25, 0.0375, 1500].map(formatPrice)).toEqual([
      '$0',
      '$0.15',
      '$2.50',
      '$0.075',
      '$15.00',
      '$1.25',
      '$0.0375',
      '$1,500.00',
    ]);
  });
});

describe('formatCost and totalsText', () => {
  it('marks money with a star when some price was unknown', () => {
    expect(formatCost(412_100_000_000n, false)).toBe('$0.4121');
    expect(formatCost(0n, true)).toBe('$0.0000*');
  });

  it('writes a run’s totals with counts, tokens and cost', () => {
    expect(totalsText(1, 48_210, 412_100_000_000n, false)).toBe('1 task · 48,210 tokens · $0.4121');
    expect(totalsText(12, 0, 0n, true)).toBe('12 tasks · 0 tokens · $0.0000*');
  });
});
