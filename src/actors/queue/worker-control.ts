/**
 * A worker's side of the control path, per run: its actors' gate points and questions to the
 * person go to the run process, which holds them at its step gate and asks its person; the
 * worker's actor waits for the reply. The run process's budget breaches and cancelled tries
 * come back the same way.
 */
import type { Redis } from 'ioredis';
import { abortError } from '../../base/abort.ts';
import type { BudgetBreach } from '../../runtime/budget.ts';
import type { StepGate } from '../../runtime/gate.ts';
import type { HumanAskers } from '../../runtime/human-desk.ts';
import type { RunServices } from '../contracts.ts';
import { sendTo, StreamTail, type ControlMessage, type ControlRequest } from './control-stream.ts';
import type { EventPublisher } from './event-publisher.ts';
import { runKeys } from './queue-keys.ts';

/** What a worker does with the run process's broadcasts. */
export interface WorkerControlListeners {
  breach(breach: BudgetBreach): void;
  cancel(task: string, index: number, attempt: number): void;
}

type Asked = Exclude<ControlRequest, { kind: 'withdraw' }>;
type Reply = Extract<ControlMessage, { id: string }>;

/** One run's control path on one worker. */
export class WorkerControl {
  private readonly keys: ReturnType<typeof runKeys>;
  private readonly tail: StreamTail<ControlMessage>;
  private readonly waiting = new Map<string, (reply: Reply) => void>();
  private count = 0;

  constructor(
    private readonly redis: Redis,
    /** A connection of its own: XREAD BLOCK holds it. */
    reader: Redis,
    runId: string,
    /** Makes request ids unique across workers. */
    private readonly tag: string,
    private readonly listeners: WorkerControlListeners,
  ) {
    this.keys = runKeys(runId);
    this.tail = new StreamTail(reader, this.keys.control, (message) => this.onMessage(message));
    // From the stream's start: breaches sent before this worker joined the run count too.
    this.tail.start();
  }

  stop(): Promise<void> {
    return this.tail.stop();
  }

  /**
   * The run process's step gate: each point waits until every earlier event of this worker
   * has been sent (so the run shows it held after them), then until the run lets it go.
   */
  gate(publisher: EventPublisher): StepGate {
    return {
      before: async (point, signal) => {
        await publisher.settled();
        const after = publisher.lastEventId;
        await this.request({ kind: 'gate', id: '', point, after }, signal);
      },
    };
  }

  /** The run process's desk for questions to the person. */
  human(): HumanAskers {
    return {
      askerFor: (actor) => ({
        ask: async (question, call) => {
          const request = { kind: 'ask', id: '', actor, callId: call.callId, question } as const;
          const reply = await this.request(request, call.signal);
          return reply.kind === 'answer' ? reply.answer : '';
        },
      }),
    };
  }

  /** The run process's commanders and question store, for the question tools of items here. */
  questions(): NonNullable<RunServices['remoteQuestions']> {
    return async (task, call, signal) => {
      const reply = await this.request({ kind: 'question', id: '', task, ...call }, signal);
      if (reply.kind === 'reply') return reply.outcome;
      throw new Error(`the run process replied ${reply.kind} to a question tool`);
    };
  }

  private onMessage(message: ControlMessage): void {
    switch (message.kind) {
      case 'release':
      case 'answer':
      case 'reply':
        this.waiting.get(message.id)?.(message);
        return;
      case 'breach':
        this.listeners.breach(message.breach);
        return;
      case 'cancel':
        this.listeners.cancel(message.task, message.index, message.attempt);
    }
  }

  /** Sends the request and waits for its reply; an abort withdraws it. */
  private request(asked: Asked, signal: AbortSignal | undefined): Promise<Reply> {
    if (signal?.aborted === true) return Promise.reject(abortError('the request was withdrawn'));
    this.count += 1;
    const id = `${this.tag}-${this.count}`;
    return new Promise<Reply>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiting.delete(id);
        void this.withdraw(id);
        reject(abortError('the request was withdrawn'));
      };
      this.waiting.set(id, (reply) => {
        this.waiting.delete(id);
        signal?.removeEventListener('abort', onAbort);
        resolve(reply);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      sendTo(this.redis, this.keys.requests, { ...asked, id }).catch((error: unknown) => {
        this.waiting.delete(id);
        signal?.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  /** Marks the request settled (a resumed run process skips it) and tells the run to let go. */
  private async withdraw(id: string): Promise<void> {
    await this.redis
      .multi()
      .hset(this.keys.settled, id, '1')
      .xadd(this.keys.requests, '*', 'm', JSON.stringify({ kind: 'withdraw', id }))
      .exec()
      .catch(() => undefined);
  }
}
