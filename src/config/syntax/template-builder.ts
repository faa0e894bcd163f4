import type { Expr, TemplateExpr, TemplateText } from '../ast.ts';
import { invalidExpr, unsupported } from './invalid-expr.ts';
import type { Scanner } from './scanner.ts';
import { skipBalanced } from './skip.ts';

/**
 * Where the plain text at the cursor ends: the offset of the next character `specials` (a
 * global regular expression of single characters) matches, or the end of the text.
 */
export function plainTextEnd(scanner: Scanner, specials: RegExp): number {
  specials.lastIndex = scanner.offset;
  return specials.exec(scanner.text)?.index ?? scanner.text.length;
}

/** Parses one `${ ... }` interpolation at the cursor (provided by the expression parser). */
export type InterpolationParser = () => Expr;

/** Collects template parts, merging adjacent text into one part spanning its source. */
export class TemplateBuilder {
  readonly parts: Array<TemplateText | Expr> = [];
  private text = '';
  private textStart = -1;
  private textEnd = -1;
  /** Set once a `%{ }` directive was reported: the whole template becomes a stand-in. */
  sawDirective = false;

  constructor(private readonly scanner: Scanner) {}

  addText(value: string, start: number, end: number): void {
    if (this.textStart < 0) this.textStart = start;
    this.text += value;
    this.textEnd = end;
  }

  addExpr(expr: Expr): void {
    this.flushText();
    this.parts.push(expr);
  }

  flushText(): void {
    if (this.textStart < 0) return;
    const span = this.scanner.span(this.textStart, this.textEnd);
    this.parts.push({ kind: 'text', value: this.text, span });
    this.text = '';
    this.textStart = -1;
  }

  /** Handles `$${`, `%%{`, `${` and `%{` at the cursor; false when none is there. */
  addSequence(interpolation: InterpolationParser): boolean {
    const scanner = this.scanner;
    const start = scanner.offset;
    if (scanner.startsWith('$${') || scanner.startsWith('%%{')) {
      scanner.offset += 3;
      this.addText(scanner.text.slice(start + 1, start + 3), start, scanner.offset);
    } else if (scanner.startsWith('${')) {
      this.addExpr(interpolation());
    } else if (scanner.startsWith('%{')) {
      scanner.offset += 2;
      skipBalanced(scanner, '}');
      unsupported(scanner, start, 'template directive');
      this.sawDirective = true;
    } else {
      return false;
    }
    return true;
  }

  finish(start: number, heredoc: boolean): Expr {
    this.flushText();
    const span = this.scanner.span(start);
    if (this.sawDirective) return invalidExpr(span);
    const template: TemplateExpr = { kind: 'template', parts: this.parts, heredoc, span };
    return template;
  }
}
