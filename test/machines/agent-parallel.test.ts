/**
 * The tool calls of one reply run together, their results go back in call order, and the calls
 * that must not overlap (`parallel_tool_calls = false`, a question to the person, a file write
 * on a slot another call uses) wait for the running ones.
 */
import { createActor, toPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { Message, ToolCallPart } from '../../src/models/model-types.ts';
import type { ToolOutcome } from '../../src/machines/turn-types.ts';
import { call, reply, textReply } from './commander-harness.ts';
import { repliesInOrder, scriptedAgent } from './agent-harness.ts';

const task: Message = { role: 'user', parts: [{ type: 'text', text: 'Do the task.' }] };

/** Tool calls that each wait until `release` is called; records starts, ends and overlap. */
function heldTools() {
  const waiting = new Map<string, () => void>();
  const log: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const toolCall = (input: { call: ToolCallPart }): Promise<ToolOutcome> => {
    const label = `${input.call.name}${input.call.arguments}`;
    log.push(`start ${label}`);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    return new Promise((resolve) => {
      waiting.set(label, () => {
        inFlight -= 1;
        log.push(`end ${label}`);
        resolve({ content: `result of ${label}`, isError: false });
      });
    });
  };
  /** Finishes the calls running now, in the given order, or in reverse start order. */
  const release = (labels?: string[]): void => {
    const order = labels ?? [...waiting.keys()].reverse();
    for (const label of order) {
      const finish = waiting.get(label);
      waiting.delete(label);
      finish?.();
    }
  };
  return { toolCall, release, log, running: () => [...waiting.keys()], max: () => maxInFlight };
}

/** Runs the agent until every call it waits for is finished, releasing them as they come. */
async function runReleasing(
  tools: ReturnType<typeof heldTools>,
  calls: ToolCallPart[],
  input: { parallelToolCalls?: boolean } = {},
) {
  const { machine } = scriptedAgent({
    modelTurn: repliesInOrder([reply(...calls), textReply('done')]),
    toolCall: tools.toolCall,
  });
  const actor = createActor(machine, { input: { messages: [task], ...input } }).start();
  const snapshots: string[][] = [];
  // Each time nothing more can start, the running calls are recorded and finished.
  for (let round = 0; round < 10 && actor.getSnapshot().status === 'active'; round += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    if (tools.running().length === 0) continue;
    snapshots.push(tools.running());
    tools.release();
  }
  return { result: await toPromise(actor), snapshots };
}

describe('the tool calls of one reply', () => {
  it('run together, and their results go back in call order whatever order they finish in', async () => {
    const tools = heldTools();
    const calls = [
      call('fetch', { page: 1 }),
      call('fetch', { page: 2 }),
      call('fetch', { page: 3 }),
    ];
    const { result, snapshots } = await runReleasing(tools, calls);
    expect(snapshots).toEqual([['fetch{"page":1}', 'fetch{"page":2}', 'fetch{"page":3}']]);
    expect(tools.log.slice(3)).toEqual([
      'end fetch{"page":3}',
      'end fetch{"page":2}',
      'end fetch{"page":1}',
    ]);
    expect(result.answer).toBe('done');
    expect(result.messages[2]?.parts).toEqual(
      calls.map((made) => ({
        type: 'tool_result',
        callId: made.id,
        name: 'fetch',
        content: `result of fetch${made.arguments}`,
        isError: false,
      })),
    );
  });

  it('run one at a time with parallel_tool_calls = false', async () => {
    const tools = heldTools();
    const calls = [call('fetch', { page: 1 }), call('fetch', { page: 2 })];
    const { snapshots } = await runReleasing(tools, calls, { parallelToolCalls: false });
    expect(snapshots).toEqual([['fetch{"page":1}'], ['fetch{"page":2}']]);
    expect(tools.max()).toBe(1);
  });

  it('let a question to the person run alone: it waits for the calls before it and holds those after', async () => {
    const tools = heldTools();
    const calls = [
      call('fetch', { page: 1 }),
      call('builtins_human_ask', { question: 'Which?' }),
      call('fetch', { page: 2 }),
      call('fetch', { page: 3 }),
    ];
    const { snapshots } = await runReleasing(tools, calls);
    expect(snapshots).toEqual([
      ['fetch{"page":1}'],
      ['builtins_human_ask{"question":"Which?"}'],
      ['fetch{"page":2}', 'fetch{"page":3}'],
    ]);
  });

  it('keep a file write apart from every other call on its slot, and let other slots overlap', async () => {
    const tools = heldTools();
    const calls = [
      call('file_read', { slot: 'notes', path: 'a.md' }),
      call('file_read', { slot: 'work', path: 'b.md' }),
      call('file_create', { slot: 'notes', path: 'a.md', content: 'x' }),
      call('file_read', { slot: 'notes', path: 'a.md' }),
    ];
    const { snapshots } = await runReleasing(tools, calls);
    expect(snapshots).toEqual([
      ['file_read{"slot":"notes","path":"a.md"}', 'file_read{"slot":"work","path":"b.md"}'],
      ['file_create{"slot":"notes","path":"a.md","content":"x"}'],
      ['file_read{"slot":"notes","path":"a.md"}'],
    ]);
  });

  it('are held at the gate one at a time in call order, each call starting once it passes', async () => {
    const steps: string[] = [];
    const gates: (() => void)[] = [];
    const { machine } = scriptedAgent({
      modelTurn: repliesInOrder([reply(call('a'), call('b')), textReply('done')]),
      toolGate: (held) => {
        steps.push(`hold ${held.name}`);
        return new Promise((resolve) => gates.push(() => resolve()));
      },
      toolCall: async (input) => {
        steps.push(`start ${input.call.name}`);
        return { content: 'ok', isError: false };
      },
    });
    const actor = createActor(machine, { input: { messages: [task] } }).start();
    for (let step = 0; step < 2; step += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      gates.shift()?.();
    }
    expect((await toPromise(actor)).answer).toBe('done');
    expect(steps).toEqual(['hold a', 'start a', 'hold b', 'start b']);
  });

  it('fail the agent when one call rejects, aborting the others still running', async () => {
    const signals: AbortSignal[] = [];
    const { machine } = scriptedAgent({
      modelTurn: repliesInOrder([reply(call('slow'), call('broken'))]),
      toolCall: (input, signal) => {
        if (input.call.name === 'broken') return Promise.reject(new Error('tool host down'));
        signals.push(signal);
        return new Promise(() => undefined);
      },
    });
    const result = await toPromise(createActor(machine, { input: { messages: [task] } }).start());
    expect(result.failure?.reason).toBe('tool host down');
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });
});
