/** Media types `file_view` can show, detected from content. */
export type ViewableMediaType =
  'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/svg+xml' | 'application/pdf';

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((value, index) => bytes[at + index] === value);
}

function ascii(text: string): number[] {
  return [...text].map((character) => character.charCodeAt(0));
}

const SVG_START = /^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*<svg[\s>/]/i;

/**
 * The media type of a file's leading bytes (magic numbers; SVG by its root element), or
 * undefined when it is none of the viewable types. Extensions are never trusted: a PNG
 * renamed `.txt` is still a PNG, and a text file renamed `.png` is not.
 */
export function detectViewableType(head: Uint8Array): ViewableMediaType | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(head, ascii('%PDF-'))) return 'application/pdf';
  const text = new TextDecoder('utf-8').decode(head).replace(/^\uFEFF/, '');
  if (SVG_START.test(text)) return 'image/svg+xml';
  return undefined;
}

/** True when leading bytes look binary: a NUL byte, or a known binary signature. */
export function looksBinary(head: Uint8Array): boolean {
  if (head.includes(0)) return true;
  const type = detectViewableType(head);
  return type !== undefined && type !== 'image/svg+xml';
}
