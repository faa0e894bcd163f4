/**
 * The agent machine's jobs (turn-worker.ts): its model turns and tool calls, and their
 * cancellation: a machine that stops, ends or fails aborts the jobs still running.
 */
import { createActor, toPromise } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { agentMachine, type AgentEnvironment } from '../../src/machines/agent.machine.ts';
import type { Message } from '../../src/models/model-types.ts';
import { call, reply } from './commander-harness.ts';

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

/** An agent environment whose model calls `tools_lookup` twice, then answers: three turns. */
function threeTurnAgent(): AgentEnvironment {
  let turns = 0;
  return {
    modelTurn: async () => {
      turns += 1;
      return turns < 3
        ? reply(call('tools_lookup'))
        : { message: { role: 'assistant', parts: [] }, stopReason: 'end' };
    },
    executeTool: async () => ({ content: 'ok', isError: false }),
    messageAppended: () => undefined,
    contextCut: () => undefined,
  };
}

describe('the turn worker', () => {
  it("aborts the agent's running tool when the agent is stopped, and reports nothing after", async () => {
    const signals: AbortSignal[] = [];
    const appended: Message[] = [];
    const environment: AgentEnvironment = {
      modelTurn: async () => reply(call('tools_wait')),
      executeTool: (_input, signal) => untilAborted(signals)(signal),
      messageAppended: ({ message }) => void appended.push(message),
      contextCut: () => undefined,
    };
    const actor = createActor(agentMachine, { input: { messages: [task], environment } }).start();
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    actor.stop();
    expect(signals[0]?.aborted).toBe(true);
    // Let the aborted tool's rejection arrive: the stopped agent takes no event.
    await new Promise((resolve) => setImmediate(resolve));
    expect(appended.map((message) => message.role)).toEqual(['assistant']);
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it("leaves the finished jobs' signal unaborted when the agent answers (nothing is left to cancel)", async () => {
    const signals: AbortSignal[] = [];
    let turns = 0;
    const environment: AgentEnvironment = {
      modelTurn: async (_input, signal) => {
        signals.push(signal);
        turns += 1;
        return turns < 2 ? reply(call('tools_lookup')) : reply();
      },
      executeTool: async (_input, signal) => {
        signals.push(signal);
        return { content: 'ok', isError: false };
      },
      messageAppended: () => undefined,
      contextCut: () => undefined,
    };
    const actor = createActor(agentMachine, { input: { messages: [task], environment } }).start();
    const result = await toPromise(actor);
    expect(result.turns).toBe(2);
    expect(actor.getSnapshot().status).toBe('done');
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false, false]);
  });

  it('starts a job once its machine has entered the state that waits for it', async () => {
    const seen: unknown[] = [];
    let turns = 0;
    const environment: AgentEnvironment = {
      // The job's synchronous part: what it finds is what a gate or subscriber it reaches finds.
      modelTurn: async () => {
        seen.push(actor.getSnapshot().value);
        turns += 1;
        return turns < 2
          ? reply(call('tools_lookup'))
          : { message: { role: 'assistant', parts: [] }, stopReason: 'end' };
      },
      executeTool: async () => {
        seen.push(actor.getSnapshot().value);
        return { content: 'ok', isError: false };
      },
      messageAppended: () => undefined,
      contextCut: () => undefined,
    };
    const actor = createActor(agentMachine, { input: { messages: [task], environment } });
    actor.start();
    await toPromise(actor);
    expect(seen).toEqual(['awaitingModel', 'runningTool', 'awaitingModel']);
  });

  it('runs the model turns and tool calls of one agent without any child actor', async () => {
    const environment = threeTurnAgent();
    const actor = createActor(agentMachine, { input: { messages: [task], environment } });
    const children = new Set<string>();
    actor.subscribe((snapshot) => {
      for (const id of Object.keys(snapshot.children)) children.add(id);
    });
    actor.start();
    const result = await toPromise(actor);
    expect(result.turns).toBe(3);
    expect([...children]).toEqual([]);
  });

  it('starts every job without an event through xstate: no other actor receives any', async () => {
    const environment = threeTurnAgent();
    const received: string[] = [];
    const actor = createActor(agentMachine, {
      input: { messages: [task], environment },
      inspect: (inspection) => {
        if (inspection.type === '@xstate.event' && inspection.actorRef !== actor)
          received.push(inspection.event.type);
      },
    });
    actor.start();
    const result = await toPromise(actor);
    expect(result.turns).toBe(3);
    // 5 jobs ran (3 turns, 2 calls), and no actor but the machine was built or sent anything.
    expect(received).toEqual([]);
  });
});
