import { describe, expect, it } from 'vitest';
import { CostLedger } from '../../src/models/cost-ledger.ts';
import { dollarsToPico, picoPerToken, usageCost } from '../../src/models/cost.ts';
import { findBuiltinModel } from '../../src/models/registry.ts';
import type { Pricing, Usage } from '../../src/models/model-types.ts';

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0): Usage => ({
  input,
  output,
  cacheRead,
  cacheWrite,
  reasoning: 0,
});

describe('usageCost', () => {
  it('prices each class with the registry price, exactly', () => {
    const sonnet = findBuiltinModel('anthropic', 'claude_sonnet_4_5')!.pricing;
    // 1000 × $3 + 500 × $15 + 20000 × $0.30 + 4000 × $3.75 per 1M = $0.0315
    const cost = usageCost(usage(1000, 500, 20_000, 4000), sonnet);
    expect(cost).toEqual({ pico: 31_500_000_000n, unpriced: false });
  });

  it('stays exact where floating point would drift', () => {
    const flashLite = findBuiltinModel('gemini', 'gemini_2_0_flash_lite')!.pricing;
    expect(picoPerToken(0.01875)).toBe(18_750n);
    // 3 cache-read tokens at $0.01875/1M: 0.05625 µ$ exactly
    expect(usageCost(usage(0, 0, 3), flashLite).pico).toBe(56_250n);
    const tenth: Pricing = { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0 };
    let total = 0n;
    for (let turn = 0; turn < 10; turn++)
      total += usageCost(usage(1_000_000, 1_000_000), tenth).pico;
    expect(total).toBe(3n * 1_000_000_000_000n);
  });

  it('uses an override price when given one', () => {
    const override: Pricing = { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 1.25 };
    expect(usageCost(usage(1_000_000, 1_000_000, 1_000_000, 1_000_000), override).pico).toBe(
      4_750_000_000_000n,
    );
  });

  it('flags unpriced models and prices local ones at zero', () => {
    expect(usageCost(usage(100, 100), undefined)).toEqual({ pico: 0n, unpriced: true });
    expect(
      usageCost(usage(100, 100), { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }),
    ).toEqual({ pico: 0n, unpriced: false });
  });
});

describe('dollar conversions', () => {
  it('converts dollars to pico-dollars', () => {
    expect(dollarsToPico(0.1)).toBe(100_000_000_000n);
    expect(dollarsToPico(25)).toBe(25_000_000_000_000n);
  });
});

describe('CostLedger', () => {
  const gpt4o = findBuiltinModel('openai', 'gpt_4o')!.pricing;

  it('sums per task, model and run, and flags unpriced groups', () => {
    const ledger = new CostLedger();
    const first = ledger.record({
      actor: 'commander',
      task: 'plan',
      model: 'models.openai.gpt_4o',
      usage: usage(1000, 100),
      pricing: gpt4o,
    });
    expect(first).toEqual({ pico: 3_500_000_000n, unpriced: false });
    ledger.record({
      actor: 'writer',
      task: 'plan',
      model: 'models.openai.gpt_4o',
      usage: usage(2000, 200, 1000),
      pricing: gpt4o,
    });
    ledger.record({
      actor: 'writer',
      task: 'draft',
      model: 'models.custom.mystery',
      usage: usage(50, 5),
      pricing: undefined,
    });

    expect(ledger.run()).toEqual({
      turns: 3,
      usage: { input: 3050, output: 305, cacheRead: 1000, cacheWrite: 0, reasoning: 0 },
      pico: 3_500_000_000n + 8_250_000_000n,
      unpriced: true,
    });
    expect(ledger.task('plan')).toMatchObject({ turns: 2, pico: 11_750_000_000n, unpriced: false });
    expect(ledger.model('models.custom.mystery')).toMatchObject({
      turns: 1,
      pico: 0n,
      unpriced: true,
    });
    expect([...ledger.byTask().keys()]).toEqual(['plan', 'draft']);
    expect([...ledger.byModel().keys()]).toEqual(['models.openai.gpt_4o', 'models.custom.mystery']);
    expect(ledger.run().pico).toBe(11_750_000_000n);
  });

  it('hands out copies that later records do not change', () => {
    const ledger = new CostLedger();
    const before = ledger.run();
    ledger.record({ actor: 'a', model: 'm', usage: usage(1, 1), pricing: gpt4o });
    expect(before).toEqual({
      turns: 0,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      pico: 0n,
      unpriced: false,
    });
    expect(ledger.task('none').turns).toBe(0);
  });
});
