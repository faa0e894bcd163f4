import { describe, expect, it } from 'vitest';
import { elapsedText, moneyText, progressText } from '../../../src/tui/view/status.ts';
import { wrapLines } from '../../../src/present/columns.ts';

describe('status texts', () => {
  it('writes elapsed time as mm:ss.s, and h:mm:ss from an hour on', () => {
    expect(elapsedText(0)).toBe('00:00.0');
    expect(elapsedText(4_950)).toBe('00:04.9');
    expect(elapsedText(61_200)).toBe('01:01.2');
    expect(elapsedText(3_723_400)).toBe('1:02:03');
    expect(elapsedText(-5)).toBe('00:00.0');
  });

  it('writes iteration progress as done/total with successes and failures', () => {
    expect(progressText({ total: 20, succeeded: 6, failed: 1, running: 13 })).toBe('7/20 ✓6 ✗1');
    expect(progressText({ total: null, succeeded: 0, failed: 0, running: 2 })).toBe('0/? ✓0 ✗0');
  });

  it('marks money with a star when some price was unknown', () => {
    expect(moneyText(412_100_000_000n, false)).toBe('$0.4121');
    expect(moneyText(0n, true)).toBe('$0.0000*');
  });

  it('hard-wraps text to the width and keeps empty lines', () => {
    expect(wrapLines('abcdefg\n\nxy', 3)).toEqual(['abc', 'def', 'g', '', 'xy']);
  });
});
