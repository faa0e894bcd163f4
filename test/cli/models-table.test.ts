import { describe, expect, it } from 'vitest';
import { formatPrice } from '../../src/cli/models-table.ts';

describe('formatPrice', () => {
  it('shows dollars per 1M tokens with at least two decimals, zero as $0', () => {
    expect([0, 0.15, 2.5, 0.075, 15, 1.25, 0.0375].map(formatPrice)).toEqual([
      '$0',
      '$0.15',
      '$2.50',
      '$0.075',
      '$15.00',
      '$1.25',
      '$0.0375',
    ]);
  });
});
