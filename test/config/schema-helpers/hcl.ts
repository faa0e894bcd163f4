import type { Block, Expr } from '../../../src/config/ast.ts';
import type { Diagnostic } from '../../../src/base/errors.ts';
import { parseSource } from '../../../src/config/syntax/index.ts';

/** Parses HCL text written for a test; fails the test on syntax errors. */
function parse(text: string): { attributes: Map<string, Expr>; blocks: Block[] } {
  const { file, diagnostics } = parseSource('test.hcl', text);
  if (diagnostics.length > 0) throw new Error(`syntax errors: ${JSON.stringify(diagnostics)}`);
  return {
    attributes: new Map(file.body.attributes.map((attribute) => [attribute.name, attribute.value])),
    blocks: file.body.blocks,
  };
}

/** The expression of the single attribute in `text`, e.g. `inputs = { ... }`. */
export function parseAttribute(text: string): Expr {
  const [value] = parse(text).attributes.values();
  if (value === undefined) throw new Error('no attribute in test text');
  return value;
}

/** The first top-level block of `text`. */
export function parseBlock(text: string): Block {
  const [block] = parse(text).blocks;
  if (block === undefined) throw new Error('no block in test text');
  return block;
}

/** Every top-level block of `text`. */
export function parseBlocks(text: string): Block[] {
  return parse(text).blocks;
}

/** Diagnostics as `line:column-endLine:endColumn message` strings: exact and easy to read. */
export function located(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map(
    (diagnostic) =>
      `${diagnostic.line}:${diagnostic.column}-${diagnostic.endLine}:${diagnostic.endColumn} ${diagnostic.message}`,
  );
}
