import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  SessionEnvironment,
  type SessionTurns,
} from '../../../src/actors/agent/agent-environment.ts';
import type { AgentToolRunner } from '../../../src/actors/agent/execute-agent-tool.ts';
import type { AgentToolbox } from '../../../src/actors/agent/agent-toolbox.ts';
import type { ToolCallPart } from '../../../src/models/model-types.ts';
import { EventBus } from '../../../src/runtime/event-bus.ts';
import { DebugGate, openGate, type StepGate } from '../../../src/runtime/gate.ts';
import { ResultStore } from '../../../src/tools/results/index.ts';

const CALL: ToolCallPart = { type: 'tool_call', id: 'c1', name: 'lookup', arguments: '{}' };

/** An environment whose model turns and tools are never used: only the gate is. */
function environment(gate: StepGate, callSignal: AbortSignal): SessionEnvironment {
  const runner: AgentToolRunner = {
    actor: 'agent:t/worker',
    bus: new EventBus({ runId: 'run' }),
    gate,
    results: ResultStore.empty('/nonexistent'),
    toolbox: {} as AgentToolbox,
    redact: (text) => text,
    thresholdBytes: 10_000,
  };
  return new SessionEnvironment({} as SessionTurns, runner, callSignal);
}

describe('SessionEnvironment.holdCall', () => {
  it('passes the open gate without listening on the call or the actor signal', async () => {
    const call = new AbortController();
    const actor = new AbortController();
    const held = environment(openGate, call.signal).holdCall(CALL, actor.signal);
    expect([
      getEventListeners(call.signal, 'abort').length,
      getEventListeners(actor.signal, 'abort').length,
    ]).toEqual([0, 0]);
    await expect(held).resolves.toBeUndefined();
  });

  it("still lets go of a held call when the call's signal aborts", async () => {
    const call = new AbortController();
    const gate = new DebugGate({ startPaused: true });
    const held = environment(gate, call.signal).holdCall(CALL, new AbortController().signal);
    expect(gate.held()).toEqual([
      { kind: 'tool', actor: 'agent:t/worker', tool: 'lookup', detail: '{}' },
    ]);
    call.abort();
    await expect(held).rejects.toMatchObject({ name: 'AbortError' });
    expect(gate.held()).toEqual([]);
  });
});
