/**
 * Rate limits shared by every worker: a provider's 429 with a wait (`Retry-After`) on one
 * worker pauses that model configuration's requests on all of them. The pause is a Redis key
 * whose time to live is the wait, so no two machines' clocks are compared.
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

/** The shared pauses of model configurations. */
export class ModelPacing {
  constructor(private readonly redis: Redis) {}

  /** Every worker waits `ms` before its next request to `modelConfig` (a longer pause stays). */
  async hold(modelConfig: string, ms: number): Promise<void> {
    if (ms <= 0) return;
    await this.redis.eval(HOLD_SCRIPT, 1, pauseKey(modelConfig), String(Math.ceil(ms)));
  }

  /** Milliseconds left of the pause of `modelConfig` (0: none). */
  async remaining(modelConfig: string): Promise<number> {
    const left = await this.redis.pttl(pauseKey(modelConfig));
    return left > 0 ? left : 0;
  }
}
