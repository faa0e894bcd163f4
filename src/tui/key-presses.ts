/**
 * A read from the terminal taken apart into single keys. Ink 6 splits a read at escape
 * sequences only: keys typed faster than the terminal is read (key repeat, a paste, `tmux
 * send-keys j j Enter`) reach `useInput` as one string, `jj\r`, that no key of the table is.
 */
import type { PressedKey } from './key-match.ts';

/** One key as the key table reads it. */
export interface KeyPress {
  input: string;
  key: PressedKey;
}

/** No named key, no Ctrl: a typed character. */
export const NO_KEY: PressedKey = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  return: false,
  escape: false,
  tab: false,
  backspace: false,
  delete: false,
  pageUp: false,
  pageDown: false,
  ctrl: false,
};

const CTRL_A = 0x01;
const CTRL_Z = 0x1a;

/** The key one character of a longer read stands for, as Ink reports it when it comes alone. */
function characterKey(character: string): KeyPress {
  // A pasted line end may be a line feed; the Enter key sends a carriage return.
  if (character === '\r' || character === '\n')
    return { input: '', key: { ...NO_KEY, return: true } };
  if (character === '\t') return { input: '', key: { ...NO_KEY, tab: true } };
  if (character === '\b') return { input: '', key: { ...NO_KEY, backspace: true } };
  if (character === '\u007f') return { input: '', key: { ...NO_KEY, delete: true } };
  if (character === '\u001b') return { input: '', key: { ...NO_KEY, escape: true } };
  const code = character.codePointAt(0) ?? 0;
  if (code >= CTRL_A && code <= CTRL_Z) {
    return { input: String.fromCodePoint(code + 0x60), key: { ...NO_KEY, ctrl: true } };
  }
  // Other control characters are no key of the table, and no text.
  return code < 0x20 ? { input: '', key: NO_KEY } : { input: character, key: NO_KEY };
}

/** Whether Ink named a key (Ink's own key object has more fields, such as `shift`). */
function namesKey(key: PressedKey): boolean {
  return (Object.keys(NO_KEY) as Array<keyof PressedKey>).some((flag) => key[flag]);
}

/** The keys of one `useInput` call, in the order they were typed. */
export function keyPresses(input: string, key: PressedKey): KeyPress[] {
  const characters = Array.from(input);
  // What Ink parsed as one key (a named key, an escape sequence, one character) stays as it is.
  if (characters.length <= 1 || namesKey(key)) return [{ input, key }];
  return characters.map(characterKey);
}
