import { describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent } from '../../src/base/events.ts';
import type { Usage } from '../../src/models/model-types.ts';
import { BudgetTracker } from '../../src/runtime/budget.ts';
import {
  BudgetRaiser,
  chosenLimit,
  holdOnBudgetWarning,
  journaledRaise,
} from '../../src/runtime/budget-raises.ts';

const PICO = 1_000_000_000_000n;
const tokens = (input: number): Usage => ({
  input,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
});

describe('BudgetTracker.raise', () => {
  it('lets requests go past the old limit and warns again at 80% of the new one', () => {
    const tracker = new BudgetTracker({ mission: 'm', taskLimits: { x: { tokens: 1_000 } } });
    expect(tracker.record('x', tokens(850), 0n).map((signal) => signal.type)).toEqual([
      'budget.warning',
    ]);
    expect(tracker.raise({ scope: 'task', subject: 'x', metric: 'tokens', to: 2_000 })).toEqual({
      ok: true,
      change: { metric: 'tokens', from: 1_000, to: 2_000 },
    });
    // 1,200 would have failed the task under the old limit.
    expect(tracker.record('x', tokens(350), 0n)).toEqual([]);
    expect(tracker.checkBeforeRequest('x')).toEqual({ ok: true });
    expect(tracker.record('x', tokens(400), 0n)).toEqual([
      {
        type: 'budget.warning',
        scope: 'task',
        subject: 'x',
        metric: 'tokens',
        used: 1_600,
        limit: 2_000,
      },
    ]);
    expect(tracker.record('x', tokens(400), 0n)).toEqual([
      {
        type: 'budget.exceeded',
        scope: 'task',
        subject: 'x',
        metric: 'tokens',
        used: 2_000,
        limit: 2_000,
        message: 'budget exceeded: task "x" used 2,000 of 2,000 tokens',
      },
    ]);
  });

  it("raises the mission's dollar limit and lifts the breach it had found", () => {
    const tracker = new BudgetTracker({ mission: 'm', missionLimits: { dollars: 1 } });
    tracker.record('x', tokens(1), PICO);
    expect(tracker.checkBeforeRequest('x').ok).toBe(false);
    expect(
      tracker.raise({ scope: 'mission', subject: 'm', metric: 'dollars', to: 3n * PICO }),
    ).toEqual({
      ok: true,
      change: { metric: 'dollars', from: '1000000000000', to: '3000000000000' },
    });
    expect(tracker.checkBeforeRequest('x')).toEqual({ ok: true });
    expect(tracker.breachesOf('x')).toEqual([]);
  });

  it('refuses a limit that is not higher, a metric without a limit and another mission', () => {
    const tracker = new BudgetTracker({
      mission: 'm',
      missionLimits: { dollars: 1 },
      taskLimits: { x: { tokens: 100 } },
    });
    expect(tracker.raise({ scope: 'task', subject: 'x', metric: 'tokens', to: 100 })).toEqual({
      ok: false,
      problem: 'the new limit must be above 100 tokens',
    });
    expect(
      tracker.raise({ scope: 'mission', subject: 'm', metric: 'dollars', to: PICO / 2n }),
    ).toEqual({
      ok: false,
      problem: 'the new limit must be above $1.00',
    });
    expect(tracker.raise({ scope: 'task', subject: 'x', metric: 'dollars', to: PICO })).toEqual({
      ok: false,
      problem: 'task "x" has no dollars limit',
    });
    expect(
      tracker.raise({ scope: 'mission', subject: 'other', metric: 'dollars', to: 2n * PICO }),
    ).toEqual({
      ok: false,
      problem: 'mission "other" is not this run\'s mission',
    });
  });

  it('keeps a breach adopted from the run process of a distributed run', () => {
    const tracker = new BudgetTracker({ mission: 'm', taskLimits: { x: { tokens: 100 } } });
    const breach = {
      scope: 'task' as const,
      subject: 'x',
      metric: 'tokens' as const,
      used: 120,
      limit: 100,
      message: 'budget exceeded: task "x" used 120 of 100 tokens',
    };
    tracker.adopt(breach);
    tracker.raise({ scope: 'task', subject: 'x', metric: 'tokens', to: 500 });
    expect(tracker.checkBeforeRequest('x')).toEqual({ ok: false, breach });
  });
});

describe('chosenLimit', () => {
  const tokenWarning = {
    scope: 'task',
    subject: 'x',
    metric: 'tokens',
    used: 850,
    limit: 1_001,
  } as const;
  const dollarWarning = {
    scope: 'mission',
    subject: 'm',
    metric: 'dollars',
    used: '850000000000',
    limit: '1000000000000',
  } as const;

  it('gives half as much again, double, or the amount typed', () => {
    expect(chosenLimit(tokenWarning, 'half')).toEqual({
      ok: true,
      request: { scope: 'task', subject: 'x', metric: 'tokens', to: 1_502, how: 'half' },
    });
    expect(chosenLimit(tokenWarning, 'double')).toMatchObject({ request: { to: 2_002 } });
    expect(chosenLimit(tokenWarning, 'typed', ' 25,000 ')).toMatchObject({
      request: { to: 25_000, how: 'typed' },
    });
    expect(chosenLimit(dollarWarning, 'half')).toMatchObject({
      request: { metric: 'dollars', to: 1_500_000_000_000n },
    });
    expect(chosenLimit(dollarWarning, 'double')).toMatchObject({ request: { to: 2n * PICO } });
    expect(chosenLimit(dollarWarning, 'typed', '$2.5')).toMatchObject({
      request: { to: 2_500_000_000_000n },
    });
  });

  it('says what to type when the amount is not one', () => {
    expect(chosenLimit(tokenWarning, 'typed', '1.5')).toEqual({
      ok: false,
      problem: 'type a whole number of tokens',
    });
    expect(chosenLimit(dollarWarning, 'typed', '')).toEqual({
      ok: false,
      problem: 'type an amount in dollars',
    });
  });
});

describe('BudgetRaiser', () => {
  it("raises the running mission's budget and journals the raise, which a resume sets again", () => {
    const emitted: EventInput[] = [];
    const raiser = new BudgetRaiser((event) => emitted.push(event));
    const request = {
      scope: 'task',
      subject: 'x',
      metric: 'tokens',
      to: 300,
      how: 'double',
    } as const;
    expect(raiser.raise(request)).toBe('no mission is running');
    const tracker = new BudgetTracker({ mission: 'm', taskLimits: { x: { tokens: 150 } } });
    raiser.follow(tracker);
    expect(raiser.raise(request)).toBeUndefined();
    expect(emitted).toEqual([
      {
        type: 'budget.raised',
        actor: 'task:x',
        scope: 'task',
        subject: 'x',
        how: 'double',
        metric: 'tokens',
        from: 150,
        to: 300,
      },
    ]);
    expect(raiser.raise({ ...request, to: 200 })).toBe('the new limit must be above 300 tokens');
    const resumed = new BudgetTracker({ mission: 'm', taskLimits: { x: { tokens: 150 } } });
    const raised = emitted[0] as EventInput & { type: 'budget.raised' };
    expect(resumed.raise(journaledRaise(raised))).toMatchObject({ ok: true });
    resumed.record('x', tokens(200), 0n);
    expect(resumed.checkBeforeRequest('x')).toEqual({ ok: true });
    expect(
      journaledRaise({ scope: 'mission', subject: 'm', metric: 'dollars', from: '1', to: '20' }),
    ).toEqual({ scope: 'mission', subject: 'm', metric: 'dollars', to: 20n });
  });
});

describe('holdOnBudgetWarning', () => {
  it('pauses the gate on a budget warning and on nothing else', () => {
    let pauses = 0;
    const listener = holdOnBudgetWarning({ pause: () => (pauses += 1) });
    const envelope = { seq: 1, time: '2026-01-01T00:00:00.000Z', runId: 'r', actor: 'task:x' };
    listener({
      ...envelope,
      type: 'budget.exceeded',
      scope: 'task',
      subject: 'x',
      message: 'over',
      metric: 'tokens',
      used: 2,
      limit: 1,
    } as MissionEvent);
    expect(pauses).toBe(0);
    listener({
      ...envelope,
      type: 'budget.warning',
      scope: 'task',
      subject: 'x',
      metric: 'tokens',
      used: 8,
      limit: 10,
    } as MissionEvent);
    expect(pauses).toBe(1);
  });
});
