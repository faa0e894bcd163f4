/**
 * The run process's side of the control path: it reads its workers' requests — a gate point to
 * hold at the run's step gate, a question for the run's person, a commander question tool —
 * settles each with the run's own gate, desk and commanders (so the TUI, the journal and the
 * answers are those of a local run), and
 * sends the reply; it also tells the workers of budget breaches and cancelled tries.
 */
import type { Redis } from 'ioredis';
import type { GatePoint } from '../../base/events.ts';
import type { HumanQuestion } from '../../tools/builtins/human-ask.ts';
import type { ToolOutcome } from '../../tools/builtins/agent-tool.ts';
import {
  sendTo,
  settleWith,
  StreamTail,
  type ControlMessage,
  type ControlRequest,
} from './control-stream.ts';
import { runKeys } from './queue-keys.ts';

/** How the run process settles its workers' requests. */
export interface RunControlHandlers {
  /** Resolves when the point may go on; rejects when `signal` aborts (the worker withdrew). */
  gate(point: GatePoint, after: string | null, signal: AbortSignal): Promise<void>;
  /** The answer the asking agent gets; rejects when `signal` aborts. */
  ask(actor: string, callId: string, question: HumanQuestion, signal: AbortSignal): Promise<string>;
  /** A commander question tool of a worker's item, run here. */
  question(
    request: Extract<ControlRequest, { kind: 'question' }>,
    signal: AbortSignal,
  ): Promise<ToolOutcome>;
}

/** The tag of the worker that sent a request: its id is `TAG-N`. */
function senderOf(id: string): string {
  return id.slice(0, id.lastIndexOf('-'));
}

/** One run's requests from its workers and messages to them. */
export class RunControl {
  private readonly keys: ReturnType<typeof runKeys>;
  private readonly open = new Map<string, AbortController>();
  private readonly tail: StreamTail<ControlRequest>;

  constructor(
    private readonly redis: Redis,
    /** A connection of its own: XREAD BLOCK holds it. */
    reader: Redis,
    runId: string,
    private readonly handlers: RunControlHandlers,
  ) {
    this.keys = runKeys(runId);
    this.tail = new StreamTail(reader, this.keys.requests, (request) => this.handle(request));
  }

  /** Reads the requests from the stream's start (a resumed run skips those settled). */
  start(): void {
    this.tail.start();
  }

  /** Lets go of every open request and stops reading. */
  async stop(): Promise<void> {
    for (const controller of this.open.values()) controller.abort();
    await this.tail.stop();
  }

  /** Whether some worker's request waits here (at the gate, for the person or a commander). */
  get waiting(): boolean {
    return this.open.size > 0;
  }

  /**
   * Lets go of the requests of workers not in `alive` (their process is gone), as if each had
   * withdrawn: its held point leaves the gate, its question is taken back, and a resumed run
   * skips it. A worker that is alive after all is told and asks again.
   */
  dropGone(alive: ReadonlySet<string>): void {
    for (const [id, controller] of [...this.open]) {
      if (alive.has(senderOf(id))) continue;
      this.open.delete(id);
      controller.abort();
      const dropped = { kind: 'dropped', id };
      void settleWith(this.redis, this.keys.settled, id, this.keys.control, dropped).catch(
        () => undefined,
      );
    }
  }

  /** Sends a message to every worker of the run. */
  tell(message: ControlMessage): void {
    void sendTo(this.redis, this.keys.control, message).catch(() => undefined);
  }

  private handle(request: ControlRequest): void {
    if (request.kind === 'withdraw') {
      this.open.get(request.id)?.abort();
      this.open.delete(request.id);
      return;
    }
    const controller = new AbortController();
    this.open.set(request.id, controller);
    void this.settle(request, controller.signal)
      .catch(() => undefined)
      .finally(() => this.open.delete(request.id));
  }

  private async settle(
    request: Exclude<ControlRequest, { kind: 'withdraw' }>,
    signal: AbortSignal,
  ): Promise<void> {
    // Settled in an earlier life of the run process (it reads the stream from its start).
    if ((await this.redis.hexists(this.keys.settled, request.id)) === 1) return;
    const reply = await this.reply(request, signal);
    await settleWith(this.redis, this.keys.settled, request.id, this.keys.control, reply);
  }

  private async reply(
    request: Exclude<ControlRequest, { kind: 'withdraw' }>,
    signal: AbortSignal,
  ): Promise<ControlMessage> {
    const { id } = request;
    switch (request.kind) {
      case 'gate':
        await this.handlers.gate(request.point, request.after, signal);
        return { kind: 'release', id };
      case 'ask': {
        const { actor, callId, question } = request;
        return {
          kind: 'answer',
          id,
          answer: await this.handlers.ask(actor, callId, question, signal),
        };
      }
      case 'question':
        return { kind: 'reply', id, outcome: await this.handlers.question(request, signal) };
    }
  }
}
