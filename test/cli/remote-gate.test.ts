/**
 * The mirror `sortie attach` keeps of a served run's gate, fed the run's events: what it
 * learns from them alone, with no request to the server (the client names a closed port).
 */
import { describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent } from '../../src/base/events.ts';
import { RemoteGate } from '../../src/cli/remote-gate.ts';
import { ServeClient } from '../../src/cli/serve-client.ts';

let seq = 0;
function stamped(event: EventInput): MissionEvent {
  seq += 1;
  return { ...event, seq, runId: 'r1', time: new Date(0).toISOString() } as MissionEvent;
}

function mirror(): { gate: RemoteGate; problems: string[]; notices: string[][] } {
  const problems: string[] = [];
  const gate = new RemoteGate(new ServeClient('http://127.0.0.1:9', undefined), 'r1', (problem) =>
    problems.push(problem),
  );
  const notices: string[][] = [];
  gate.onNotice(() => notices.push(gate.list()));
  return { gate, problems, notices };
}

describe('RemoteGate', () => {
  it("takes the breakpoints another client set from the run's events and tells the TUI each time", () => {
    const { gate, problems, notices } = mirror();
    gate.observe(
      stamped({
        type: 'breakpoints.changed',
        actor: 'run',
        breakpoint: 'tool:call_agent',
        set: true,
        breakpoints: ['tool:call_agent'],
      }),
    );
    gate.observe(
      stamped({
        type: 'breakpoints.changed',
        actor: 'run',
        breakpoint: 'cost:0.50',
        set: true,
        breakpoints: ['tool:call_agent', 'cost:0.50'],
      }),
    );
    expect(gate.list()).toEqual(['tool:call_agent', 'cost:0.50']);
    gate.observe(
      stamped({
        type: 'breakpoints.changed',
        actor: 'run',
        breakpoint: 'tool:call_agent',
        set: false,
        breakpoints: ['cost:0.50'],
      }),
    );
    expect(gate.list()).toEqual(['cost:0.50']);
    expect(notices).toEqual([['tool:call_agent'], ['tool:call_agent', 'cost:0.50'], ['cost:0.50']]);
    expect(problems).toEqual([]);
  });
});
