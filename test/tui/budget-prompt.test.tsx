import { afterEach, describe, expect, it } from 'vitest';
import { BudgetTracker } from '../../src/runtime/budget.ts';
import {
  BudgetRaiser,
  holdOnBudgetWarning,
  type BudgetRaiseRequest,
} from '../../src/runtime/budget-raises.ts';
import type { EventBus } from '../../src/runtime/event-bus.ts';
import { DebugGate, gateNoticeEvent, type GatePoint } from '../../src/runtime/gate.ts';
import { budgetPromptLines } from '../../src/tui/components/BudgetPrompt.tsx';
import { KEYS, mountApp, type Mounted } from './app-harness.tsx';
import { emitFetchTask, testBus } from './fixture.ts';

const point: GatePoint = { kind: 'model', actor: 'commander:fetch', detail: 'gpt' };

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

/**
 * A live run as `sortie run` wires it in the TUI: the warning pauses the gate, raises go to the
 * mission's tracker through the run's raiser and come back as `budget.raised`.
 */
async function warnedRun(): Promise<{
  app: Mounted;
  gate: DebugGate;
  bus: EventBus;
  raised: BudgetRaiseRequest[];
  released: string[];
}> {
  const bus = testBus();
  const gate = new DebugGate({
    onNotice: (notice) => bus.emit(gateNoticeEvent(notice)),
  });
  bus.subscribe(holdOnBudgetWarning(gate));
  const raiser = new BudgetRaiser((event) => bus.emit(event));
  raiser.follow(new BudgetTracker({ mission: 'research', missionLimits: { dollars: 0.01 } }));
  const raised: BudgetRaiseRequest[] = [];
  const app = await mountApp({
    bus,
    gate,
    budgets: {
      raise: (request) => {
        raised.push(request);
        return raiser.raise(request);
      },
    },
  });
  mounted = app;
  emitFetchTask(bus);
  bus.emit({
    type: 'budget.warning',
    actor: 'commander:fetch',
    scope: 'mission',
    subject: 'research',
    metric: 'dollars',
    used: '8500000000',
    limit: '10000000000',
  });
  const released: string[] = [];
  void gate.before(point).then(() => released.push('model'));
  await app.sync();
  return { app, gate, bus, raised, released };
}

describe('budgetPromptLines', () => {
  it('says what was spent of which limit and what each choice makes of it', () => {
    expect(
      budgetPromptLines({
        actor: 'task:fetch',
        scope: 'task',
        subject: 'fetch',
        metric: 'tokens',
        used: 80_500,
        limit: 100_000,
      }),
    ).toEqual([
      '! Budget warning: task "fetch" has used 80% of its limit',
      '  spent 80,500 of 100,000 tokens',
      '  The run is held: every actor stops at its next step until you choose.',
      '',
      '  +    raise it by half, to 150,000 tokens',
      '  *    double it, to 200,000 tokens',
      '  or type a new limit (tokens) and press enter',
      '  n    go on without raising (the work fails at 100,000 tokens)',
      '  esc  choose later (the run stays held; $ opens this again)',
      '',
    ]);
  });
});

describe('App: the budget prompt of a live run', () => {
  it('opens by itself at the warning while the run is held, and raises by half with +', async () => {
    const { app, gate, raised, released } = await warnedRun();
    expect(app.frame()).toContain('! Budget warning: mission "research" has used 85% of its limit');
    expect(app.frame()).toContain('  spent $0.0085 of $0.01');
    expect(app.frame()).toContain('  +    raise it by half, to $0.015');
    expect(gate.held()).toEqual([point]);

    await app.press('+');
    expect(raised).toEqual([
      {
        scope: 'mission',
        subject: 'research',
        metric: 'dollars',
        to: 15_000_000_000n,
        how: 'half',
      },
    ]);
    expect(released).toEqual(['model']);
    expect(gate.isPaused).toBe(false);
    await app.sync();
    expect(app.frame()).not.toContain('Budget warning');
    expect(app.frame()).toContain('mission research: limit raised; continuing');
  });

  it('takes an amount typed with its Enter in one read, and says what is wrong with a bad one', async () => {
    const { app, raised, released } = await warnedRun();
    await app.press(`0.005${KEYS.enter}`);
    expect(app.frame()).toContain('the new limit must be above $0.01');
    expect(app.frame()).toContain('> 0.005▌');
    expect(released).toEqual([]);
    await app.press(...Array.from({ length: 5 }, () => KEYS.backspace));
    expect(app.frame()).toContain('> ▌');
    await app.press(`$0.02${KEYS.enter}`);
    expect(raised.map((request) => request.to)).toEqual([5_000_000_000n, 20_000_000_000n]);
    expect(released).toEqual(['model']);
  });

  it('goes on without raising with n, and leaves the run held on esc until $ asks again', async () => {
    const { app, raised, released } = await warnedRun();
    await app.press(KEYS.escape);
    expect(app.frame()).not.toContain('Budget warning:');
    expect(app.frame()).toContain(
      'budget warning (mission research), the run is held: $ to choose',
    );
    expect(released).toEqual([]);
    await app.press('$');
    expect(app.frame()).toContain('! Budget warning: mission "research"');
    await app.press('n');
    expect(raised).toEqual([]);
    expect(released).toEqual(['model']);
    expect(app.frame()).toContain('mission research: going on without raising; continuing');
    await app.press('$');
    expect(app.frame()).toContain('no budget is at its warning');
  });
});
