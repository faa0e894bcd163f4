/**
 * Control characters made visible: a terminal acts on them instead of showing them (an OSC
 * sequence retitles the window, a CSI one recolours or moves the cursor), so text from a
 * file, a model or a server shows them escaped (`\x1b`, `\u009b`) wherever it is printed.
 */

// C0 controls but tab and line feed (a CR only when it ends a CRLF line break), DEL, and the
// C1 controls (U+009B is a one-character CSI on some terminals). The regular expression
// matches control characters on purpose.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;
// eslint-disable-next-line no-control-regex
const HAS_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;

/** Whether the text holds a character `escapeControlCharacters` escapes. */
export function hasControlCharacters(text: string): boolean {
  return HAS_CONTROL.test(text);
}

/** The text with each control character written as `\xHH` (C0, DEL) or `\u00HH` (C1). */
export function escapeControlCharacters(text: string): string {
  if (!HAS_CONTROL.test(text)) return text;
  return text.replace(CONTROL, (character) => {
    const code = character.charCodeAt(0);
    const hex = code.toString(16).padStart(2, '0');
    return code < 0x80 ? `\\x${hex}` : `\\u00${hex}`;
  });
}
