/**
 * The positioned syntax tree of a project's HCL files: what the syntax layer (source index,
 * hcl2json, expression parser) hands to the semantic layer (blocks, references, validation).
 * Everything is in declaration order. Lines and columns are 1-based; columns count UTF-16
 * code units like editors do; `end` is exclusive.
 */
import type { Span } from '../base/span.ts';

export type { Position, Span } from '../base/span.ts';

/** A literal scalar. Numbers keep HCL's decimal text in `raw` (no float rounding surprises). */
export interface LiteralExpr {
  kind: 'literal';
  value: string | number | boolean | null;
  raw?: string;
  span: Span;
}

/**
 * A quoted string or heredoc. `parts` alternate text and interpolations; `$${` escapes are
 * already resolved into text, heredoc indentation (`<<-`) already stripped. A string with no
 * interpolation is a template with one text part (or none when empty).
 */
export interface TemplateExpr {
  kind: 'template';
  parts: Array<TemplateText | Expr>;
  heredoc: boolean;
  span: Span;
}

export interface TemplateText {
  kind: 'text';
  value: string;
  span: Span;
}

export type TraversalStep =
  { kind: 'attr'; name: string; span: Span } | { kind: 'index'; key: Expr; span: Span };

/** `vars.region`, `item.tags[0]`, `models.openai.gpt_4o`, a bare `string`. */
export interface TraversalExpr {
  kind: 'traversal';
  root: string;
  rootSpan: Span;
  steps: TraversalStep[];
  span: Span;
}

export interface TupleExpr {
  kind: 'tuple';
  items: Expr[];
  span: Span;
}

export interface ObjectEntry {
  /** The key as written: an identifier or a quoted string's value. */
  key: string;
  keySpan: Span;
  value: Expr;
}

export interface ObjectExpr {
  kind: 'object';
  entries: ObjectEntry[];
  span: Span;
}

export interface CallExpr {
  kind: 'call';
  name: string;
  nameSpan: Span;
  args: Expr[];
  span: Span;
}

export type Expr = LiteralExpr | TemplateExpr | TraversalExpr | TupleExpr | ObjectExpr | CallExpr;

export interface Attribute {
  kind: 'attribute';
  name: string;
  nameSpan: Span;
  value: Expr;
  /** From the name to the end of the expression. */
  span: Span;
}

export interface Block {
  kind: 'block';
  type: string;
  typeSpan: Span;
  labels: string[];
  labelSpans: Span[];
  body: Body;
  /** From the type keyword to the closing brace. */
  span: Span;
}

/** A block body: its attributes and nested blocks, each list in declaration order. */
export interface Body {
  attributes: Attribute[];
  blocks: Block[];
}

/** One parsed `.hcl` file. */
export interface SourceFile {
  /** Path relative to the project root, `/` separators. */
  path: string;
  /** Absolute path on disk. */
  absolutePath: string;
  text: string;
  body: Body;
}
