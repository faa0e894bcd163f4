/**
 * A worker's side of the control path, per run: its actors' gate points and questions to the
 * person go to the run process, which holds them at its step gate and asks its person; the
 * worker's actor waits for the reply. The run process's budget breaches and cancelled tries
 * come back the same way. The run's control stream is read only while an item of the run is
 * on this worker (`open`/`close`): a worker that has taken items of many runs keeps no
 * connection per run.
 */
import type { Redis } from 'ioredis';
import { abortError } from '../../base/abort.ts';
import { parseActorId } from '../../base/events.ts';
import { errorOf } from '../../base/reason.ts';
import type { BudgetBreach } from '../../runtime/budget.ts';
import type { StepGate } from '../../runtime/gate.ts';
import type { HumanAskers } from '../../runtime/human-desk.ts';
import type { RunServices } from '../contracts.ts';
import {
  sendTo,
  settleWith,
  StreamTail,
  type ControlMessage,
  type ControlRequest,
} from './control-stream.ts';
import type { EventPublisher } from './event-publisher.ts';
import { runKeys } from './queue-keys.ts';

/** What a worker does with the run process's broadcasts. */
export interface WorkerControlListeners {
  breach(breach: BudgetBreach): void;
  cancel(task: string, index: number, attempt: number): void;
  /**
   * The worker is stopping and item `task[index]` waits for the run process (at its gate, for
   * its person or its commanders), which may never answer: the item goes back to the queue.
   */
  handBack(task: string, index: number): void;
}

type Asked = Exclude<ControlRequest, { kind: 'withdraw' }>;
type Reply = Exclude<Extract<ControlMessage, { id: string }>, { kind: 'dropped' }>;
type Answer = Extract<ControlMessage, { id: string }>;

/** The item a request is made for: `task[index]` (every request comes from an item's actor). */
function itemOf(asked: Asked): { task: string; index: number } | undefined {
  if (asked.kind === 'question') return { task: asked.task, index: asked.index };
  const parsed = parseActorId(asked.kind === 'gate' ? asked.point.actor : asked.actor);
  return parsed?.index == null ? undefined : { task: parsed.name, index: parsed.index };
}

/** One run's control path on one worker. */
export class WorkerControl {
  private readonly keys: ReturnType<typeof runKeys>;
  private tail: StreamTail<ControlMessage> | undefined = undefined;
  /** Where the next reader starts: the stream's start (earlier breaches count), then after the last read. */
  private readFrom = '0-0';
  /** Items of the run on this worker now. */
  private items = 0;
  private readonly waiting = new Map<string, { asked: Asked; settle: (answer: Answer) => void }>();
  private count = 0;
  private stopping = false;

  constructor(
    private readonly redis: Redis,
    /** Opens a connection for the reader: XREAD BLOCK holds it. */
    private readonly openReader: () => Redis,
    runId: string,
    /** Makes request ids unique across workers. */
    private readonly tag: string,
    private readonly listeners: WorkerControlListeners,
  ) {
    this.keys = runKeys(runId);
  }

  /** An item of the run starts here: the run's messages are read while any item is here. */
  open(): void {
    this.items += 1;
    if (this.tail !== undefined) return;
    this.tail = new StreamTail(this.openReader(), this.keys.control, (message) =>
      this.onMessage(message),
    );
    this.tail.start(this.readFrom);
  }

  /** An item of the run ended here; the last one closes the reader and its connection. */
  async close(): Promise<void> {
    this.items -= 1;
    const tail = this.tail;
    if (this.items > 0 || tail === undefined) return;
    this.tail = undefined;
    // A reader opened while this one stops reads again from here: replies and breaches read
    // twice change nothing (no request waits for an old reply; a breach is adopted once).
    this.readFrom = tail.position;
    await tail.stop();
    if (this.tail === undefined) this.readFrom = tail.position;
  }

  /** Stops reading whether or not items are here (the worker stopped). */
  async stop(): Promise<void> {
    const tail = this.tail;
    this.tail = undefined;
    await tail?.stop();
  }

  /**
   * The worker stops: every item waiting for the run process now, and any that asks it from
   * now on, is handed back to the queue rather than waited for (the run process may be gone,
   * or its person away): the worker stops in a bounded time.
   */
  handBackWaiting(): void {
    this.stopping = true;
    for (const { asked } of [...this.waiting.values()]) this.handBack(asked);
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
      case 'dropped':
        this.waiting.get(message.id)?.settle(message);
        return;
      case 'breach':
        this.listeners.breach(message.breach);
        return;
      case 'cancel':
        this.listeners.cancel(message.task, message.index, message.attempt);
    }
  }

  private handBack(asked: Asked): void {
    const item = itemOf(asked);
    if (item !== undefined) this.listeners.handBack(item.task, item.index);
  }

  /**
   * Sends the request and waits for its reply; an abort withdraws it. A request the run process
   * dropped (it took this worker for gone) is asked again.
   */
  private async request(asked: Asked, signal: AbortSignal | undefined): Promise<Reply> {
    for (;;) {
      const answer = await this.requestOnce(asked, signal);
      if (answer.kind !== 'dropped') return answer;
    }
  }

  private requestOnce(asked: Asked, signal: AbortSignal | undefined): Promise<Answer> {
    // A stopping worker hands the item back (which aborts `signal`) rather than wait.
    if (this.stopping) this.handBack(asked);
    if (signal?.aborted === true) return Promise.reject(abortError('the request was withdrawn'));
    this.count += 1;
    const id = `${this.tag}-${this.count}`;
    return new Promise<Answer>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiting.delete(id);
        void this.withdraw(id);
        reject(abortError('the request was withdrawn'));
      };
      const settle = (answer: Answer): void => {
        this.waiting.delete(id);
        signal?.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      this.waiting.set(id, { asked, settle });
      signal?.addEventListener('abort', onAbort, { once: true });
      sendTo(this.redis, this.keys.requests, { ...asked, id }).catch((error: unknown) => {
        this.waiting.delete(id);
        signal?.removeEventListener('abort', onAbort);
        reject(errorOf(error));
      });
    });
  }

  /** Marks the request settled (a resumed run process skips it) and tells the run to let go. */
  private async withdraw(id: string): Promise<void> {
    const withdraw = { kind: 'withdraw', id };
    await settleWith(this.redis, this.keys.settled, id, this.keys.requests, withdraw).catch(
      () => undefined,
    );
  }
}
