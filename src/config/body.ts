import type { Attribute, Block, Body, Span } from './ast.ts';
import { errorAt, warningAt, joinSpans, type DecodeContext } from './context.ts';
import { didYouMean } from '../base/suggest.ts';

/** What a block body may contain. Anything else is an error with a "did you mean". */
export interface BodySpec {
  attributes: readonly string[];
  required?: readonly string[];
  blocks?: readonly string[];
  /** Operational blocks of the reference runtime: accepted with a warning. */
  ignoredBlocks?: readonly string[];
  /** Attributes accepted with a warning (agent `role`). */
  ignoredAttributes?: readonly string[];
  /** Why an ignored block or attribute is ignored, by name (the warning's hint). */
  ignoredHints?: Readonly<Record<string, string>>;
  /**
   * Unknown attributes and blocks with no close known name are a warning instead of an error,
   * in the blocks the reference runtime decodes leniently (it drops what it does not know, such
   * as CrewAI's `goal` on an agent). A close name is still an error: it is a typo, and ignoring
   * it would silently drop a setting. `what` names the blocks in the warning's hint ("agents").
   */
  lenient?: { what: string };
}

/** A checked body: known attributes by name and known blocks in declaration order. */
export interface CheckedBody {
  attributes: Map<string, Attribute>;
  blocks: Block[];
}

/** Blocks of the reference runtime that sortie refuses, with why. */
export const UNSUPPORTED_BLOCKS: Readonly<Record<string, string>> = {
  plugin:
    'plugins are Go programs served over go-plugin/gRPC, which sortie does not run; an `mcp` server block gives agents tools instead',
};

/** Checks a body against its spec, reporting unknown, ignored and missing entries. */
export function checkBody(
  body: Body,
  spec: BodySpec,
  context: DecodeContext,
  header: Span,
): CheckedBody {
  const blocks = spec.blocks ?? [];
  const ignoredBlocks = spec.ignoredBlocks ?? [];
  const ignoredAttributes = spec.ignoredAttributes ?? [];
  const hints = spec.ignoredHints ?? {};
  const attributes = new Map<string, Attribute>();
  for (const attribute of body.attributes) {
    if (spec.attributes.includes(attribute.name)) {
      attributes.set(attribute.name, attribute);
    } else if (ignoredAttributes.includes(attribute.name)) {
      warningAt(
        context,
        attribute.nameSpan,
        `\`${attribute.name}\` is ignored by sortie`,
        hints[attribute.name],
      );
    } else {
      reportUnknown('attribute', attribute.name, attribute.nameSpan, spec, context);
    }
  }
  const known: Block[] = [];
  for (const block of body.blocks) {
    if (blocks.includes(block.type)) {
      known.push(block);
    } else if (ignoredBlocks.includes(block.type)) {
      warningAt(
        context,
        block.typeSpan,
        `\`${block.type}\` blocks are ignored by sortie`,
        hints[block.type],
      );
    } else if (Object.hasOwn(UNSUPPORTED_BLOCKS, block.type)) {
      errorAt(
        context,
        block.typeSpan,
        `\`${block.type}\` blocks are not supported by sortie`,
        UNSUPPORTED_BLOCKS[block.type],
      );
    } else {
      reportUnknown('block', block.type, block.typeSpan, spec, context);
    }
  }
  for (const name of spec.required ?? []) {
    if (!attributes.has(name)) {
      errorAt(context, header, `missing required attribute "${name}"`);
    }
  }
  return { attributes, blocks: known };
}

/**
 * An attribute or block the spec does not know: a warning in a lenient block when no known name
 * is close, else an error with the closest known name (attributes first for an attribute,
 * blocks first for a block, as a typo is most likely of its own kind).
 */
function reportUnknown(
  kind: 'attribute' | 'block',
  name: string,
  span: Span,
  spec: BodySpec,
  context: DecodeContext,
): void {
  const blocks = spec.blocks ?? [];
  const known =
    kind === 'attribute' ? [...spec.attributes, ...blocks] : [...blocks, ...spec.attributes];
  const suggestion = didYouMean(name, known);
  if (spec.lenient && suggestion === '') {
    warningAt(
      context,
      span,
      `unknown ${kind} "${name}" is ignored by sortie`,
      lenientHint(spec, spec.lenient.what),
    );
    return;
  }
  errorAt(context, span, `unknown ${kind} "${name}"${suggestion}`);
}

/** What a lenient block takes: "agents use model, personality and the blocks skill". */
function lenientHint(spec: BodySpec, what: string): string {
  const blocks = spec.blocks ?? [];
  const blockList = blocks.length === 0 ? '' : `the blocks ${blocks.join(', ')}`;
  const parts = [spec.attributes.join(', '), blockList].filter((part) => part !== '');
  return `${what} use ${parts.join(' and ') || 'nothing'}`;
}

/** The span of a block's header: its type keyword through its last label. */
export function headerSpan(block: Block): Span {
  const last = block.labelSpans[block.labelSpans.length - 1];
  return last === undefined ? block.typeSpan : joinSpans(block.typeSpan, last);
}

/** Reports a block label or reference name that breaks the naming rule. */
export function checkName(name: string, span: Span, context: DecodeContext): void {
  if (/^[a-z_][a-z0-9_]*$/.test(name)) return;
  errorAt(context, span, `invalid name "${name}": use lowercase letters, digits and _`);
}

/**
 * The single label of a named block, checked against the naming rule; undefined (with an
 * error reported) when the block has the wrong number of labels. An invalid name is reported
 * but still returned, so the block's body is checked too.
 */
export function blockName(block: Block, context: DecodeContext): string | undefined {
  const [label] = block.labels;
  const labelSpan = block.labelSpans[0];
  if (block.labels.length !== 1 || label === undefined || labelSpan === undefined) {
    return errorAt(
      context,
      headerSpan(block),
      `\`${block.type}\` block needs exactly one label: ${block.type} "NAME" { ... }`,
    );
  }
  checkName(label, labelSpan, context);
  return label;
}

/** Reports labels on a block that takes none; returns whether it was clean. */
export function expectNoLabels(block: Block, context: DecodeContext): boolean {
  const first = block.labelSpans[0];
  if (first === undefined) return true;
  errorAt(context, first, `\`${block.type}\` block takes no label`);
  return false;
}

/** Reports every duplicate of a block type after the first; returns the first. */
export function singleBlock(
  blocks: readonly Block[],
  type: string,
  context: DecodeContext,
): Block | undefined {
  const matching = blocks.filter((block) => block.type === type);
  for (const duplicate of matching.slice(1)) {
    errorAt(context, duplicate.typeSpan, `duplicate \`${type}\` block: only one is allowed here`);
  }
  return matching[0];
}
