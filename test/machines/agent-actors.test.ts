/**
 * The agent machine's I/O as named actors: model turns, gate holds and tool calls are invoked
 * by the states that wait for them, seen by `inspect`, swapped by `provide`, and cancelled by
 * leaving their state or stopping the machine.
 */
import { createActor, toPromise, type AnyActorRef } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { agentMachine } from '../../src/machines/agent.machine.ts';
import type { Message } from '../../src/models/model-types.ts';
import { call, reply, textReply } from './commander-harness.ts';
import { repliesInOrder, scriptedAgent } from './agent-harness.ts';

const task: Message = { role: 'user', parts: [{ type: 'text', text: 'Do the task.' }] };

/** A job that runs until its signal aborts; `signals` collects each job's signal. */
function untilAborted(signals: AbortSignal[]): (signal: AbortSignal) => Promise<never> {
  return (signal) => {
    signals.push(signal);
    return new Promise((_, reject) => {
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  };
}

describe('the agent machine’s actors', () => {
  it('shows inspect every model turn, gate hold and tool call as an actor of its own', async () => {
    const first = call('tools_lookup', { page: 1 });
    const second = call('tools_lookup', { page: 2 });
    const { machine } = scriptedAgent({
      modelTurn: repliesInOrder([reply(first, second), textReply('done')]),
    });
    const started: string[] = [];
    const actor = createActor(machine, {
      input: { messages: [task] },
      inspect: (inspection) => {
        // The root agent is the one actor without a parent.
        const child = inspection.actorRef as AnyActorRef;
        if (inspection.type === '@xstate.actor' && child._parent !== undefined)
          started.push(String(child.src));
      },
    });
    actor.start();
    expect((await toPromise(actor)).answer).toBe('done');
    expect(started).toEqual([
      'modelTurn',
      'toolGate',
      'toolCall',
      'toolGate',
      'toolCall',
      'modelTurn',
    ]);
  });

  it('holds each call at the gate once, in call order, before its tool runs', async () => {
    const steps: string[] = [];
    const { machine } = scriptedAgent({
      modelTurn: repliesInOrder([reply(call('a'), call('b')), textReply('done')]),
      toolGate: async (held) => void steps.push(`gate ${held.name}`),
      toolCall: async (input) => {
        steps.push(`tool ${input.call.name}`);
        return { content: 'ok', isError: false };
      },
    });
    await toPromise(createActor(machine, { input: { messages: [task] } }).start());
    expect(steps).toEqual(['gate a', 'tool a', 'gate b', 'tool b']);
  });

  it('fails with the reason when a gate hold rejects, and runs no tool', async () => {
    const ran: string[] = [];
    const { machine } = scriptedAgent({
      modelTurn: repliesInOrder([reply(call('a'))]),
      toolGate: async () => {
        throw new Error('the held step was aborted');
      },
      toolCall: async (input) => {
        ran.push(input.call.name);
        return { content: 'ok', isError: false };
      },
    });
    const result = await toPromise(createActor(machine, { input: { messages: [task] } }).start());
    expect(result.failure?.reason).toBe('the held step was aborted');
    expect(ran).toEqual([]);
  });

  it("aborts the agent's running tool when the agent is stopped, and reports nothing after", async () => {
    const signals: AbortSignal[] = [];
    const { machine, reports } = scriptedAgent({
      modelTurn: async () => reply(call('tools_wait')),
      toolCall: (_input, signal) => untilAborted(signals)(signal),
    });
    const actor = createActor(machine, { input: { messages: [task] } }).start();
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    actor.stop();
    expect(signals[0]?.aborted).toBe(true);
    // Let the aborted tool's rejection arrive: the stopped agent takes no event.
    await new Promise((resolve) => setImmediate(resolve));
    expect(reports.appended.map((message) => message.role)).toEqual(['assistant']);
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('aborts the running model turn when the agent is stopped', async () => {
    const signals: AbortSignal[] = [];
    const { machine } = scriptedAgent({
      modelTurn: (_input, signal) => untilAborted(signals)(signal),
    });
    const actor = createActor(machine, { input: { messages: [task] } }).start();
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]?.aborted).toBe(false);
    actor.stop();
    expect(signals[0]?.aborted).toBe(true);
    expect(actor.getSnapshot().status).toBe('stopped');
  });

  it('fails with a clear reason when it runs without an environment or provided actors', async () => {
    const actor = createActor(agentMachine, { input: { messages: [task] } }).start();
    const result = await toPromise(actor);
    expect(result.failure?.reason).toBe('the modelTurn actor was not provided');
  });
});
