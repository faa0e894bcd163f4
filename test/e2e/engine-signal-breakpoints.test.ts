/**
 * Breakpoints on signals and spend in a real run (startRun, the scripted server behind the
 * OpenAI SDK): the run feeds its events to the debugger's gate, which holds the next point
 * after a loop signal and after the spend crosses its line; continuing finishes the run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GateNotice } from '../../src/runtime/gate.ts';
import { DebugGate } from '../../src/runtime/gate.ts';
import { call, cleanUp, eventsOf, plainTask, runEngine } from './engine-harness.ts';

afterEach(cleanUp);

const HCL = `
agent "greeter" {
  model = MODEL
  personality = "You write short greetings."
}
mission "hello" {
  commander {
    model = MODEL
  }
  agents = [agents.greeter]
  task "greet" {
    objective = "Write a greeting"
  }
}
`;

/** A gate that lets every hold go at once, keeping what it held and why. */
type Paused = Extract<GateNotice, { type: 'gate.paused' }>;

function autoContinue(breakpoints: string[]): { gate: DebugGate; paused: Paused[] } {
  const paused: Paused[] = [];
  const gate: DebugGate = new DebugGate({
    breakpoints,
    onNotice: (notice) => {
      if (notice.type !== 'gate.paused') return;
      paused.push(notice);
      queueMicrotask(() => gate.continue());
    },
  });
  return { gate, paused };
}

describe('breakpoints on signals and spend in a run', () => {
  it('holds the looping commander at its next point, then finishes when continued', async () => {
    const { gate, paused } = autoContinue(['loop']);
    const loops = [1, 2, 3].map(() => call('commander:greet', 'get_subtasks'));
    const { result, events, server } = await runEngine({
      hcl: HCL,
      mission: 'hello',
      turns: plainTask('greet', 'greeter', 'Greeted', loops),
      options: { gate },
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    expect(eventsOf(events, 'signal.raised').map((event) => event.signal)).toEqual(['loop']);
    expect(
      paused.map((notice) => [notice.point.actor, notice.point.kind, notice.breakpoint]),
    ).toEqual([['commander:greet', 'model', 'loop']]);
  });

  it("holds the next point once the run's tokens cross tokens:N", async () => {
    const { gate, paused } = autoContinue(['tokens:300']);
    const { result } = await runEngine({
      hcl: HCL,
      mission: 'hello',
      // Each scripted turn of the harness costs 110 tokens: the third crosses 300.
      turns: plainTask('greet', 'greeter', 'Greeted').map((turn) => ({
        ...turn,
        usage: { input: 100, output: 10 },
      })),
      options: { gate },
    });
    expect(result.status).toBe('succeeded');
    expect(paused.map((notice) => notice.breakpoint)).toEqual(['tokens:300']);
    expect(paused[0]?.point.actor).toBe('commander:greet');
  });
});
