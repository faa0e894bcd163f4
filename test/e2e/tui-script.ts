/**
 * The scripted model turns of the TUI end-to-end tests (test/fixtures/e2e/tui): survey's
 * commander plans and calls the clock agent, which calls a built-in tool; report's commander
 * plans and completes.
 */
import type { ScriptTurn } from '../../src/testing/index.ts';

export const TOOL = 'builtins_utils_current_time';

/** A turn of `actor` calling one tool, with a usage that differs per turn. */
function call(
  actor: string,
  name: string,
  args: Record<string, unknown>,
  input: number,
): ScriptTurn {
  return {
    match: { actor },
    toolCalls: [{ name, arguments: args }],
    usage: { input, output: 37, cacheRead: 256 },
  };
}

export const SURVEY = 'commander:survey';
export const REPORT = 'commander:report';
export const CLOCK = 'agent:survey/clock';

export const TURNS: ScriptTurn[] = [
  call(SURVEY, 'set_subtasks', { subtasks: ['Ask the clock'] }, 1_204),
  call(SURVEY, 'call_agent', { name: 'clock', task: 'Tell the current time in UTC' }, 1_310),
  call(CLOCK, TOOL, { timezone: 'UTC' }, 811),
  { match: { actor: CLOCK }, text: 'The clock answered.', usage: { input: 902, output: 12 } },
  call(SURVEY, 'complete_subtask', {}, 1_433),
  call(SURVEY, 'task_complete', { summary: 'The clock answered.' }, 1_502),
  call(REPORT, 'set_subtasks', { subtasks: ['Report the time'] }, 1_120),
  call(REPORT, 'complete_subtask', {}, 1_187),
  call(REPORT, 'task_complete', { summary: 'Reported the time.' }, 1_250),
];
