/**
 * The control path of a distributed run, apart from the event relay: workers ask the run
 * process (a gate point to hold, a question for the person, a commander question tool) on the
 * run's `requests` stream;
 * the run process answers, and tells every worker of budget breaches and cancelled tries, on
 * its `control` stream. Redis streams rather than pub/sub: a message sent while a reader
 * reconnects, or before a worker joined the run, is still read.
 */
import type { Redis } from 'ioredis';
import type { GatePoint } from '../../base/events.ts';
import type { BudgetBreach } from '../../runtime/budget.ts';
import type { HumanQuestion } from '../../tools/builtins/human-ask.ts';
import type { ToolOutcome } from '../../tools/builtins/agent-tool.ts';
import type { QuestionToolName } from '../contracts.ts';

/** What a worker asks of the run process; `id` is unique across workers (the worker's tag). */
export type ControlRequest =
  | { kind: 'gate'; id: string; point: GatePoint; after: string | null }
  | { kind: 'ask'; id: string; actor: string; callId: string; question: HumanQuestion }
  /** A commander question tool of item `task[index]`, answered where the commanders live. */
  | {
      kind: 'question';
      id: string;
      task: string;
      index: number;
      tool: QuestionToolName;
      args: Record<string, unknown>;
    }
  /** The asking actor stopped: the run process lets go of the request. */
  | { kind: 'withdraw'; id: string };

/** What the run process tells its workers. */
export type ControlMessage =
  | { kind: 'release'; id: string }
  | { kind: 'answer'; id: string; answer: string }
  | { kind: 'reply'; id: string; outcome: ToolOutcome }
  /**
   * The run process let go of the request because its worker seemed gone (its connection was
   * not in Redis's client list): a worker that is alive after all asks again.
   */
  | { kind: 'dropped'; id: string }
  /** A budget the run process counted over every worker is used up: no more requests of it. */
  | { kind: 'breach'; breach: BudgetBreach }
  /** The run process gave up on this try (cancelled, or a sibling failed the task). */
  | { kind: 'cancel'; task: string; index: number; attempt: number };

type StreamReply = Array<[string, Array<[string, string[]]>]> | null;

/** Adds one message to a stream. */
export async function sendTo(redis: Redis, stream: string, message: object): Promise<void> {
  await redis.xadd(stream, '*', 'm', JSON.stringify(message));
}

/**
 * Marks request `id` settled in the run's `settled` hash (a resumed run process skips it) and
 * adds `message` to `stream`, at once.
 */
export async function settleWith(
  redis: Redis,
  settled: string,
  id: string,
  stream: string,
  message: object,
): Promise<void> {
  await redis.multi().hset(settled, id, '1').xadd(stream, '*', 'm', JSON.stringify(message)).exec();
}

/**
 * Reads a stream from its start (or after `from`) until stopped, handing each message to
 * `onMessage` in order. The connection is its own (XREAD BLOCK holds it) and is closed by `stop`.
 */
export class StreamTail<Message> {
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();
  private last = '0-0';

  constructor(
    private readonly redis: Redis,
    private readonly stream: string,
    private readonly onMessage: (message: Message) => void,
  ) {}

  start(from = '0-0'): void {
    this.last = from;
    this.loop = this.read();
  }

  /** The id of the last message read: a later reader of the stream goes on after it. */
  get position(): string {
    return this.last;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.redis.disconnect();
    await this.loop;
  }

  private async read(): Promise<void> {
    while (!this.stopping) {
      let reply: StreamReply;
      try {
        const args = ['COUNT', 100, 'BLOCK', 1000, 'STREAMS', this.stream, this.last] as const;
        reply = (await this.redis.xread(...args)) as StreamReply;
      } catch {
        if (this.stopping) break;
        // Redis went away: ioredis reconnects; read again once it is back.
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      for (const [id, fields] of reply?.[0]?.[1] ?? []) {
        this.last = id;
        this.deliver(fields[1]);
      }
    }
  }

  private deliver(text: string | undefined): void {
    try {
      this.onMessage(JSON.parse(text ?? 'null') as Message);
    } catch {
      // A message this version cannot read (or a failing handler) must not stop the reader.
    }
  }
}
