/**
 * Rate limits shared by every worker: a provider's 429 with a wait (`Retry-After`) on one
 * worker pauses that model configuration's requests on all of them. The pause is a Redis key
 * whose time to live is the wait, so no two machines' clocks are compared; each worker reuses
 * what it learned of a pause for `FRESH_MS`.
 */
import type { Redis } from 'ioredis';

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

/**
 * How long an answer about a pause is reused: the many concurrent items of a worker ask once
 * per configuration in that time rather than once per model request, and a 429 on another
 * worker pauses this one at most that much later.
 */
const FRESH_MS = 100;

/** What this worker last learned of a configuration's pause. */
interface Learned {
  /** When it asked Redis (performance.now()). */
  askedAt: number;
  /** When the pause ends (performance.now()); the asking time when there was none. */
  endsAt: Promise<number>;
}

/** The shared pauses of model configurations. */
export class ModelPacing {
  private readonly learned = new Map<string, Learned>();

  constructor(private readonly redis: Redis) {}

  /** Every worker waits `ms` before its next request to `modelConfig` (a longer pause stays). */
  async hold(modelConfig: string, ms: number): Promise<void> {
    if (ms <= 0) return;
    await this.redis.eval(HOLD_SCRIPT, 1, pauseKey(modelConfig), String(Math.ceil(ms)));
    // Asked again after the hold: this worker's own next request sees its own pause at once.
    this.learned.delete(modelConfig);
  }

  /** Milliseconds left of the pause of `modelConfig` (0: none). */
  async remaining(modelConfig: string): Promise<number> {
    let learned = this.learned.get(modelConfig);
    if (learned === undefined || performance.now() - learned.askedAt >= FRESH_MS) {
      const askedAt = performance.now();
      const endsAt = this.redis
        .pttl(pauseKey(modelConfig))
        .then((left) => askedAt + Math.max(0, left));
      learned = { askedAt, endsAt };
      this.learned.set(modelConfig, learned);
      // A failed ask is not reused.
      endsAt.catch(() => this.learned.delete(modelConfig));
    }
    return Math.max(0, Math.ceil((await learned.endsAt) - performance.now()));
  }
}
