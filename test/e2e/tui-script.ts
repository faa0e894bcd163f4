/**
 * The scripted model turns of the TUI end-to-end tests (test/fixtures/e2e/tui): survey's
 * commander plans and calls the clock agent, which calls a built-in tool; report's commander
 * plans and completes.
 */
import type { ScriptTurn } from '../../src/testing/index.ts';
import { call } from './engine-harness.ts';

export const TOOL = 'builtins_utils_current_time';

/** `turn` with a usage that differs per turn. */
function costing(turn: ScriptTurn, input: number): ScriptTurn {
  return { ...turn, usage: { input, output: 37, cacheRead: 256 } };
}

export const SURVEY = 'commander:survey';
export const REPORT = 'commander:report';
export const CLOCK = 'agent:survey/clock';

export const TURNS: ScriptTurn[] = [
  costing(call(SURVEY, 'set_subtasks', { subtasks: ['Ask the clock'] }), 1_204),
  costing(
    call(SURVEY, 'call_agent', { name: 'clock', task: 'Tell the current time in UTC' }),
    1_310,
  ),
  costing(call(CLOCK, TOOL, { timezone: 'UTC' }), 811),
  { match: { actor: CLOCK }, text: 'The clock answered.', usage: { input: 902, output: 12 } },
  costing(call(SURVEY, 'complete_subtask', {}), 1_433),
  costing(call(SURVEY, 'task_complete', { summary: 'The clock answered.' }), 1_502),
  costing(call(REPORT, 'set_subtasks', { subtasks: ['Report the time'] }), 1_120),
  costing(call(REPORT, 'complete_subtask', {}), 1_187),
  costing(call(REPORT, 'task_complete', { summary: 'Reported the time.' }), 1_250),
];
