import type { Expr } from '../ast.ts';
import type { Scanner } from './scanner.ts';
import { plainTextEnd, TemplateBuilder, type InterpolationParser } from './template-builder.ts';

const simpleEscapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };

/** Characters that end a run of plain text in a quoted string. */
const QUOTED_SPECIALS = /["\\$%\r\n]/g;

/** Parses a quoted template `"..."` at the cursor. */
export function parseQuotedTemplate(scanner: Scanner, interpolation: InterpolationParser): Expr {
  const start = scanner.offset;
  scanner.offset++;
  const builder = new TemplateBuilder(scanner);
  for (;;) {
    // HCL ends a quoted string's line at a lone `\r` too.
    if (scanner.atEnd() || scanner.atNewline() || scanner.peek() === '\r') {
      scanner.fail(
        start,
        scanner.offset,
        'syntax error: unterminated string; a quoted string ends on its own line (use \\n or a heredoc for several lines)',
      );
    }
    // A run of plain text is taken whole: one part per run, not one per character.
    const runEnd = plainTextEnd(scanner, QUOTED_SPECIALS);
    if (runEnd > scanner.offset) {
      const runStart = scanner.offset;
      builder.addText(scanner.takePlainText(runEnd), runStart, runEnd);
      continue;
    }
    const character = scanner.peek();
    if (character === '"') {
      scanner.offset++;
      return builder.finish(start, false);
    }
    if (character === '\\') addEscape(scanner, builder);
    else if (!builder.addSequence(interpolation)) {
      builder.addText(character, scanner.offset, scanner.offset + 1);
      scanner.offset++;
    }
  }
}

function addEscape(scanner: Scanner, builder: TemplateBuilder): void {
  const start = scanner.offset;
  const selector = scanner.peek(1);
  const simple = simpleEscapes[selector];
  if (simple !== undefined) {
    scanner.offset += 2;
    builder.addText(simple, start, scanner.offset);
    return;
  }
  const digits = selector === 'u' ? 4 : selector === 'U' ? 8 : 0;
  const hex = scanner.text.slice(start + 2, start + 2 + digits);
  const codePoint = digits > 0 && isHex(hex, digits) ? Number.parseInt(hex, 16) : -1;
  if (codePoint >= 0 && codePoint <= 0x10ffff) {
    scanner.offset += 2 + digits;
    builder.addText(String.fromCodePoint(codePoint), start, scanner.offset);
    return;
  }
  scanner.offset += selector === '' || selector === '\n' ? 1 : 2;
  scanner.report(
    start,
    scanner.offset,
    `syntax error: invalid escape sequence "${scanner.text.slice(start, scanner.offset)}"; use \\n, \\r, \\t, \\", \\\\, \\uNNNN or \\UNNNNNNNN`,
  );
  builder.addText(scanner.text.slice(start, scanner.offset), start, scanner.offset);
}

function isHex(text: string, length: number): boolean {
  return text.length === length && /^[0-9a-fA-F]*$/.test(text);
}
