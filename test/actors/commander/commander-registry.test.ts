import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentSession } from '../../../src/actors/contracts.ts';
import {
  CommanderRegistry,
  type CommanderRecord,
} from '../../../src/actors/commander/commander-registry.ts';
import type { ResolvedModel } from '../../../src/models/model-types.ts';
import { temporaryDirectorySync } from '../../helpers/temp-dir.ts';

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
  let folder = '';
  beforeEach(() => {
    folder = temporaryDirectorySync('registry');
  });

  it('lists finished agents of the given tasks, items in index order, with qualified ids', () => {
    const registry = new CommanderRegistry(folder);
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
    const registry = new CommanderRegistry(folder);
    registry.record(record('each', 1, [['researcher', false]]));
    registry.record(record('each', 1, [['researcher', true]]));
    expect(registry.get('each', 1)?.agents.get('researcher')?.finishedOnce).toBe(true);
    expect(registry.get('each', 0)).toBeUndefined();
  });

  it('keeps the conversation as it was when the commander finished', () => {
    const registry = new CommanderRegistry(folder);
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

  it('keeps conversations in a file of the run folder, not in memory, and removes it at the end', () => {
    const registry = new CommanderRegistry(folder);
    const says = (text: string) => [
      { role: 'user' as const, parts: [{ type: 'text' as const, text }] },
    ];
    registry.record({ ...record('each', 7, []), messages: says('Handle item 7') });
    registry.record({ ...record('each', 2, []), messages: says('Handle item 2 — «ü»') });
    registry.record({ ...record('plain', null, []), messages: says('Do the plain task') });
    const [kept] = readdirSync(folder);
    const file = join(folder, kept ?? '', 'conversations.jsonl');
    expect(registry.get('each', 2)?.messages).toEqual(says('Handle item 2 — «ü»'));
    // The read wrote every conversation that waited in memory.
    expect(readFileSync(file, 'utf8')).toBe(
      JSON.stringify(says('Handle item 7')) +
        JSON.stringify(says('Handle item 2 — «ü»')) +
        JSON.stringify(says('Do the plain task')),
    );
    expect(registry.get('each', 7)?.messages).toEqual(says('Handle item 7'));
    expect(registry.get('plain', null)?.messages).toEqual(says('Do the plain task'));
    expect(registry.get('plain', null)?.actorId).toBe('commander:plain');
    expect(registry.has('each', 3)).toBe(false);
    expect(registry.has('each', 7)).toBe(true);
    registry.dispose();
    expect(existsSync(file)).toBe(false);
    expect(registry.has('each', 7)).toBe(false);
  });

  it('finds an item far beyond the first ones, and no item at a fraction or below zero', () => {
    const registry = new CommanderRegistry(folder);
    registry.record(record('each', 99_999, []));
    expect(registry.get('each', 99_999)?.index).toBe(99_999);
    expect(registry.has('each', 99_998)).toBe(false);
    expect(registry.has('each', 1.5)).toBe(false);
    expect(registry.has('each', -1)).toBe(false);
    registry.dispose();
  });
});
