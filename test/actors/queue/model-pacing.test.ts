/**
 * The shared pause of a model configuration, on a real redis-server: a pause held by one
 * worker delays every worker's next request, however recently that worker asked; a request
 * that waited asks again and waits out a pause lengthened meanwhile.
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

  it("pauses another worker's next request at once, though it had just learned of none", async () => {
    // Another worker: its own connection.
    const other = connection().duplicate();
    try {
      const here = new ModelPacing(connection());
      const there = new ModelPacing(other);
      expect(await here.remaining('shared')).toBe(0);
      await there.hold('shared', 60_000);
      expect(await here.remaining('shared')).toBeGreaterThan(59_000);
    } finally {
      other.disconnect();
    }
  });

  it('answers a request that came while a question was on its way from a later question', async () => {
    const here = new ModelPacing(connection());
    const there = new ModelPacing(connection());
    // Sent before the hold: blind to it.
    const before = here.remaining('joined');
    const held = there.hold('joined', 60_000);
    // Came after the hold was sent (the connection keeps their order): must see it.
    const after = here.remaining('joined');
    await held;
    expect(await before).toBe(0);
    expect(await after).toBeGreaterThan(59_000);
  });

  it('waits out a pause lengthened while it waited, telling of the first wait only', async () => {
    const pacing = new ModelPacing(connection());
    await pacing.hold('lengthened', 1_000);
    const told: number[] = [];
    await pacing.waitOut('lengthened', undefined, (ms) => {
      told.push(ms);
      // A 429 on another worker while this one waits: the pause goes on past the first wait.
      void pacing.hold('lengthened', 1_500);
    });
    expect(told.length).toBe(1);
    expect(told[0]).toBeLessThanOrEqual(1_000);
    expect(await pacing.remaining('lengthened')).toBe(0);
  });
});
