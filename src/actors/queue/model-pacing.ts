/**
 * Rate limits shared by every worker: a provider's 429 with a wait (`Retry-After`) on one
 * worker pauses that model configuration's requests on all of them. The pause is a Redis key
 * whose time to live is the wait, so no two machines' clocks are compared. Every request asks
 * Redis after it starts waiting its turn, so a pause held before a request starts delays it on
 * every worker, however recently that worker asked. For as long as the pause lasts no worker
 * takes a new item either: BullMQ's global rate limiter of the queue is set to it.
 */
import type { Redis } from 'ioredis';
import { sleep } from '../../base/sleep.ts';

function pauseKey(modelConfig: string): string {
  return `sortie:pace:models.${modelConfig}`;
}

/** Lengthens the key's life to `ms` unless it already lives longer; returns what is left. */
const HOLD_SCRIPT = `
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
  return tonumber(ARGV[1])
end
return left`;

/** The queue's intake: BullMQ's `Queue.rateLimit`, which every worker of the queue obeys. */
export interface ItemIntake {
  rateLimit(ms: number): Promise<void>;
}

/** A question about one configuration's pause on its way to Redis, and the one queued after it. */
interface Asking {
  /** When the pause ends (performance.now() when the answer came; then if there was none). */
  endsAt: Promise<number>;
  /** Asked once `endsAt` is answered, for the requests that came while it was on its way. */
  next: Promise<number> | undefined;
}

const ignore = (): void => undefined;

/** The shared pauses of model configurations. */
export class ModelPacing {
  private readonly asking = new Map<string, Asking>();

  constructor(
    private readonly redis: Redis,
    private readonly intake?: ItemIntake,
  ) {}

  /**
   * Every worker waits `ms` before its next request to `modelConfig` (a longer pause stays),
   * and takes no new item until the pause ends: items already running wait at their next
   * request, new ones would only take a slot to wait in. The queue's one limit serves every
   * configuration, so a second 429 may shorten the intake's pause, never a request's.
   */
  async hold(modelConfig: string, ms: number): Promise<void> {
    if (ms <= 0) return;
    const left = await this.redis.eval(
      HOLD_SCRIPT,
      1,
      pauseKey(modelConfig),
      String(Math.ceil(ms)),
    );
    if (this.intake !== undefined && Number(left) > 0) await this.intake.rateLimit(Number(left));
  }

  /**
   * Milliseconds left of the pause of `modelConfig` (0: none), as Redis knew it after this
   * call began. The many concurrent items of a worker share questions: a call that comes while
   * one is on its way (sent before the call, so blind to a pause held since) waits for the one
   * question sent after it, which serves every call that came meanwhile.
   */
  async remaining(modelConfig: string): Promise<number> {
    const endsAt = await this.askAfterNow(modelConfig);
    return Math.max(0, Math.ceil(endsAt - performance.now()));
  }

  /**
   * Waits until `modelConfig` has no pause, asking again after each wait (another 429 may have
   * lengthened it meanwhile); `onPaced` hears the first wait. Rejects when `signal` aborts.
   */
  async waitOut(
    modelConfig: string,
    signal: AbortSignal | undefined,
    onPaced: (ms: number) => void,
  ): Promise<void> {
    let paced = false;
    for (let wait = await this.remaining(modelConfig); wait > 0;) {
      if (!paced) onPaced(wait);
      paced = true;
      await sleep(wait, signal);
      wait = await this.remaining(modelConfig);
    }
  }

  private askAfterNow(modelConfig: string): Promise<number> {
    const asking = this.asking.get(modelConfig);
    if (asking === undefined) return this.ask(modelConfig);
    asking.next ??= asking.endsAt.then(ignore, ignore).then(() => this.ask(modelConfig));
    return asking.next;
  }

  private ask(modelConfig: string): Promise<number> {
    // The end is reckoned from the answer's arrival: never before Redis lets the key go.
    const endsAt = this.redis
      .pttl(pauseKey(modelConfig))
      .then((left) => performance.now() + Math.max(0, left));
    const asking: Asking = { endsAt, next: undefined };
    this.asking.set(modelConfig, asking);
    void endsAt.then(ignore, ignore).then(() => {
      if (this.asking.get(modelConfig) === asking) this.asking.delete(modelConfig);
    });
    return endsAt;
  }
}
