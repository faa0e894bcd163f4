/**
 * A journal line's checksum: the CRC-32 of the event's JSON text, written as the line's last
 * member (`…,"$crc":"1a2b3c4d"}`), so a byte changed on disk (inside a string, where the JSON
 * stays valid) is found when the line is read instead of being resumed with a changed value.
 * CRC-32 is what zlib computes natively (`zlib.crc32`, Node 20.15 and later): a few GB/s, so
 * sealing costs little beside the JSON encoding on the journal's hot path; it finds every
 * change of up to 32 bits in a row, and what it guards against is damage, not tampering.
 * Lines without the member (journals written before it) are read as they are.
 */
import { crc32 } from 'node:zlib';

/** The member's key; no event has a field of this name. */
export const CHECKSUM_KEY = '$crc';

const HEAD = `,"${CHECKSUM_KEY}":"`;
const HEAD_BYTES = Buffer.from(HEAD, 'utf8');
const HEX_DIGITS = 8;
/** `,"$crc":"` + 8 hex digits + `"}`. */
const MEMBER_BYTES = HEAD_BYTES.length + HEX_DIGITS + 2;
const CLOSING_BRACE = Buffer.from('}', 'utf8');
const QUOTE = 0x22;
const BRACE = 0x7d;

/** `json`, the JSON text of a non-empty object, with its checksum as its last member. */
export function withChecksum(json: string): string {
  const checksum = crc32(json).toString(16).padStart(HEX_DIGITS, '0');
  return `${json.slice(0, -1)}${HEAD}${checksum}"}`;
}

/**
 * What a line's checksum says: `unchecked` for a line without one (an older journal), `mismatch`
 * when the line changed after it was written, else the line's JSON text without the member.
 */
export function checkLine(bytes: Buffer): string | 'unchecked' | 'mismatch' {
  const length = bytes.length;
  if (length <= MEMBER_BYTES) return 'unchecked';
  const head = length - MEMBER_BYTES;
  if (bytes[length - 1] !== BRACE || bytes[length - 2] !== QUOTE) return 'unchecked';
  if (!bytes.subarray(head, head + HEAD_BYTES.length).equals(HEAD_BYTES)) return 'unchecked';
  const digits = bytes.toString('latin1', head + HEAD_BYTES.length, length - 2);
  if (!/^[0-9a-f]{8}$/.test(digits)) return 'mismatch';
  const body = bytes.subarray(0, head);
  const actual = crc32(CLOSING_BRACE, crc32(body));
  if (actual !== Number.parseInt(digits, 16)) return 'mismatch';
  return `${body.toString('utf8')}}`;
}
