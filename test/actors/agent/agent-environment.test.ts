import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  SessionEnvironment,
  type SessionTurns,
} from '../../../src/actors/agent/agent-environment.ts';
import type { AgentToolRunner } from '../../../src/actors/agent/execute-agent-tool.ts';
import type { AgentToolbox } from '../../../src/actors/agent/agent-toolbox.ts';
import type { AgentTool } from '../../../src/tools/builtins/agent-tool.ts';
import type { ToolCallPart } from '../../../src/models/model-types.ts';
import { EventBus } from '../../../src/runtime/event-bus.ts';
import { DebugGate, openGate, type StepGate } from '../../../src/runtime/gate.ts';
import { ResultStore } from '../../../src/tools/results/index.ts';

const CALL: ToolCallPart = { type: 'tool_call', id: 'c1', name: 'lookup', arguments: '{}' };

/** A `lookup` tool that records the signal it ran under. */
function lookupTool(signals: AbortSignal[]): AgentTool {
  return {
    definition: { name: 'lookup', description: 'Looks up.', parameters: { type: 'object' } },
    execute: (_args, { signal }) => {
      signals.push(signal);
      return Promise.resolve({ content: 'found', isError: false });
    },
  };
}

/** An environment whose model turns are never used: only the gate and the `lookup` tool are. */
function environment(gate: StepGate, signals: AbortSignal[] = []): SessionEnvironment {
  const tool = lookupTool(signals);
  const runner: AgentToolRunner = {
    actor: 'agent:t/worker',
    bus: new EventBus({ runId: 'run' }),
    gate,
    results: ResultStore.empty('/nonexistent'),
    toolbox: { find: (name: string) => (name === 'lookup' ? tool : undefined) } as AgentToolbox,
    redact: (text) => text,
    thresholdBytes: 10_000,
  };
  return new SessionEnvironment({} as SessionTurns, runner);
}

describe('SessionEnvironment', () => {
  it('passes the open gate without listening on the actor signal', async () => {
    const actor = new AbortController();
    const held = environment(openGate).holdCall(CALL, actor.signal);
    expect(getEventListeners(actor.signal, 'abort')).toHaveLength(0);
    await expect(held).resolves.toBeUndefined();
  });

  it("lets go of a held call when its actor's signal aborts", async () => {
    const actor = new AbortController();
    const gate = new DebugGate({ startPaused: true });
    const held = environment(gate).holdCall(CALL, actor.signal);
    expect(gate.held()).toEqual([
      { kind: 'tool', actor: 'agent:t/worker', tool: 'lookup', detail: '{}' },
    ]);
    actor.abort();
    await expect(held).rejects.toMatchObject({ name: 'AbortError' });
    expect(gate.held()).toEqual([]);
  });

  it("runs a tool under its actor's own signal, not one combined per call", async () => {
    const actor = new AbortController();
    const signals: AbortSignal[] = [];
    const outcome = await environment(openGate, signals).executeTool(
      { call: CALL, loadedSkills: [] },
      actor.signal,
    );
    expect(outcome).toEqual({ content: 'found', isError: false });
    expect(signals).toEqual([actor.signal]);
    expect(signals[0]).toBe(actor.signal);
  });
});
