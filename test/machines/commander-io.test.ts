/**
 * The commander's I/O as named actors: model turns, gate holds and external tool calls are
 * children xstate sees (`inspect`), tests swap them with `.provide`, and leaving the state that
 * waits for one (the commander stopped, failed or done) aborts it.
 */
import {
  createActor,
  fromPromise,
  toPromise,
  type AnyActorRef,
  type InspectionEvent,
} from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { commanderMachine } from '../../src/machines/commander.machine.ts';
import type { CommanderEnvironment } from '../../src/machines/commander-io.ts';
import { EXTERNAL_TOOLS, INTERNAL_TOOL_NAMES } from '../../src/machines/commander-context.ts';
import { commanderTools } from '../../src/tools/commander/index.ts';
import type { Message } from '../../src/models/model-types.ts';
import type { ModelTurnOutput } from '../../src/machines/turn-types.ts';
import { call, plainTask, reply, scriptedEnvironment } from './commander-harness.ts';

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

/** A plan, then two `call_agent` calls in one reply: to `slow`, then to `other`. */
function planThenBatch(other: string): CommanderEnvironment['modelTurn'] {
  return async (input) =>
    input.turn === 1
      ? reply(call('set_subtasks', { subtasks: ['A'] }))
      : reply(
          call('call_agent', { name: 'slow', task: 'wait' }),
          call('call_agent', { name: other, task: 'answer' }),
        );
}

/** Plans, delegates once, completes its subtask and the task: four model turns. */
const fourTurns: ModelTurnOutput[] = [
  reply(call('set_subtasks', { subtasks: ['A'] })),
  reply(call('call_agent', { name: 'researcher', task: 'look' })),
  reply(call('complete_subtask')),
  reply(call('task_complete', { summary: 'done' })),
];

describe('the commander I/O actors', () => {
  it('runs every model turn, gate hold and tool call as a child actor that inspect sees', async () => {
    const script = [...fourTurns];
    const environment = scriptedEnvironment({
      modelTurn: async () => script.shift() ?? reply(),
    });
    const started: string[] = [];
    const actor = createActor(commanderMachine, {
      id: 'commander',
      input: { task: plainTask, messages: [task], environment },
      inspect: (inspection: InspectionEvent) => {
        if (inspection.type !== '@xstate.actor') return;
        const ref = inspection.actorRef as AnyActorRef;
        started.push(`${ref._parent?.id ?? 'root'}/${ref.id}`);
      },
    });
    actor.start();
    const result = await toPromise(actor);
    expect(result.completion?.outcome).toBe('succeeded');
    expect(started.map((id) => id.replace(/\/0\.[\w.:-]+$/, '/gate'))).toEqual([
      'root/commander',
      'commander/modelTurn',
      'commander/gate',
      'commander/modelTurn',
      'commander/tool:2:0',
      'commander/modelTurn',
      'commander/gate',
      'commander/modelTurn',
      'commander/gate',
    ]);
  });

  it('stops each tool call child once its result is in: none is left at the next turn', async () => {
    const script = [...fourTurns];
    const childrenAtTurn: string[][] = [];
    const environment = scriptedEnvironment({
      modelTurn: async () => {
        childrenAtTurn.push(Object.keys(actor.getSnapshot().children));
        return script.shift() ?? reply();
      },
    });
    const actor = createActor(commanderMachine, {
      input: { task: plainTask, messages: [task], environment },
    });
    const result = await toPromise(actor.start());
    expect(result.completion?.outcome).toBe('succeeded');
    expect(childrenAtTurn).toEqual([['modelTurn'], ['modelTurn'], ['modelTurn'], ['modelTurn']]);
  });

  it('takes its model turns from a provided modelTurn actor', async () => {
    const script = [...fourTurns];
    const machine = commanderMachine.provide({
      actors: { modelTurn: fromPromise(async () => script.shift() ?? reply()) },
    });
    const actor = createActor(machine, {
      input: {
        task: plainTask,
        messages: [task],
        environment: scriptedEnvironment({
          modelTurn: async () => {
            throw new Error('the environment is not asked when the actor is provided');
          },
        }),
      },
    });
    const result = await toPromise(actor.start());
    expect(result.completion?.outcome).toBe('succeeded');
    expect(result.turns).toBe(4);
  });

  it('fails naming the actor when there is neither an environment nor a provided actor', async () => {
    const actor = createActor(commanderMachine, { input: { task: plainTask, messages: [task] } });
    const result = await toPromise(actor.start());
    expect(result.failure?.reason).toBe('the modelTurn actor was not provided');
  });

  it('aborts the other calls of a batch when one call fails, and the commander fails with its error', async () => {
    const signals: AbortSignal[] = [];
    const waiting = untilAborted(signals);
    const environment = scriptedEnvironment({
      modelTurn: planThenBatch('broken'),
      executeTool: async (input, signal) => {
        if (input.args.name === 'slow') return waiting(signal);
        throw new Error('agent infrastructure down');
      },
    });
    const actor = createActor(commanderMachine, {
      input: { task: plainTask, messages: [task], environment },
    }).start();
    const result = await toPromise(actor);
    expect(result.failure?.reason).toBe('agent infrastructure down');
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });

  it('aborts the running model turn when the commander is stopped', async () => {
    const signals: AbortSignal[] = [];
    const environment = scriptedEnvironment({
      modelTurn: (_input, signal) => untilAborted(signals)(signal),
    });
    const actor = createActor(commanderMachine, {
      input: { task: plainTask, messages: [task], environment },
    }).start();
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]?.aborted).toBe(false);
    actor.stop();
    expect(signals[0]?.aborted).toBe(true);
    expect(actor.getSnapshot().status).toBe('stopped');
  });
});

describe('the internal tools', () => {
  it('has a dispatching transition for every commander tool that is not external', () => {
    const widest = commanderTools({
      hasAgents: true,
      hasAskableAgents: true,
      hasAncestors: true,
      outputSchema: { type: 'object' },
      iterator: 'sequential',
      routes: [{ key: 'next', kind: 'task' }],
    });
    const internal = widest.map((tool) => tool.name).filter((name) => !EXTERNAL_TOOLS.has(name));
    const dispatching = commanderMachine.getStateNodeById('commander.runningTools.dispatching');
    const handled = Object.keys(dispatching.config.on ?? {});
    expect(internal.map((name) => `tool.${name}`).sort()).toEqual(handled.sort());
    expect([...INTERNAL_TOOL_NAMES].sort()).toEqual(internal.sort());
  });
});
