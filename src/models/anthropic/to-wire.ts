/**
 * A sortie model request → the body of an Anthropic `POST /v1/messages` (pure): system blocks,
 * messages, tools with `input_schema`, thinking per the reasoning mapping and prompt-caching
 * markers (models.md).
 */
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  ModelRequest,
  ReasoningLevel,
  ResolvedModel,
  ToolDefinition,
} from '../model-types.ts';
import { perObject } from '../../base/per-object.ts';
import { toAnthropicMessages } from './to-wire-messages.ts';

/** Thinking budget per reasoning level (models.md, reasoning mapping). */
export const THINKING_BUDGETS: Readonly<Record<ReasoningLevel, number>> = {
  low: 2048,
  medium: 8192,
  high: 24576,
};

/** `max_tokens` without reasoning, and the room left for the answer on top of a thinking budget. */
export const DEFAULT_MAX_TOKENS = 8192;

/**
 * Models that reject (Opus 4.7, Mythos) or deprecate with a console warning from the SDK
 * (Opus 4.6) `thinking.type: "enabled"` with a budget: they get adaptive thinking with the
 * level as `output_config.effort` instead. Matched by prefix so dated names match too.
 */
const ADAPTIVE_THINKING_PREFIXES = ['claude-opus-4-7', 'claude-opus-4-6', 'claude-mythos'];

/** True when the model takes adaptive thinking rather than a token budget. */
export function usesAdaptiveThinking(apiName: string): boolean {
  return ADAPTIVE_THINKING_PREFIXES.some((prefix) => apiName.startsWith(prefix));
}

/**
 * Models whose output limit is below budget + 8192 at `high` (Opus 4 and 4.1: 32,000 tokens);
 * `max_tokens` is capped there so the request stays valid. Others allow 64,000 or more.
 */
const OUTPUT_LIMITS: ReadonlyArray<readonly [prefix: string, limit: number]> = [
  ['claude-opus-4-0', 32_000],
  ['claude-opus-4-1', 32_000],
  ['claude-opus-4-2025', 32_000],
];

/** `max_tokens` capped at the model's output limit when one is known. */
export function capMaxTokens(apiName: string, maxTokens: number): number {
  const limit = OUTPUT_LIMITS.find(([prefix]) => apiName.startsWith(prefix))?.[1];
  return limit === undefined ? maxTokens : Math.min(maxTokens, limit);
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/** A tool definition on the wire, once per definition object: an actor offers the same tools every turn. */
const toAnthropicTool = perObject((tool: ToolDefinition): Tool => ({
  name: tool.name,
  description: tool.description,
  input_schema: tool.parameters as Tool['input_schema'],
}));

/** Marks the last content block of the last user message as a cache breakpoint. */
function markLastUserMessage(messages: MessageParam[]): MessageParam[] {
  let lastUser = -1;
  messages.forEach((message, index) => {
    if (message.role === 'user') lastUser = index;
  });
  const target = messages[lastUser];
  if (target === undefined || target.role !== 'user' || typeof target.content === 'string')
    return messages;
  const content = [...target.content];
  const last = content[content.length - 1];
  if (last === undefined) return messages;
  content[content.length - 1] = { ...last, cache_control: EPHEMERAL } as ContentBlockParam;
  const marked = [...messages];
  marked[lastUser] = { role: 'user', content };
  return marked;
}

function systemBlocks(system: string, caching: boolean): TextBlockParam[] | undefined {
  if (system === '') return undefined;
  const block: TextBlockParam = { type: 'text', text: system };
  if (caching) block.cache_control = EPHEMERAL;
  return [block];
}

/** Builds the streaming request body for `model`. */
export function toAnthropicRequest(
  request: ModelRequest,
  model: ResolvedModel,
): MessageCreateParamsStreaming {
  const outputTokens = request.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
  const messages = toAnthropicMessages(request.messages);
  const body: MessageCreateParamsStreaming = {
    model: model.apiName,
    max_tokens: capMaxTokens(model.apiName, outputTokens),
    messages: model.promptCaching ? markLastUserMessage(messages) : messages,
    stream: true,
  };
  const system = systemBlocks(request.system, model.promptCaching);
  if (system !== undefined) body.system = system;
  if (request.tools.length > 0) {
    body.tools = request.tools.map(toAnthropicTool);
    if (request.parallelToolCalls === false)
      body.tool_choice = { type: 'auto', disable_parallel_tool_use: true };
  }
  if (model.reasoningCapable && request.reasoning !== undefined) {
    const budget = THINKING_BUDGETS[request.reasoning];
    // The budget counts against max_tokens, so the answer keeps its full allowance on top.
    body.max_tokens = capMaxTokens(model.apiName, budget + outputTokens);
    if (usesAdaptiveThinking(model.apiName)) {
      body.thinking = { type: 'adaptive', display: 'summarized' };
      body.output_config = { effort: request.reasoning };
    } else {
      body.thinking = { type: 'enabled', budget_tokens: budget };
    }
  }
  return body;
}
