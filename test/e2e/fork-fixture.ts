/**
 * A one-task mission for the fork tests and the scripted server's answers to it: the commander
 * plans, asks the poet for a line on a subject, and completes with the poet's line; the poet
 * writes about the subject its task names. Every answer follows from the request, so a fork
 * (whose conversations were edited) gets answers that show the edit.
 */
import type { MissionEvent } from '../../src/base/events.ts';
import type { RespondRequest, ScriptTurn } from '../../src/testing/index.ts';
import { callsSoFar } from '../actors/resume/resume-fixture.ts';
import { call } from '../helpers/script-turns.ts';
import { modelPreamble } from '../helpers/model-preamble.ts';

/** The project (openai at `vars.base_url`). */
export const FORK_PROJECT = `
${modelPreamble()}agent "poet" {
  model       = models.main.gpt_4o_mini
  personality = "You write one line."
}
mission "poem" {
  commander {
    model = models.main.gpt_4o_mini
  }
  agents = [agents.poet]
  inputs = {
    subject = string("What the line is about", true)
  }
  task "write" {
    objective = "Get a line about \${inputs.subject}"
  }
}
`;

/** The subject a text names (`... line about SUBJECT`). */
function subjectOf(text: string): string {
  return /line about ([a-z]+)/.exec(text)?.[1] ?? 'nothing';
}

/** The scripted server's `respond`: the commander's next step, or the poet's line. */
export function respondToPoem(request: RespondRequest): ScriptTurn | undefined {
  const { actor, summary } = request;
  if (actor === 'agent:write/poet') {
    return {
      text: `A line about ${subjectOf(summary.lastMessage)}.`,
      usage: { input: 50, output: 8 },
    };
  }
  if (actor !== 'commander:write') return undefined;
  const line = /A line about [a-z]+\./.exec(summary.allText)?.[0] ?? 'no line';
  const steps = [
    call('set_subtasks', { subtasks: ['Ask the poet'] }),
    call('call_agent', { name: 'poet', task: `Write a line about ${subjectOf(summary.allText)}` }),
    call('complete_subtask', {}),
    call('task_complete', { summary: `The poet wrote: ${line}` }),
  ];
  return steps[callsSoFar(request.body)];
}

/** The seq of the first event `accepts` finds; throws when there is none. */
export function seqOf(
  events: readonly MissionEvent[],
  accepts: (event: MissionEvent) => boolean,
): number {
  const found = events.find(accepts);
  if (found === undefined) throw new Error('no such event in the journal');
  return found.seq;
}

/** The commander's reply that calls the poet. */
export const callsPoet = (event: MissionEvent): boolean =>
  event.type === 'model.response' &&
  event.actor === 'commander:write' &&
  event.message.parts.some((part) => part.type === 'tool_call' && part.name === 'call_agent');

/** The events without their run id (a fork's copies carry its own). */
export function withoutRunId(events: readonly MissionEvent[]): Array<Omit<MissionEvent, 'runId'>> {
  return events.map(({ runId: _runId, ...rest }) => rest);
}

/** The summary the mission's task ended with. */
export function taskSummary(events: readonly MissionEvent[]): string | undefined {
  const succeeded = events.find((event) => event.type === 'task.succeeded');
  return succeeded?.type === 'task.succeeded' ? succeeded.summary : undefined;
}

/** An editor for EDITOR: `node replace.mjs FROM TO FILE` replaces FROM by TO in FILE. */
export const REPLACE_SCRIPT = [
  "import { readFileSync, writeFileSync } from 'node:fs';",
  'const [from, to, file] = process.argv.slice(2);',
  "writeFileSync(file, readFileSync(file, 'utf8').replaceAll(from, to));",
].join('\n');
