/**
 * The signal watch in a real run (startRun, the scripted server behind the OpenAI SDK): a
 * commander that asks for its plan three times, turns six times without completing a subtask
 * and hands the greeter the same task twice raises a loop, a stall and a re-delegation, each
 * naming what it saw, and the run ends as it would without them. Every other mission the
 * engine tests run is checked for no signal at all by `runEngine`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HCL } from './breakpoint-projects.ts';
import { call, cleanUp, eventsOf, reply, runEngine } from './engine-harness.ts';

afterEach(cleanUp);

const COMMANDER = 'commander:greet';
const GREETER = 'agent:greet/greeter';

describe('signals in a run (scripted server)', () => {
  it('raises a loop, a stall and a re-delegation, each naming what it saw, and the run succeeds', async () => {
    const { result, events, server } = await runEngine({
      hcl: HCL,
      mission: 'hello',
      signals: true,
      turns: [
        call(COMMANDER, 'set_subtasks', { subtasks: ['Ask the greeter for a greeting'] }),
        ...[1, 2, 3].map(() => call(COMMANDER, 'get_subtasks')),
        call(COMMANDER, 'call_agent', { name: 'greeter', task: 'Write a greeting for world.' }),
        reply(GREETER, 'Hello, world!'),
        // The same task again, but for case and spacing.
        call(COMMANDER, 'call_agent', { name: 'greeter', task: 'write a greeting  for world. ' }),
        reply(GREETER, 'Hello again!'),
        call(COMMANDER, 'complete_subtask'),
        call(COMMANDER, 'task_complete', { summary: 'The greeter wrote: Hello!' }),
      ],
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    expect(
      eventsOf(events, 'signal.raised').map(({ actor, signal, count, message, tool }) => ({
        actor,
        signal,
        count,
        message,
        tool,
      })),
    ).toEqual([
      {
        actor: COMMANDER,
        signal: 'loop',
        count: 3,
        message: 'looping: get_subtasks called 3 times with the same arguments',
        tool: 'get_subtasks',
      },
      {
        actor: COMMANDER,
        signal: 'stall',
        count: 6,
        message: 'stalled: 6 model turns without completing a subtask',
        tool: undefined,
      },
      {
        actor: COMMANDER,
        signal: 'redelegation',
        count: 2,
        message: 're-delegating: the same task given to greeter 2 times',
        tool: 'call_agent',
      },
    ]);
  });
});
