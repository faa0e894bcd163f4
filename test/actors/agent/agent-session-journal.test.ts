import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../../src/actors/agent/index.ts';
import { findAgent } from '../../../src/config/mission-lookup.ts';
import { openJournal } from '../../../src/journal/writer.ts';
import type { ScriptTurn } from '../../../src/testing/index.ts';
import { startHarness, type Harness } from './harness.ts';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const HCL = `
agent "researcher" {
  model       = models.openai.gpt_4o
  personality = "You research carefully."
  tools       = [builtins.utils.current_time]
  max_turns   = 40
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.researcher]
  task "t" {
    objective = "do it"
  }
}
`;

/** 29 turns calling the clock tool, then a final answer: a 30-turn conversation. */
function thirtyTurns(): ScriptTurn[] {
  const turns: ScriptTurn[] = Array.from({ length: 29 }, (_, index) => ({
    text: `Checking the time, step ${index}.`,
    toolCalls: [{ name: 'builtins_utils_current_time', arguments: {} }],
  }));
  turns.push({ text: 'It is late.' });
  return turns;
}

describe('agent session journal', () => {
  it('grows linearly: model.request lines carry no messages and the prompt once per actor', async () => {
    harness = await startHarness({ hcl: HCL, turns: thirtyTurns() });
    const journal = await openJournal(harness.dir);
    harness.services.bus.subscribe(journal.subscriber);
    const agent = findAgent(harness.services.config, harness.services.mission, 'researcher');
    if (agent === undefined) throw new Error('test project has no researcher');
    const session = createAgentSession(harness.services, { agent, task: 't' });

    const result = await session.call('What time is it?', { signal: new AbortController().signal });
    await journal.close();

    expect(result).toEqual({ ok: true, result: 'It is late.' });
    harness.server.assertDone();
    const lines = (await readFile(journal.path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((line) => line.type === 'model.request');
    expect(requests).toHaveLength(30);
    // Each turn adds an assistant reply and a tool result to the 1-message start.
    expect(requests.map((line) => line.messageCount)).toEqual(
      Array.from({ length: 30 }, (_, index) => 1 + 2 * index),
    );
    expect(requests.filter((line) => 'messages' in line)).toEqual([]);
    expect(requests.filter((line) => 'system' in line)).toHaveLength(1);
    expect(requests.filter((line) => 'tools' in line)).toHaveLength(1);
    expect(requests[0]?.system).toContain('You research carefully.');
    // Every later request line is as small as the first one without its prompt and tools.
    const sizes = requests.map((line) => JSON.stringify(line).length);
    const later = sizes.slice(1);
    expect(Math.max(...later) - Math.min(...later)).toBeLessThan(20);
    // Every message is journaled exactly once, through message.appended.
    const appended = lines.filter((line) => line.type === 'message.appended');
    expect(appended).toHaveLength(60);
    const wire = harness.server.requests.at(-1)?.body as { input: unknown[] };
    // 29 × (assistant text + call, output) + the user task = the last request's wire input.
    expect(wire.input).toHaveLength(1 + 29 * 3);
  });
});
