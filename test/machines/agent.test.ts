import { createActor, toPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/models/model-types.ts';
import type { AgentToolInput } from '../../src/machines/agent.machine.ts';
import type { ModelTurnOutput, ToolOutcome } from '../../src/machines/turn-types.ts';
import type { ContextPolicy } from '../../src/runtime/context-window.ts';
import { emptyUsage } from '../../src/models/usage.ts';
import { call, reply, textReply } from './commander-harness.ts';
import { repliesInOrder, scriptedAgent } from './agent-harness.ts';

const task: Message = {
  role: 'user',
  parts: [{ type: 'text', text: 'Find the weather in Oslo.' }],
};

async function runAgent(
  replies: ModelTurnOutput[],
  options: {
    maxTurns?: number;
    executeTool?: (input: AgentToolInput) => Promise<ToolOutcome>;
    context?: ContextPolicy;
  } = {},
) {
  const executed: string[] = [];
  const sent: number[] = [];
  const { machine, reports } = scriptedAgent({
    modelTurn: repliesInOrder(replies, sent),
    toolCall: async (input) => {
      executed.push(input.call.name);
      return (
        options.executeTool?.(input) ?? {
          content: `result of ${input.call.name}`,
          isError: false,
        }
      );
    },
  });
  const actor = createActor(machine, {
    input: { messages: [task], maxTurns: options.maxTurns, context: options.context },
  }).start();
  return { result: await toPromise(actor), executed, sent, cuts: reports.cuts };
}

describe('agent loop', () => {
  it('runs tool calls in order until a reply without tool calls, whose text is the answer', async () => {
    const first = call('tools_weather', { city: 'Oslo' });
    const second = call('builtins_utils_current_time', {});
    const { result, executed } = await runAgent([
      reply(first, second),
      textReply('It is 4 °C in Oslo.'),
    ]);
    expect(executed).toEqual(['tools_weather', 'builtins_utils_current_time']);
    expect(result.answer).toBe('It is 4 °C in Oslo.');
    expect(result.failure).toBeNull();
    expect(result.turns).toBe(2);
    expect(result.messages[2]).toEqual({
      role: 'user',
      parts: [
        {
          type: 'tool_result',
          callId: first.id,
          name: 'tools_weather',
          content: 'result of tools_weather',
          isError: false,
        },
        {
          type: 'tool_result',
          callId: second.id,
          name: 'builtins_utils_current_time',
          content: 'result of builtins_utils_current_time',
          isError: false,
        },
      ],
    });
  });

  it('passes error results back to the model and continues', async () => {
    const { result } = await runAgent(
      [reply(call('tools_weather')), textReply('could not get it')],
      {
        executeTool: async () => ({ content: '{"status":"error","error":"down"}', isError: true }),
      },
    );
    expect(result.answer).toBe('could not get it');
    expect(result.messages[2]?.parts[0]).toMatchObject({ isError: true });
  });

  it('fails with "more than 50 model turns" by default', async () => {
    const replies = Array.from({ length: 60 }, () => reply(call('tools_weather')));
    const { result, executed } = await runAgent(replies);
    expect(result.failure).toEqual({ reason: 'more than 50 model turns' });
    expect(executed).toHaveLength(50);
  });

  it('honours max_turns', async () => {
    const { result } = await runAgent([reply(call('a')), reply(call('b')), textReply('done')], {
      maxTurns: 2,
    });
    expect(result.failure).toEqual({ reason: 'more than 2 model turns' });
    expect(result.answer).toBeNull();
  });

  it('fails with the reason when a model turn or a tool execution rejects', async () => {
    const { result } = await runAgent([]);
    expect(result.failure?.reason).toBe('script exhausted');
    const failing = await runAgent([reply(call('a'))], {
      executeTool: async () => {
        throw new Error('gate closed');
      },
    });
    expect(failing.result.failure?.reason).toBe('gate closed');
  });

  it('continues an existing conversation', async () => {
    const earlier: Message[] = [
      task,
      { role: 'assistant', parts: [{ type: 'text', text: '4 °C' }] },
      task,
    ];
    const { machine } = scriptedAgent({
      modelTurn: async (input) => textReply(`saw ${input.messages.length} messages`),
    });
    const result = await toPromise(createActor(machine, { input: { messages: earlier } }).start());
    expect(result.answer).toBe('saw 3 messages');
  });
});

describe('agent context limits', () => {
  const fetches = (count: number): ModelTurnOutput[] =>
    Array.from({ length: count }, (_, index) => reply(call('fetch', { page: index + 1 })));

  it('prunes to prune_to turns before the request that would reach prune_on', async () => {
    const { result, sent, cuts } = await runAgent([...fetches(3), textReply('done')], {
      context: { pruning: { pruneOn: 3, pruneTo: 1 } },
    });
    // 1, 3, 5 messages; after the third reply the oldest two turns go: task + 1 turn.
    expect(sent).toEqual([1, 3, 5, 3]);
    expect(cuts).toMatchObject([{ kind: 'pruned', from: 5, turnsBefore: 3, turnsAfter: 1 }]);
    expect(result.answer).toBe('done');
    expect(result.messages[0]).toEqual(task);
  });

  it('compacts when a reply reports a prompt over token_limit, once per crossing', async () => {
    const usage = (input: number) => ({ ...emptyUsage(), input });
    const replies = fetches(3).map((turn, index) => ({ ...turn, usage: usage(index * 600) }));
    const { sent, cuts } = await runAgent([...replies, textReply('done')], {
      context: { compaction: { tokenLimit: 1000, turnRetention: 1 } },
    });
    expect(sent).toEqual([1, 3, 5, 3]);
    expect(cuts).toMatchObject([
      { kind: 'compacted', from: 5, turnsBefore: 3, turnsAfter: 1, inputTokens: 1200 },
    ]);
  });
});
