/**
 * Folds streamed Gemini chunks (or one non-streamed reply) into a sortie response. Text and
 * thought chunks are joined into parts; a thought signature stays on the part it arrived with,
 * and a part that already holds a signature is never extended, so what goes back is exactly
 * what was signed.
 */
import type {
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  Part as WirePart,
} from '@google/genai';
import type {
  ModelResponse,
  Part,
  ReasoningPart,
  StopReason,
  TextPart,
  ToolCallPart,
} from '../model-types.ts';
import { normalizeGeminiUsage } from '../usage.ts';
import {
  blockDetail,
  finishDetail,
  mapFinishReason,
  toolCallFromWire,
  unsupportedPartKind,
} from './from-wire.ts';
import { StreamedCallArguments } from './streamed-call.ts';

/** A chunk as the SDK yields it; only the data fields are read. */
export type GeminiChunk = Pick<
  GenerateContentResponse,
  'candidates' | 'usageMetadata' | 'modelVersion' | 'promptFeedback'
>;

/** Accumulates one streamed reply; `push` returns the answer text a chunk carried, if any. */
export class GeminiStreamAccumulator {
  private model: string;
  private readonly parts: Part[] = [];
  private readonly warnings: string[] = [];
  private usage: GenerateContentResponseUsageMetadata | undefined;
  private finishReason: string | undefined;
  /** Why the prompt was blocked, or what stopped a filtered or malformed reply. */
  private stopDetail: string | undefined;
  private blocked = false;
  private finished = false;
  private generatedIds = 0;
  /** The call whose arguments are still streaming (Vertex's `willContinue`), if any. */
  private openCall: { part: ToolCallPart; collected: StreamedCallArguments } | undefined;

  /** `makeId(n)` names the n-th call (0-based) the API sent without an id. */
  constructor(
    requestedModel: string,
    private readonly makeId: (position: number) => string,
  ) {
    this.model = requestedModel;
  }

  push(chunk: GeminiChunk): string | undefined {
    if (chunk.modelVersion !== undefined && chunk.modelVersion !== '')
      this.model = chunk.modelVersion;
    if (chunk.usageMetadata !== undefined) this.usage = chunk.usageMetadata;
    // A blocked prompt gets feedback and no candidate (sometimes after streamed text); that
    // still ends the reply.
    if (chunk.promptFeedback?.blockReason !== undefined) {
      this.blocked = true;
      this.stopDetail = blockDetail(chunk.promptFeedback);
      this.finished = true;
    }
    const candidate = chunk.candidates?.[0];
    if (candidate === undefined) return undefined;
    let delta = '';
    for (const part of candidate.content?.parts ?? []) delta += this.addPart(part);
    if (candidate.finishReason !== undefined) {
      this.finishReason = candidate.finishReason;
      if (candidate.finishReason !== 'STOP' && candidate.finishReason !== 'MAX_TOKENS')
        this.stopDetail ??= finishDetail(candidate);
      this.finished = true;
    }
    return delta === '' ? undefined : delta;
  }

  private addPart(part: WirePart): string {
    if (part.functionCall !== undefined) {
      this.addCall(part);
      return '';
    }
    if (part.text !== undefined) return this.addText(part);
    const kind = unsupportedPartKind(part);
    this.warnings.push(`ignored a Gemini reply part of kind "${kind}"`);
    return '';
  }

  /**
   * A whole call, or a piece of one streamed in parts: a named part starts a call, an
   * unnamed one continues the open call, and a part without `willContinue` closes it.
   */
  private addCall(part: WirePart): void {
    const call = part.functionCall!;
    if (call.name !== undefined && call.name !== '') this.closeCall();
    let open = this.openCall;
    if (open === undefined) {
      const toolCall = toolCallFromWire(part, () => this.makeId(this.generatedIds++));
      this.parts.push(toolCall);
      if (call.willContinue !== true && call.partialArgs === undefined) return;
      open = { part: toolCall, collected: new StreamedCallArguments(call.args) };
      this.openCall = open;
    } else if (call.args !== undefined) open.collected.merge(call.args);
    open.collected.apply(call.partialArgs ?? []);
    if (call.willContinue !== true) this.closeCall();
  }

  /** Writes the open call's collected arguments into its part. */
  private closeCall(): void {
    const open = this.openCall;
    if (open === undefined) return;
    this.openCall = undefined;
    open.part.arguments = open.collected.arguments();
    for (const path of open.collected.unreadPaths)
      this.warnings.push(`ignored a streamed argument of "${open.part.name}" at path "${path}"`);
  }

  private addText(part: WirePart): string {
    const text = part.text ?? '';
    const thought = part.thought === true;
    const signature = part.thoughtSignature;
    if (text === '' && signature === undefined) return '';
    const last = this.parts[this.parts.length - 1];
    const sameKind = thought ? last?.type === 'reasoning' : last?.type === 'text';
    const target = last as TextPart | ReasoningPart | undefined;
    if (sameKind && target !== undefined && target.state?.['signature'] === undefined) {
      target.text += text;
      if (signature !== undefined) target.state = { ...target.state, signature };
    } else {
      const fresh: TextPart | ReasoningPart = thought
        ? { type: 'reasoning', provider: 'gemini', text }
        : { type: 'text', text };
      if (signature !== undefined) fresh.state = { signature };
      this.parts.push(fresh);
    }
    return thought ? '' : text;
  }

  /** True once a chunk carried a finish reason; a stream that ends before that was truncated. */
  get complete(): boolean {
    return this.finished;
  }

  response(): ModelResponse {
    // Vertex sometimes ends the stream without the part that closes the last call.
    this.closeCall();
    const stopReason = this.stopReason();
    const response: ModelResponse = {
      message: { role: 'assistant', parts: this.parts },
      stopReason,
      usage: normalizeGeminiUsage(this.usage),
      model: this.model,
      warnings: [...this.warnings],
    };
    if (stopReason !== 'end' && this.stopDetail !== undefined)
      response.stopDetail = this.stopDetail;
    return response;
  }

  private stopReason(): StopReason {
    if (this.blocked) return 'blocked';
    const hasToolCalls = this.parts.some((part) => part.type === 'tool_call');
    return mapFinishReason(this.finishReason, hasToolCalls);
  }
}
