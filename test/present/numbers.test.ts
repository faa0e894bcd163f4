import { describe, expect, it } from 'vitest';
import {
  countOf,
  formatCount,
  formatDuration,
  formatElapsed,
  groupThousands,
} from '../../src/present/numbers.ts';

describe('counts', () => {
  it('groups thousands with commas and rounds to an integer', () => {
    expect(groupThousands('999')).toBe('999');
    expect(groupThousands('1000')).toBe('1,000');
    expect(groupThousands('1234567')).toBe('1,234,567');
    expect([0, 999, 1000, 48_210, 1_234_567, 1234.6, -1200].map(formatCount)).toEqual([
      '0',
      '999',
      '1,000',
      '48,210',
      '1,234,567',
      '1,235',
      '-1,200',
    ]);
  });

  it('names a count in the singular only for one', () => {
    expect(countOf(1, 'message')).toBe('1 message');
    expect(countOf(0, 'message')).toBe('0 messages');
    expect(countOf(2_000, 'entry', 'entries')).toBe('2,000 entries');
  });
});

describe('formatDuration', () => {
  it('writes milliseconds, seconds with tenths, minutes and hours', () => {
    expect(
      [0, 340, 999.6, 1000, 4_250, 59_960, 60_000, 185_000, 3_599_999, 3_720_000, -5].map(
        formatDuration,
      ),
    ).toEqual([
      '0ms',
      '340ms',
      '1.0s',
      '1.0s',
      '4.2s',
      '59.9s',
      '1m 00s',
      '3m 05s',
      '59m 59s',
      '1h 02m',
      '0ms',
    ]);
  });
});

describe('formatElapsed', () => {
  it('writes a clock of minutes, seconds and tenths, with hours from an hour on', () => {
    expect([0, 4_950, 61_200, 3_599_999, 3_723_400, 36_000_000, -5].map(formatElapsed)).toEqual([
      '00:00.0',
      '00:04.9',
      '01:01.2',
      '59:59.9',
      '1:02:03.4',
      '10:00:00.0',
      '00:00.0',
    ]);
  });
});
