import type { Block } from './ast.ts';
import { blockName, checkBody, expectNoLabels, headerSpan } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import type { BudgetConfig, MemoryConfig } from './config-types.ts';
import { readNumber, readString } from './values.ts';

/** Slot names the runtime uses itself, so shared memories may not take them. */
export const RESERVED_MEMORY_NAMES = ['memory', 'scratchpad', 'input'];

/** Decodes a shared `memory "NAME" { description }` block. */
export function decodeMemory(block: Block, context: DecodeContext): MemoryConfig | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = within(context, `memory "${name}"`);
  if (RESERVED_MEMORY_NAMES.includes(name)) {
    errorAt(
      inner,
      block.labelSpans[0] ?? block.typeSpan,
      `memory name "${name}" is reserved (${RESERVED_MEMORY_NAMES.join(', ')} are slot names)`,
    );
  }
  const body = checkBody(
    block.body,
    { attributes: ['description'], required: ['description'] },
    inner,
    headerSpan(block),
  );
  const description = readString(body.attributes.get('description'), inner);
  if (description === undefined) return undefined;
  return { name, description, span: block.labelSpans[0] ?? block.span };
}

/** Decodes a mission's own `memory { description }` block. */
export function decodeMissionMemory(
  block: Block,
  context: DecodeContext,
): { description: string } | undefined {
  if (!expectNoLabels(block, context)) return undefined;
  const inner = within(context, 'memory');
  const body = checkBody(
    block.body,
    { attributes: ['description'], required: ['description'] },
    inner,
    block.typeSpan,
  );
  const description = readString(body.attributes.get('description'), inner);
  return description === undefined ? undefined : { description };
}

/** Decodes `budget { tokens, dollars }`: at least one limit, each greater than 0. */
export function decodeBudget(block: Block, context: DecodeContext): BudgetConfig | undefined {
  if (!expectNoLabels(block, context)) return undefined;
  const inner = within(context, 'budget');
  const body = checkBody(
    block.body,
    { attributes: ['tokens', 'dollars'], lenient: { what: 'budgets' } },
    inner,
    block.typeSpan,
  );
  const tokensAttribute = body.attributes.get('tokens');
  const dollarsAttribute = body.attributes.get('dollars');
  if (!tokensAttribute && !dollarsAttribute) {
    return errorAt(inner, block.typeSpan, 'budget needs at least one limit: tokens or dollars');
  }
  const budget: BudgetConfig = {};
  const tokens = readNumber(tokensAttribute, inner, { integer: true, exclusiveMin: 0 });
  const dollars = readNumber(dollarsAttribute, inner, { exclusiveMin: 0 });
  if (tokens !== undefined) budget.tokens = tokens;
  if (dollars !== undefined) budget.dollars = dollars;
  return budget;
}
