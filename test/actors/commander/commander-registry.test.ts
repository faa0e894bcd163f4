import { describe, expect, it } from 'vitest';
import type { AgentSession } from '../../../src/actors/contracts.ts';
import {
  CommanderRegistry,
  type CommanderRecord,
} from '../../../src/actors/commander/commander-registry.ts';
import type { ResolvedModel } from '../../../src/models/model-types.ts';

const model: ResolvedModel = {
  provider: 'openai',
  config: 'main',
  key: 'small',
  apiName: 'small',
  promptCaching: true,
  reasoningCapable: false,
};

function session(name: string, finishedOnce: boolean): AgentSession {
  return {
    agent: { name } as AgentSession['agent'],
    actorId: `agent:x/${name}`,
    finishedOnce,
    call: () => Promise.resolve({ ok: true, result: '' }),
    resumeCall: () => Promise.resolve({ ok: true, result: '' }),
    ask: () => Promise.resolve({ ok: true, result: '' }),
    messages: () => [],
  };
}

function record(
  task: string,
  index: number | null,
  agents: Array<[string, boolean]>,
): CommanderRecord {
  return {
    task,
    index,
    actorId: `commander:${task}${index === null ? '' : `[${index}]`}`,
    model,
    system: '',
    tools: [],
    messages: [],
    agents: new Map(agents.map(([name, finished]) => [name, session(name, finished)])),
  };
}

describe('CommanderRegistry', () => {
  it('lists finished agents of the given tasks, items in index order, with qualified ids', () => {
    const registry = new CommanderRegistry();
    registry.record(record('each', 2, [['researcher', true]]));
    registry.record(
      record('each', 0, [
        ['researcher', true],
        ['writer', false],
      ]),
    );
    registry.record(record('plain', null, [['writer', true]]));
    registry.record(record('other', null, [['spy', true]]));
    expect(registry.askableAgents(['plain', 'each']).map((agent) => agent.qualifiedId)).toEqual([
      'plain/writer',
      'each[0]/researcher',
      'each[2]/researcher',
    ]);
    expect(registry.usedAgents('each')).toBe(true);
    expect(registry.usedAgents('missing')).toBe(false);
  });

  it('a later record of the same task and item replaces the earlier one (retries)', () => {
    const registry = new CommanderRegistry();
    registry.record(record('each', 1, [['researcher', false]]));
    registry.record(record('each', 1, [['researcher', true]]));
    expect(registry.get('each', 1)?.agents.get('researcher')?.finishedOnce).toBe(true);
    expect(registry.get('each', 0)).toBeUndefined();
  });

  it('keeps the conversation as it was when the commander finished', () => {
    const registry = new CommanderRegistry();
    const messages = [
      { role: 'user' as const, parts: [{ type: 'text' as const, text: 'Handle item 3' }] },
      {
        role: 'assistant' as const,
        parts: [{ type: 'tool_call' as const, id: 'c1', name: 'task_complete', arguments: '{}' }],
      },
    ];
    registry.record({ ...record('each', 3, []), messages });
    messages.push({ role: 'user', parts: [{ type: 'text', text: 'added later' }] });
    const kept = registry.get('each', 3);
    expect(kept?.messages).toEqual(messages.slice(0, 2));
    expect(kept?.actorId).toBe('commander:each[3]');
    expect(kept?.agents.size).toBe(0);
  });
});
