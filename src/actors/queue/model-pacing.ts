/**
 * Rate limits shared by every worker: a provider's 429 with a wait (`Retry-After`) on one
 * worker pauses that model configuration's requests on all of them. The pause is a Redis key
 * whose time to live is the wait, so no two machines' clocks are compared. Every request asks
 * Redis after it starts waiting its turn, so a pause held before a request starts delays it on
 * every worker, however recently that worker asked.
 */
import type { Redis } from 'ioredis';
import { sleep } from '../../base/sleep.ts';

function pauseKey(modelConfig: string): string {
  return `sortie:pace:models.${modelConfig}`;
}

/** Lengthens the key's life to `ms` unless it already lives longer. */
const HOLD_SCRIPT = `
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 1`;

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

  constructor(private readonly redis: Redis) {}

  /** Every worker waits `ms` before its next request to `modelConfig` (a longer pause stays). */
  async hold(modelConfig: string, ms: number): Promise<void> {
    if (ms <= 0) return;
    await this.redis.eval(HOLD_SCRIPT, 1, pauseKey(modelConfig), String(Math.ceil(ms)));
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
