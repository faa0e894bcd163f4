/**
 * The agents calling one MCP server right now, and the server's own requests answered on
 * their behalf: a question to the person (elicitation) through the agent's asker, a request
 * for a model (sampling) through the agent's model.
 */
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  LoggingMessageNotification,
  Progress,
} from '@modelcontextprotocol/sdk/types.js';
import type { ModelSampler, ToolNotice } from '../builtins/agent-tool.ts';
import type { HumanAsker } from '../builtins/human-ask.ts';
import { elicitationCallId, elicitationQuestion, elicitationResult } from './mcp-elicitation.ts';
import { noCallerError, sampleRequest, sampleResult, samplingOffError } from './mcp-sampling.ts';

/** Who is behind a call: the calling agent's asker and model, and the model's id of the call. */
export interface CallOrigin {
  asker: HumanAsker;
  callId: string;
  /** The agent's model; without it, sampling during the call is refused. */
  sampler?: ModelSampler;
  /** Takes the server's progress on the call and its log messages during it. */
  notify?: (notice: ToolNotice) => void;
}

interface CallUnderWay {
  origin: CallOrigin;
  signal: AbortSignal;
  /**
   * Questions asked during this call so far: counted per call, not per server, so a resumed
   * run calling the tool again gives its questions the ids the journal knows them by.
   */
  questions: number;
}

export class McpCallers {
  /** The calls under way whose agents can be reached, oldest first. */
  private readonly calls: CallUnderWay[] = [];
  /** `mask` hides what must not leave the session (its OAuth tokens) in the server's words. */
  constructor(
    private readonly server: string,
    private readonly mask: (text: string) => string,
  ) {}

  /** The server's progress on the call of `origin`, to that call's agent. */
  progress(origin: CallOrigin, progress: Progress): void {
    origin.notify?.({
      kind: 'progress',
      server: this.server,
      callId: origin.callId,
      progress: progress.progress,
      total: progress.total ?? null,
      message: progress.message === undefined ? null : this.mask(progress.message),
    });
  }

  /**
   * A log message of the server, to the agent of the latest call under way (as `elicit` picks
   * its agent); with no call under way (the server starting), there is no agent to show it.
   */
  log(params: LoggingMessageNotification['params']): void {
    const { data } = params;
    this.calls.at(-1)?.origin.notify?.({
      kind: 'log',
      server: this.server,
      level: params.level,
      logger: params.logger ?? null,
      text: this.mask(typeof data === 'string' ? data : JSON.stringify(data)),
    });
  }

  /** Runs `work` with `origin` known as a caller of the server until it settles. */
  async during<T>(origin: CallOrigin, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const call = { origin, signal, questions: 0 };
    this.calls.push(call);
    try {
      return await work();
    } finally {
      this.calls.splice(this.calls.indexOf(call), 1);
    }
  }

  /**
   * A server's question to the person. MCP does not say which call it belongs to over every
   * transport, so it goes to the agent of the latest call under way; with none, it is declined.
   */
  async elicit(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    const current = this.calls.at(-1);
    if (current === undefined) return { action: 'decline' };
    current.questions += 1;
    const answer = await current.origin.asker.ask(elicitationQuestion(this.server, params), {
      callId: elicitationCallId(current.origin.callId, current.questions),
      signal: AbortSignal.any([signal, current.signal]),
    });
    return elicitationResult(params, answer);
  }

  /**
   * A server's request for a model, answered by the model of the latest call's agent (the
   * agent `elicit` picks) when `allowed`; otherwise, or with no such call, an error declines it.
   */
  async sample(
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
    allowed: boolean,
  ): Promise<CreateMessageResult> {
    if (!allowed) throw samplingOffError(this.server);
    const current = this.calls.at(-1);
    if (current?.origin.sampler === undefined) throw noCallerError(this.server);
    const request = sampleRequest(this.server, params);
    const reply = await current.origin.sampler.sample(
      request,
      AbortSignal.any([signal, current.signal]),
    );
    return sampleResult(reply);
  }
}
