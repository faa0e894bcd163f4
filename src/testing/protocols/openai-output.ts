/**
 * Builds OpenAI Responses API objects (output items, the response, usage) from a script turn,
 * shaped like the real API so the `openai` SDK parses them unchanged.
 */
import type { TurnContext } from '../protocol.ts';
import type { ScriptTurn } from '../script.ts';

export type WireItem = Record<string, unknown> & { type: string; id: string };

/** The opaque `encrypted_content` the server generates for a turn's reasoning (stable per turn). */
export function scriptedEncryptedContent(turnIndex: number, reasoning: string): string {
  return `enc_${Buffer.from(`sortie-scripted:${turnIndex}:${reasoning}`).toString('base64')}`;
}

/** The generated `call_id` of the `position`-th tool call of a turn, unless the script set one. */
export function scriptedCallId(turnIndex: number, position: number): string {
  return `call_${turnIndex}_${position}`;
}

/** What a scripted refusal says when the turn gives no text. */
export const SCRIPTED_REFUSAL = "I'm sorry, but I can't help with that.";

/** The output items of a turn, complete, in the order the API emits them. */
export function outputItems(turn: ScriptTurn, turnIndex: number): WireItem[] {
  const items: WireItem[] = [];
  if (turn.reasoning !== undefined) {
    items.push({
      id: `rs_${turnIndex}`,
      type: 'reasoning',
      summary: turn.reasoning === '' ? [] : [{ type: 'summary_text', text: turn.reasoning }],
      encrypted_content: scriptedEncryptedContent(turnIndex, turn.reasoning),
    });
  }
  if (turn.stopReason === 'refusal') {
    const refusal = turn.text ?? SCRIPTED_REFUSAL;
    items.push({
      id: `msg_${turnIndex}`,
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'refusal', refusal }],
    });
  } else if (turn.text !== undefined) {
    items.push({
      id: `msg_${turnIndex}`,
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [], logprobs: [] }],
    });
  }
  (turn.toolCalls ?? []).forEach((call, position) => {
    items.push({
      id: `fc_${turnIndex}_${position}`,
      type: 'function_call',
      status: 'completed',
      call_id: call.id ?? scriptedCallId(turnIndex, position),
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    });
  });
  return items;
}

/** Wire usage from scripted usage: `input` is uncached, `output` already includes reasoning. */
export function wireUsage(turn: ScriptTurn): Record<string, unknown> {
  const usage = turn.usage ?? {};
  const cached = usage.cacheRead ?? 0;
  const input = (usage.input ?? 0) + cached;
  const output = usage.output ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
    total_tokens: input + output,
  };
}

/** A complete `response` object; `status` decides completion, `output` may be partial. */
export function responseObject(
  turn: ScriptTurn,
  context: TurnContext,
  status: 'in_progress' | 'completed' | 'incomplete',
  output: WireItem[],
): Record<string, unknown> {
  const finished = status !== 'in_progress';
  return {
    id: `resp_${context.turnIndex}`,
    object: 'response',
    created_at: 1_700_000_000 + context.turnIndex,
    status,
    background: false,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: null,
    max_output_tokens: null,
    metadata: {},
    model: context.model,
    output,
    parallel_tool_calls: true,
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: finished ? wireUsage(turn) : null,
  };
}

/** The final status a turn's response carries. */
export function finalStatus(turn: ScriptTurn): 'completed' | 'incomplete' {
  return turn.stopReason === 'max_tokens' ? 'incomplete' : 'completed';
}
