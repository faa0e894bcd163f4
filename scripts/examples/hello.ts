/** The hello example's script: the commander plans, asks the greeter, completes and finishes. */
import type { ExampleScript } from '../record-cassette.ts';

const COMMANDER = 'commander:greet';
const GREETER = 'agent:greet/greeter';
const GREETING = 'Hello, world! It is good to have you here; may your day be bright and easy.';

/** examples/hello, run with its default input (name = world). */
export const helloExample: ExampleScript = {
  name: 'hello',
  mission: 'hello',
  inputs: {},
  keyVariables: ['openai_api_key'],
  turns: [
    {
      match: { actor: COMMANDER },
      toolCalls: [
        { name: 'set_subtasks', arguments: { subtasks: ['Ask the greeter for a greeting'] } },
      ],
      usage: { input: 1180, output: 24 },
    },
    {
      match: { actor: COMMANDER },
      toolCalls: [
        {
          name: 'call_agent',
          arguments: { name: 'greeter', task: 'Write a short, warm greeting for world.' },
        },
      ],
      usage: { input: 1230, output: 31, cacheRead: 1024 },
    },
    { match: { actor: GREETER }, text: GREETING, usage: { input: 96, output: 21 } },
    {
      match: { actor: COMMANDER },
      toolCalls: [{ name: 'complete_subtask', arguments: {} }],
      usage: { input: 300, output: 12, cacheRead: 1024 },
    },
    {
      match: { actor: COMMANDER },
      toolCalls: [
        { name: 'task_complete', arguments: { summary: `The greeter wrote: ${GREETING}` } },
      ],
      usage: { input: 340, output: 38, cacheRead: 1024 },
    },
  ],
};
