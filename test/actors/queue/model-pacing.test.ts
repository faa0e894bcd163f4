/**
 * The shared pause of a model configuration, on a real redis-server: a worker reuses what it
 * learned of a pause for a moment, but its own 429 pauses its own next request at once.
 */
import { describe, expect, it } from 'vitest';
import { ModelPacing } from '../../../src/actors/queue/model-pacing.ts';
import { redisForFile } from './redis-for-file.ts';

const connection = redisForFile();

describe('model pacing', () => {
  it('pauses this worker at once after its own hold, though it had just learned of none', async () => {
    const pacing = new ModelPacing(connection());
    expect(await pacing.remaining('main')).toBe(0);
    await pacing.hold('main', 60_000);
    const left = await pacing.remaining('main');
    expect(left).toBeGreaterThan(59_000);
    expect(left).toBeLessThanOrEqual(60_000);
    expect(await pacing.remaining('other')).toBe(0);
  });
});
