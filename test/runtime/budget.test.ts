import { describe, expect, it } from 'vitest';
import { BudgetExceededError } from '../../src/base/errors.ts';
import type { Usage } from '../../src/models/model-types.ts';
import { BudgetTracker, budgetError } from '../../src/runtime/budget.ts';

const PICO = 1_000_000_000_000n;
const tokens = (input: number, output = 0): Usage => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
});

describe('budget tokens', () => {
  it('counts input, cached input and output; reasoning is already inside output', () => {
    const tracker = new BudgetTracker({ mission: 'm' });
    const usage = { input: 1000, cacheRead: 2000, cacheWrite: 500, output: 4000, reasoning: 3000 };
    tracker.record('t', usage, 0n);
    expect(tracker.spent('t').tokens).toBe(7500);
  });
});

describe('BudgetTracker', () => {
  it('warns once at 80% and reports the first breach with thousands separators', () => {
    const tracker = new BudgetTracker({ mission: 'm', taskLimits: { x: { tokens: 10_000 } } });
    expect(tracker.record('x', tokens(7_999), 0n)).toEqual([]);
    expect(tracker.record('x', tokens(0, 1), 0n)).toEqual([
      {
        type: 'budget.warning',
        scope: 'task',
        subject: 'x',
        metric: 'tokens',
        used: 8_000,
        limit: 10_000,
      },
    ]);
    expect(tracker.record('x', tokens(1_000), 0n)).toEqual([]);
    expect(tracker.checkBeforeRequest('x')).toEqual({ ok: true });
    expect(tracker.record('x', tokens(1_000, 412), 0n)).toEqual([
      {
        type: 'budget.exceeded',
        scope: 'task',
        subject: 'x',
        metric: 'tokens',
        used: 10_412,
        limit: 10_000,
        message: 'budget exceeded: task "x" used 10,412 of 10,000 tokens',
      },
    ]);
    expect(tracker.record('x', tokens(5), 0n)).toEqual([]);
  });

  it('counts on from what another tracker counted, never below its own count, signalling only its own crossing', () => {
    const tracker = new BudgetTracker({
      mission: 'm',
      missionLimits: { dollars: 1 },
      taskLimits: { x: { tokens: 1_000 } },
    });
    tracker.record('x', tokens(300), PICO / 10n);
    // The run process counted 850 tokens of the task (this tracker's 300 among them): at 80%
    // already, which it announced itself.
    tracker.catchUp('x', {
      task: { tokens: 850, pico: PICO / 2n },
      mission: { tokens: 900, pico: PICO / 2n },
    });
    expect(tracker.spent('x')).toEqual({ tokens: 850, pico: PICO / 2n });
    expect(tracker.spent()).toEqual({ tokens: 900, pico: PICO / 2n });
    // An older count lowers nothing.
    tracker.catchUp('x', { task: { tokens: 10, pico: 0n }, mission: { tokens: 10, pico: 0n } });
    expect(tracker.spent('x').tokens).toBe(850);
    expect(tracker.record('x', tokens(150), 0n)).toEqual([
      {
        type: 'budget.exceeded',
        scope: 'task',
        subject: 'x',
        metric: 'tokens',
        used: 1_000,
        limit: 1_000,
        message: 'budget exceeded: task "x" used 1,000 of 1,000 tokens',
      },
    ]);
  });

  it('sends nothing once a limit is reached, even exactly', () => {
    const tracker = new BudgetTracker({ mission: 'm', taskLimits: { x: { tokens: 100 } } });
    tracker.record('x', tokens(100), 0n);
    expect(tracker.checkBeforeRequest('x')).toEqual({
      ok: false,
      breach: {
        scope: 'task',
        subject: 'x',
        metric: 'tokens',
        used: 100,
        limit: 100,
        message: 'budget exceeded: task "x" used 100 of 100 tokens',
      },
    });
    expect(tracker.checkBeforeRequest('other')).toEqual({ ok: true });
  });

  it('reports a dollar breach with 4 decimals spent and the limit as configured', () => {
    const tracker = new BudgetTracker({ mission: 'm', missionLimits: { dollars: 1 } });
    expect(tracker.record('x', tokens(10), 1_203_400_000_000n)).toEqual([
      {
        type: 'budget.exceeded',
        scope: 'mission',
        subject: 'm',
        metric: 'dollars',
        used: '1203400000000',
        limit: '1000000000000',
        message: 'budget exceeded: mission "m" used $1.2034 of $1.00',
      },
    ]);
    const check = tracker.checkBeforeRequest('y');
    expect(check.ok === false && check.breach.message).toBe(
      'budget exceeded: mission "m" used $1.2034 of $1.00',
    );
  });

  it('warns for each limited metric once', () => {
    const tracker = new BudgetTracker({
      mission: 'm',
      missionLimits: { tokens: 1_000, dollars: 0.5 },
    });
    expect(tracker.record('a', tokens(850), 100_000_000_000n)).toEqual([
      {
        type: 'budget.warning',
        scope: 'mission',
        subject: 'm',
        metric: 'tokens',
        used: 850,
        limit: 1_000,
      },
    ]);
    expect(tracker.record('a', tokens(10), 300_000_000_000n)).toEqual([
      {
        type: 'budget.warning',
        scope: 'mission',
        subject: 'm',
        metric: 'dollars',
        used: '400000000000',
        limit: '500000000000',
      },
    ]);
    expect(tracker.record('a', tokens(10), 0n)).toEqual([]);
  });

  it('counts every iteration and agent turn toward the task and the mission', () => {
    const tracker = new BudgetTracker({
      mission: 'm',
      missionLimits: { tokens: 1_000 },
      taskLimits: { analyze: { tokens: 600 }, other: undefined },
    });
    tracker.record('analyze', tokens(300), 10n); // commander:analyze[0]
    tracker.record('analyze', tokens(200), 20n); // agent:analyze[1]/researcher
    tracker.record('other', tokens(100), 5n);
    expect(tracker.spent('analyze')).toEqual({ tokens: 500, pico: 30n });
    expect(tracker.spent('other')).toEqual({ tokens: 100, pico: 5n });
    expect(tracker.spent()).toEqual({ tokens: 600, pico: 35n });
    expect(tracker.record('analyze', tokens(250), 0n)).toEqual([
      {
        type: 'budget.exceeded',
        scope: 'task',
        subject: 'analyze',
        metric: 'tokens',
        used: 750,
        limit: 600,
        message: 'budget exceeded: task "analyze" used 750 of 600 tokens',
      },
      {
        type: 'budget.warning',
        scope: 'mission',
        subject: 'm',
        metric: 'tokens',
        used: 850,
        limit: 1_000,
      },
    ]);
    const check = tracker.checkBeforeRequest('other');
    expect(check).toEqual({ ok: true });
    tracker.record('other', tokens(150), 0n);
    const blocked = tracker.checkBeforeRequest('other');
    expect(blocked.ok === false && blocked.breach.message).toBe(
      'budget exceeded: mission "m" used 1,000 of 1,000 tokens',
    );
  });

  it('checks the task before the mission and tokens before dollars', () => {
    const tracker = new BudgetTracker({
      mission: 'm',
      missionLimits: { tokens: 10 },
      taskLimits: { x: { tokens: 5, dollars: 0.000001 } },
    });
    tracker.record('x', tokens(20), PICO);
    const check = tracker.checkBeforeRequest('x');
    expect(check.ok === false && check.breach.message).toBe(
      'budget exceeded: task "x" used 20 of 5 tokens',
    );
  });

  it('reports a breach of the task and of the mission from the same turn, task first', () => {
    const tracker = new BudgetTracker({
      mission: 'm',
      missionLimits: { tokens: 1_000_000 },
      taskLimits: { x: { tokens: 1_000 } },
    });
    const signals = tracker.record('x', tokens(1_234_567), 0n);
    expect(signals.map((signal) => signal.type === 'budget.exceeded' && signal.message)).toEqual([
      'budget exceeded: task "x" used 1,234,567 of 1,000 tokens',
      'budget exceeded: mission "m" used 1,234,567 of 1,000,000 tokens',
    ]);
  });

  it('turns a breach into a BudgetExceededError carrying scope and subject', () => {
    const tracker = new BudgetTracker({ mission: 'm', taskLimits: { x: { tokens: 1 } } });
    const [signal] = tracker.record('x', tokens(2), 0n);
    if (signal?.type !== 'budget.exceeded') throw new Error('expected a breach');
    const error = budgetError(signal);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect([error.message, error.scope, error.subject]).toEqual([
      'budget exceeded: task "x" used 2 of 1 tokens',
      'task',
      'x',
    ]);
  });
});
