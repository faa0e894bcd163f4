import { describe, expect, it } from 'vitest';
import { keyPresses, NO_KEY } from '../../src/tui/key-presses.ts';

describe('keyPresses', () => {
  it('takes a read of several keys apart, in order, as Ink reports each alone', () => {
    expect(keyPresses('jj\r/a b\t\u007f\b\u0003', NO_KEY)).toEqual([
      { input: 'j', key: NO_KEY },
      { input: 'j', key: NO_KEY },
      { input: '', key: { ...NO_KEY, return: true } },
      { input: '/', key: NO_KEY },
      { input: 'a', key: NO_KEY },
      { input: ' ', key: NO_KEY },
      { input: 'b', key: NO_KEY },
      { input: '', key: { ...NO_KEY, tab: true } },
      { input: '', key: { ...NO_KEY, delete: true } },
      { input: '', key: { ...NO_KEY, backspace: true } },
      { input: 'c', key: { ...NO_KEY, ctrl: true } },
    ]);
  });

  it('takes a pasted line feed for Enter and drops other control characters', () => {
    expect(keyPresses('x\n\u0000', NO_KEY)).toEqual([
      { input: 'x', key: NO_KEY },
      { input: '', key: { ...NO_KEY, return: true } },
      { input: '', key: NO_KEY },
    ]);
  });

  it('keeps a character wider than one UTF-16 unit whole', () => {
    expect(keyPresses('é🙂', NO_KEY).map((press) => press.input)).toEqual(['é', '🙂']);
  });

  it('leaves what Ink parsed as one key as it is', () => {
    const up = { ...NO_KEY, upArrow: true };
    expect(keyPresses('', up)).toEqual([{ input: '', key: up }]);
    expect(keyPresses('G', NO_KEY)).toEqual([{ input: 'G', key: NO_KEY }]);
    const ctrlC = { ...NO_KEY, ctrl: true };
    expect(keyPresses('c', ctrlC)).toEqual([{ input: 'c', key: ctrlC }]);
  });
});
