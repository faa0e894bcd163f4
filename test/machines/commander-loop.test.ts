import { createActor, toPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { commanderMachine } from '../../src/machines/commander.machine.ts';
import { BE_SHORTER_TEXT, NUDGE_TEXT } from '../../src/machines/commander-answering.ts';
import {
  call,
  plainTask,
  reply,
  resultsAfterTurn,
  runCommander,
  scriptedEnvironment,
  textReply,
} from './commander-harness.ts';

const plan = call('set_subtasks', { subtasks: ['A'] });

describe('commander loop', () => {
  it('nudges a reply without tool calls and resets after a tool call', async () => {
    const run = await runCommander([
      textReply('thinking'),
      reply(plan),
      textReply('still thinking'),
      textReply('hmm'),
      reply(call('complete_subtask'), call('task_complete', { summary: 'done' })),
    ]);
    const nudges = run.result.messages.filter(
      (message) =>
        message.role === 'user' &&
        message.parts.some((part) => part.type === 'text' && part.text === NUDGE_TEXT),
    );
    expect(nudges).toHaveLength(3);
    expect(run.result.messages[2]).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: NUDGE_TEXT }],
    });
    expect(run.result.completion?.outcome).toBe('succeeded');
  });

  it('fails with "commander stopped calling tools" after 2 nudges in a row', async () => {
    const run = await runCommander([textReply('a'), textReply('b'), textReply('c'), reply(plan)]);
    expect(run.result.failure).toEqual({ reason: 'commander stopped calling tools' });
    expect(run.turns).toHaveLength(3);
  });

  it('answers the calls of a reply cut off by the output limit without running them', async () => {
    const run = await runCommander([
      textReply('long', 'max_tokens', [
        plan,
        call('call_agent', { name: 'researcher', task: 'x' }),
      ]),
      reply(plan),
    ]);
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      { status: 'error', error: 'not executed: your reply hit the output token limit' },
      { status: 'error', error: 'not executed: your reply hit the output token limit' },
    ]);
    expect(run.result.messages[2]?.parts.at(-1)).toEqual({ type: 'text', text: BE_SHORTER_TEXT });
    expect(run.executed).toEqual([]);
    expect(run.contexts[1]?.plan).toBeNull();
    expect(run.contexts[2]?.plan).not.toBeNull();
  });

  it('fails after 3 replies in a row hit the output limit, every call still answered', async () => {
    const cut = () => textReply('long', 'max_tokens', [call('get_subtasks')]);
    const run = await runCommander([cut(), cut(), cut(), reply(plan)]);
    expect(run.result.failure).toEqual({
      reason: "the model's replies hit the output token limit 3 times in a row",
    });
    expect(run.turns).toHaveLength(3);
    expect(resultsAfterTurn(run.result.messages, 3)).toHaveLength(1);
  });

  it('counts output-limit hits only in a row', async () => {
    const cut = () => textReply('long', 'max_tokens');
    const run = await runCommander([
      cut(),
      cut(),
      reply(plan),
      cut(),
      cut(),
      reply(call('complete_subtask'), call('task_complete', { summary: 's' })),
    ]);
    expect(run.result.completion?.outcome).toBe('succeeded');
  });

  it('fails after the turn cap, saying so', async () => {
    const run = await runCommander(
      [reply(plan), reply(call('get_subtasks')), reply(call('get_subtasks'))],
      {
        maxTurns: 2,
      },
    );
    expect(run.result.failure).toEqual({ reason: 'more than 2 model turns' });
    expect(run.turns.map((turn) => turn.turn)).toEqual([1, 2]);
    expect(run.turns[0]?.tools?.map((tool) => tool.name)).toEqual([
      'set_subtasks',
      'get_subtasks',
      'complete_subtask',
      'call_agent',
      'ask_agent',
      'task_complete',
    ]);
  });

  it('defaults the turn cap to 200', async () => {
    const replies = Array.from({ length: 201 }, () => reply(call('get_subtasks')));
    const run = await runCommander(replies);
    expect(run.result.failure?.reason).toBe('more than 200 model turns');
    expect(run.turns).toHaveLength(200);
  });

  it('fails with the reason when the model turn rejects, keeping the error', async () => {
    const error = new Error('provider unavailable');
    const environment = scriptedEnvironment({
      modelTurn: async () => {
        throw error;
      },
    });
    const result = await toPromise(
      createActor(commanderMachine, {
        input: { task: plainTask, messages: [], environment },
      }).start(),
    );
    expect(result.failure).toEqual({ reason: 'provider unavailable', error });
  });

  it('reports effects through the provided emit actions', async () => {
    const effects: string[] = [];
    const environment = scriptedEnvironment({
      modelTurn: async (input) =>
        input.turn === 1
          ? reply(plan, call('complete_subtask'))
          : reply(call('task_complete', { summary: 's' })),
    });
    const machine = commanderMachine.provide({
      actions: {
        emitPlanUpdated: (_, params) =>
          effects.push(`plan ${params.plan?.map((subtask) => subtask.status).join(',')}`),
        emitToolCalled: (_, params) => effects.push(`called ${params.call.name}`),
        emitToolCompleted: (_, params) =>
          effects.push(`completed ${params.result.name} ${String(params.result.isError)}`),
        emitMessageAppended: (_, params) => effects.push(`message ${params.message.role}`),
      },
    });
    const input = { task: plainTask, messages: [], environment };
    const result = await toPromise(createActor(machine, { input }).start());
    expect(result.completion?.outcome).toBe('succeeded');
    expect(effects).toEqual([
      'message assistant',
      'called set_subtasks',
      'plan in_progress',
      'completed set_subtasks false',
      'called complete_subtask',
      'plan completed',
      'completed complete_subtask false',
      'message user',
      'message assistant',
      'called task_complete',
      'completed task_complete false',
      'message user',
    ]);
  });

  it('holds an internal call at the step gate until the gate lets it through', async () => {
    const seen: string[] = [];
    const run = await runCommander([reply(plan, call('get_subtasks'))], {
      toolGate: async ({ call: gated }) => {
        seen.push(`held ${gated.name}`);
        await Promise.resolve();
        await Promise.resolve();
        seen.push(`released ${gated.name}`);
      },
      actions: { emitPlanUpdated: () => seen.push('plan updated') },
    });
    expect(seen).toEqual([
      'held set_subtasks',
      'released set_subtasks',
      'plan updated',
      'held get_subtasks',
      'released get_subtasks',
    ]);
    expect(run.result.plan).toHaveLength(1);
  });

  it('holds every internal call at the step gate, one after another', async () => {
    const gated: string[] = [];
    await runCommander([reply(plan, call('get_subtasks'))], {
      toolGate: async ({ call: held }) => {
        gated.push(held.name);
      },
    });
    expect(gated).toEqual(['set_subtasks', 'get_subtasks']);
  });

  it('fails the commander when the gate rejects, still answering every call', async () => {
    const run = await runCommander([reply(plan, call('get_subtasks'))], {
      toolGate: async () => {
        throw new Error('run cancelled');
      },
    });
    expect(run.result.failure?.reason).toBe('run cancelled');
    expect(run.result.plan).toBeNull();
    expect(resultsAfterTurn(run.result.messages, 1)).toEqual([
      { status: 'error', error: 'not executed: run cancelled' },
      { status: 'error', error: 'not executed: run cancelled' },
    ]);
  });
});
