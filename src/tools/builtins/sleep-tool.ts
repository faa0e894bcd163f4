import { sleep } from '../../base/sleep.ts';
import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool } from './agent-tool.ts';
import { errorOutcome, okOutcome } from './agent-tool.ts';

/** The longest sleep a model may ask for, in seconds. */
export const MAX_SLEEP_SECONDS = 300;

/** `builtins_utils_sleep {seconds}`: waits 0 < seconds ≤ 300, cut short by cancellation. */
export const sleepTool: AgentTool = {
  definition: defineTool({
    name: 'builtins_utils_sleep',
    description: 'Wait for a number of seconds (at most 300), e.g. before polling again.',
    parameters: objectSchema(['seconds'], {
      seconds: { type: 'number', exclusiveMinimum: 0, maximum: MAX_SLEEP_SECONDS },
    }),
  }),
  async execute(args, context) {
    const seconds = args.seconds as number;
    try {
      await sleep(seconds * 1000, context.signal);
    } catch {
      // The wait rejects only when the run's signal aborts.
      return errorOutcome(`sleep of ${seconds} s was interrupted`);
    }
    return okOutcome({ slept_seconds: seconds });
  },
};
