/**
 * Breakpoints on signals, spend, routes and errors in a real run (startRun, the scripted
 * server behind the OpenAI SDK): the run feeds its events to the debugger's gate, which holds
 * the next point after a loop signal and after the spend crosses its line, before a chosen
 * route takes effect and before a failed result goes back; continuing finishes the run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GateNotice } from '../../src/runtime/gate.ts';
import { DebugGate } from '../../src/runtime/gate.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { HCL, ROUTER_HCL } from './breakpoint-projects.ts';
import { call, cleanUp, eventsOf, plainTask, reply, runEngine } from './engine-harness.ts';

afterEach(cleanUp);

/** A gate that lets every hold go at once, keeping what it held and why. */
type Paused = Extract<GateNotice, { type: 'gate.paused' }>;

function autoContinue(
  breakpoints: string[],
  onPaused: () => void = () => undefined,
): { gate: DebugGate; paused: Paused[] } {
  const paused: Paused[] = [];
  const gate: DebugGate = new DebugGate({
    breakpoints,
    onNotice: (notice) => {
      if (notice.type !== 'gate.paused') return;
      paused.push(notice);
      onPaused();
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
      signals: true,
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

/** What the run had done when each hold began: its event types so far, oldest first. */
function heldAfter(breakpoints: string[]): {
  gate: DebugGate;
  paused: Paused[];
  seen: string[][];
  onStart: (handle: unknown, events: MissionEvent[]) => void;
} {
  let events: MissionEvent[] = [];
  const seen: string[][] = [];
  const { gate, paused } = autoContinue(breakpoints, () =>
    seen.push(events.map((event) => `${event.type} ${event.actor}`)),
  );
  return { gate, paused, seen, onStart: (_, started) => void (events = started) };
}

describe('route and error breakpoints in a run', () => {
  it('holds before the chosen route starts its task, showing the route and its condition', async () => {
    const { gate, paused, seen, onStart } = heldAfter(['route']);
    const { result, server } = await runEngine({
      hcl: ROUTER_HCL,
      mission: 'route',
      turns: [
        call('commander:decide', 'set_subtasks', { subtasks: ['Judge'] }),
        call('commander:decide', 'complete_subtask'),
        call('commander:decide', 'task_complete', { summary: 'Good', route: 'publish' }),
        ...plainTask('publish', null, 'Published'),
      ],
      options: { gate },
      onStart,
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    expect(paused.map((notice) => [notice.point, notice.breakpoint])).toEqual([
      [
        {
          kind: 'route',
          actor: 'commander:decide',
          detail: 'publish → task publish (when: the draft is good)',
        },
        'route',
      ],
    ]);
    // Held after task_complete was answered and before the routed task started.
    expect(seen[0]?.filter((line) => line.startsWith('task.'))).toEqual([
      'task.started task:decide',
    ]);
  });

  it('holds each failed tool result before it goes back to the agent or the commander', async () => {
    const { gate, paused, seen, onStart } = heldAfter(['error']);
    const { result, server } = await runEngine({
      hcl: HCL,
      mission: 'hello',
      turns: [
        call('commander:greet', 'set_subtasks', { subtasks: ['Greet'] }),
        call('commander:greet', 'call_agent', { name: 'greeter', task: 'Greet' }),
        {
          match: { actor: 'agent:greet/greeter' },
          toolCalls: [{ name: 'no_such_tool', arguments: {} }],
        },
        reply('agent:greet/greeter', 'Hello'),
        call('commander:greet', 'complete_subtask'),
        // No summary: the commander's own rule fails the call.
        call('commander:greet', 'task_complete', {}),
        call('commander:greet', 'task_complete', { summary: 'Greeted' }),
      ],
      options: { gate },
      onStart,
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    expect(paused.map((notice) => [notice.point, notice.breakpoint])).toEqual([
      [
        {
          kind: 'error',
          actor: 'agent:greet/greeter',
          tool: 'no_such_tool',
          detail: `{"status":"error","error":"unknown tool \\"no_such_tool\\"; this agent has no tools of its own, only the mission's: set_dataset, dataset_sample, dataset_count, result_to_dataset"}`,
        },
        'error',
      ],
      [
        {
          kind: 'error',
          actor: 'commander:greet',
          tool: 'task_complete',
          detail:
            '{"status":"error","error":"summary is required when succeed is true: say what was done and found (dependent tasks receive it)"}',
        },
        'error',
      ],
    ]);
    // Each hold comes after the failed call was reported and before the actor's next request.
    const lastOfHeld = seen.map((lines, at) =>
      lines.filter((line) => line.endsWith(` ${paused[at]?.point.actor ?? ''}`)).at(-1),
    );
    expect(lastOfHeld).toEqual([
      'tool.completed agent:greet/greeter',
      'tool.completed commander:greet',
    ]);
  });
});
