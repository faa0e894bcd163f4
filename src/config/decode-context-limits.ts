import type { Block } from './ast.ts';
import { checkBody, expectNoLabels, singleBlock } from './body.ts';
import { errorAt, warningAt, within, type DecodeContext } from './context.ts';
import type { CompactionConfig, ContextLimits, PruningConfig } from './config-types.ts';
import { readNumber } from './values.ts';

/** Default and ceiling of `tool_response.max_tokens` (the large-result threshold). */
export const DEFAULT_TOOL_RESPONSE_MAX_TOKENS = 16_000;
export const MAX_TOOL_RESPONSE_MAX_TOKENS = 64_000;

/** The blocks an agent or a commander may use to bound its context. */
export const CONTEXT_LIMIT_BLOCKS = ['tool_response', 'pruning', 'compaction'] as const;

/**
 * Reads the `tool_response`, `pruning` and `compaction` blocks among an agent's or a commander's
 * blocks (at most one of each).
 */
export function readContextLimits(blocks: readonly Block[], context: DecodeContext): ContextLimits {
  const limits: ContextLimits = { toolResponseMaxTokens: DEFAULT_TOOL_RESPONSE_MAX_TOKENS };
  const toolResponse = singleBlock(blocks, 'tool_response', context);
  if (toolResponse !== undefined) {
    limits.toolResponseMaxTokens = decodeToolResponse(toolResponse, context);
  }
  const pruningBlock = singleBlock(blocks, 'pruning', context);
  const pruning = pruningBlock && decodePruning(pruningBlock, context);
  if (pruning) limits.pruning = pruning;
  const compactionBlock = singleBlock(blocks, 'compaction', context);
  const compaction = compactionBlock && decodeCompaction(compactionBlock, context);
  if (compaction) limits.compaction = compaction;
  return limits;
}

/**
 * `tool_response { max_tokens }`. A value above the hard maximum is clamped to it with a warning,
 * as the reference runtime clamps it (silently there).
 */
function decodeToolResponse(block: Block, context: DecodeContext): number {
  expectNoLabels(block, context);
  const inner = within(context, 'tool_response');
  const body = checkBody(block.body, { attributes: ['max_tokens'] }, inner, block.typeSpan);
  const attribute = body.attributes.get('max_tokens');
  const value = readNumber(attribute, inner, { integer: true, min: 1 });
  if (attribute === undefined || value === undefined) return DEFAULT_TOOL_RESPONSE_MAX_TOKENS;
  if (value <= MAX_TOOL_RESPONSE_MAX_TOKENS) return value;
  warningAt(
    inner,
    attribute.value.span,
    `max_tokens ${value} is above the maximum ${MAX_TOOL_RESPONSE_MAX_TOKENS}: ${MAX_TOOL_RESPONSE_MAX_TOKENS} is used`,
  );
  return MAX_TOOL_RESPONSE_MAX_TOKENS;
}

/** `pruning { prune_on, prune_to }`: both whole numbers, `0 < prune_to < prune_on`. */
function decodePruning(block: Block, context: DecodeContext): PruningConfig | undefined {
  expectNoLabels(block, context);
  const inner = within(context, 'pruning');
  const body = checkBody(
    block.body,
    { attributes: ['prune_on', 'prune_to'], required: ['prune_on', 'prune_to'] },
    inner,
    block.typeSpan,
  );
  const pruneToAttribute = body.attributes.get('prune_to');
  const pruneOn = readNumber(body.attributes.get('prune_on'), inner, { integer: true, min: 2 });
  const pruneTo = readNumber(pruneToAttribute, inner, { integer: true, min: 1 });
  if (pruneOn === undefined || pruneTo === undefined || pruneToAttribute === undefined) {
    return undefined;
  }
  if (pruneTo >= pruneOn) {
    return errorAt(
      inner,
      pruneToAttribute.value.span,
      `prune_to must be less than prune_on (${pruneOn}): pruning keeps prune_to turns of the prune_on reached`,
    );
  }
  return { pruneOn, pruneTo };
}

/** `compaction { token_limit, turn_retention }`: both required whole numbers, at least 1. */
function decodeCompaction(block: Block, context: DecodeContext): CompactionConfig | undefined {
  expectNoLabels(block, context);
  const inner = within(context, 'compaction');
  const body = checkBody(
    block.body,
    {
      attributes: ['token_limit', 'turn_retention'],
      required: ['token_limit', 'turn_retention'],
    },
    inner,
    block.typeSpan,
  );
  const whole = { integer: true, min: 1 };
  const tokenLimit = readNumber(body.attributes.get('token_limit'), inner, whole);
  const turnRetention = readNumber(body.attributes.get('turn_retention'), inner, whole);
  if (tokenLimit === undefined || turnRetention === undefined) return undefined;
  return { tokenLimit, turnRetention };
}
