import { describe, expect, it } from 'vitest';
import type { AgentToolbox } from '../../../src/actors/agent/agent-toolbox.ts';
import { executeAgentTool } from '../../../src/actors/agent/execute-agent-tool.ts';
import type { MissionEvent } from '../../../src/base/events.ts';
import { EventBus } from '../../../src/runtime/event-bus.ts';
import { openGate } from '../../../src/runtime/gate.ts';
import type { AgentTool } from '../../../src/tools/builtins/agent-tool.ts';
import { defineTool } from '../../../src/tools/define-tool.ts';
import { ResultStore } from '../../../src/tools/results/index.ts';

/** A tool stuck for good: it never settles and never looks at its signal. */
const stuck: AgentTool = {
  definition: defineTool({
    name: 'stuck',
    description: 'never ends',
    parameters: { type: 'object' },
  }),
  execute: () => new Promise(() => undefined),
};

describe('executeAgentTool', () => {
  it('stops waiting for a tool that ignores its signal once the call is aborted', async () => {
    const bus = new EventBus({ runId: 'run' });
    const events: MissionEvent[] = [];
    bus.subscribe((event) => events.push(event));
    const toolbox = {
      find: () => stuck,
      names: () => ['stuck'],
      addResultTools: () => undefined,
    } as unknown as AgentToolbox;
    const runner = {
      actor: 'agent:t/worker',
      bus,
      gate: openGate,
      results: ResultStore.empty('/nonexistent'),
      toolbox,
      redact: (text: string) => text,
      thresholdBytes: 10_000,
    };
    const controller = new AbortController();
    const call = executeAgentTool(
      runner,
      { type: 'tool_call', id: 'c1', name: 'stuck', arguments: '{}' },
      controller.signal,
    );
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(events.map((event) => event.type)).toEqual(['tool.called']);
  });
});
