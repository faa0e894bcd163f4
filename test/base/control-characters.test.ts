import { describe, expect, it } from 'vitest';
import {
  escapeControlCharacters,
  hasControlCharacters,
} from '../../src/base/control-characters.ts';

describe('escapeControlCharacters', () => {
  it('writes C0 controls, DEL and C1 controls as visible escapes', () => {
    expect(escapeControlCharacters('a\u001b]0;T\u0007b\u007fc\u009bd\u0000')).toBe(
      'a\\x1b]0;T\\x07b\\x7fc\\u009bd\\x00',
    );
  });

  it('keeps tabs, line feeds and CRLF line breaks, escaping a lone carriage return', () => {
    expect(escapeControlCharacters('a\tb\nc\r\nd\re')).toBe('a\tb\nc\r\nd\\x0de');
    expect(hasControlCharacters('a\tb\nc\r\n')).toBe(false);
    expect(hasControlCharacters('d\re')).toBe(true);
  });

  it('returns text without controls as it is', () => {
    const text = 'plain 東京 text — ok';
    expect(escapeControlCharacters(text)).toBe(text);
  });
});
