import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import {
  lineWidth,
  alignRows,
  firstLine,
  oneLine,
  padEnd,
  padStart,
  textWidth,
  truncate,
  wrapLines,
} from '../../src/present/columns.ts';

describe('textWidth', () => {
  it('counts terminal columns: two for CJK and emoji, none for escapes', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('調査タスク')).toBe(10);
    expect(textWidth('🚀 launch')).toBe(9);
    expect(textWidth('\u001b[31mred\u001b[39m')).toBe(3);
    expect(textWidth('ab\n調査')).toBe(4);
  });
});

describe('lineWidth', () => {
  // The shortcut's character set, as lineWidth's regular expression lists it.
  const narrowRanges = [
    [0x20, 0x7e],
    [0xa0, 0xac],
    [0xae, 0x2ff],
    [0x2010, 0x2027],
    [0x2030, 0x205e],
    [0x2190, 0x21ff],
    [0x2500, 0x25fc],
  ] as const;

  it('gives every character of the narrow shortcut the one column string-width gives it', () => {
    const wrong: string[] = [];
    for (const [first, last] of narrowRanges) {
      for (let code = first; code <= last; code++) {
        const character = String.fromCodePoint(code);
        if (lineWidth(character) !== 1 || stringWidth(character) !== 1) wrong.push(character);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('measures tree rows, wide characters and escapes as string-width does', () => {
    for (const line of [
      '› ▾ ● task:fetch · working — 3/10',
      '▸ ⏸ agent 調査',
      '⏸️ held',
      'a\u0301',
      '\u001b[1mb\u001b[22m',
    ])
      expect(lineWidth(line)).toBe(stringWidth(line));
    expect(lineWidth('› ▾ ● task')).toBe(10);
    expect(lineWidth('▸ 調査')).toBe(6);
  });

  it('cuts narrow text where cli-truncate cuts it', () => {
    const line = '› ▾ ● commander:fetch[12] · calling model — 1.2k $0.01';
    for (let width = 1; width <= line.length + 1; width++)
      expect(truncate(line, width)).toBe(
        cliTruncate(line, width, { position: 'end', truncationCharacter: '…' }),
      );
  });
});

describe('wrapLines', () => {
  it('breaks between words, never inside one that fits a line', () => {
    expect(wrapLines('calling complete_subtask after 1 message', 18)).toEqual([
      'calling',
      'complete_subtask',
      'after 1 message',
    ]);
    expect(wrapLines('held before model request: 1 message', 30)).toEqual([
      'held before model request: 1',
      'message',
    ]);
  });

  it('cuts only a word wider than the line, and keeps empty lines', () => {
    expect(wrapLines('abcdefg\n\nxy', 3)).toEqual(['abc', 'def', 'g', '', 'xy']);
  });

  it('keeps each line within the width in columns, CJK and emoji included', () => {
    const lines = wrapLines('東京の天気は晴れ、気温は二十度です。🌞🌞🌞 fine', 10);
    expect(lines.every((line) => textWidth(line) <= 10)).toBe(true);
    expect(lines).toEqual(['東京の天気', 'は晴れ、気', '温は二十度', 'です。🌞🌞', '🌞 fine']);
  });

  it('repeats a line’s indentation on its continuation lines', () => {
    expect(wrapLines('{\n  "summary": "one two three four"\n}', 20)).toEqual([
      '{',
      '  "summary": "one',
      '  two three four"',
      '}',
    ]);
  });
});

describe('truncate and padding', () => {
  it('cuts to columns with an ellipsis, at the end or in the middle', () => {
    expect(truncate('research', 5)).toBe('rese…');
    expect(truncate('research', 8)).toBe('research');
    expect(truncate('調査タスク', 7)).toBe('調査タ…');
    expect(truncate('調査タスク', 6)).toBe('調査…');
    expect(truncate('openai.gpt-4o-mini-2024-07-18', 16, 'middle')).toBe('openai.g…4-07-18');
    expect(truncate('anything', 0)).toBe('');
  });

  it('pads to exact columns whatever the characters', () => {
    expect(padEnd('調査', 6)).toBe('調査  ');
    expect(padStart('🚀', 4)).toBe('  🚀');
    expect(textWidth(padEnd('調査タスクの結果', 7))).toBe(7);
    expect(textWidth(padEnd('調査タスクの結果', 6))).toBe(6);
  });

  it('aligns a table by columns, not characters', () => {
    const rows = alignRows(
      [
        ['調査', '1,200'],
        ['fetch', '7'],
      ],
      new Set([1]),
    );
    expect(rows.map((row) => row.join(' '))).toEqual(['調査  1,200', 'fetch     7']);
  });

  it('squeezes text to one line, or its first non-blank line', () => {
    expect(oneLine('  a\n  b\tc  ', 10)).toBe('a b c');
    expect(firstLine('\n\n  first   line \nsecond', 20)).toBe('first line');
    expect(firstLine('a long first line', 8)).toBe('a long …');
  });
});
