/**
 * The states a commander passes through, one per xstate microstep, for the overhead bench's
 * conversation (plan, delegate, complete the subtask, complete the task): every microstep costs
 * CPU per model request, so a state added to the loop shows here first.
 */
import { createActor, toPromise, type AnyMachineSnapshot, type InspectionEvent } from 'xstate';
import { describe, expect, it } from 'vitest';
import { commanderMachine } from '../../src/machines/commander.machine.ts';
import { call, plainTask, reply, scriptedEnvironment } from './commander-harness.ts';

const script = [
  reply(call('set_subtasks', { subtasks: ['Have the analyst look up'] })),
  reply(call('call_agent', { name: 'analyst', task: 'look up the figures' })),
  reply(call('complete_subtask')),
  reply(call('task_complete', { summary: 'the figures are looked up' })),
];

/** A snapshot's state value as one name: `runningTools.gating`. */
function stateName(value: unknown): string {
  if (typeof value === 'string') return value;
  return Object.entries(value as Record<string, unknown>)
    .map(([parent, child]) => `${parent}.${stateName(child)}`)
    .join(',');
}

describe('the commander loop', () => {
  it('takes one microstep per state below for a plan, a delegation and two completions', async () => {
    const turns = [...script];
    const steps: string[] = [];
    const actor = createActor(commanderMachine, {
      input: {
        task: plainTask,
        messages: [{ role: 'user', parts: [{ type: 'text', text: 'Look up the figures.' }] }],
        environment: scriptedEnvironment({
          modelTurn: async () => turns.shift() ?? Promise.reject(new Error('script exhausted')),
        }),
      },
      // The commander is the only machine here: every microstep is its own.
      inspect: (event: InspectionEvent) => {
        if (event.type === '@xstate.microstep')
          steps.push(stateName((event.snapshot as AnyMachineSnapshot).value));
      },
    });
    actor.start();
    const result = await toPromise(actor);
    expect(result.completion?.outcome).toBe('succeeded');
    const internalCall = [
      'runningTools.choosing',
      'runningTools.gating',
      'runningTools.dispatching',
      'runningTools.choosing',
      'betweenTurns',
    ];
    expect(steps).toEqual([
      'awaitingModel',
      ...internalCall,
      'awaitingModel',
      'runningTools.choosing',
      'runningTools.executing',
      'runningTools.choosing',
      'betweenTurns',
      'awaitingModel',
      ...internalCall,
      'awaitingModel',
      ...internalCall,
      'completed',
    ]);
  });
});
