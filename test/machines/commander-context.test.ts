import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { commanderMachine } from '../../src/machines/commander.machine.ts';
import { toolsOf } from '../../src/machines/commander-context.ts';
import { commanderTools } from '../../src/tools/commander/index.ts';
import { plainTask } from './commander-harness.ts';

describe('commander context', () => {
  it('has at most 19 fields, so that xstate assign copies stay fast objects in V8', () => {
    const actor = createActor(commanderMachine, {
      input: {
        task: plainTask,
        messages: [{ role: 'user', parts: [{ type: 'text', text: 'go' }] }],
      },
    });
    const keys = Object.keys(actor.getSnapshot().context);
    expect(keys.length).toBeLessThanOrEqual(19);
    expect(keys).not.toContain('tools');
  });

  it("derives the tools from the task's shape: the very list commanderTools builds", () => {
    const actor = createActor(commanderMachine, {
      input: {
        task: plainTask,
        messages: [{ role: 'user', parts: [{ type: 'text', text: 'go' }] }],
      },
    });
    expect(toolsOf(actor.getSnapshot().context)).toBe(commanderTools(plainTask));
  });
});
