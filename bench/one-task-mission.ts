/**
 * The mission the serve and eval benchmarks run many times: one task `work` whose commander
 * plans and completes its subtask in one turn and finishes in the next, each answered by the
 * scripted model after a fixed delay; its one input is a number `n`.
 */
import { ScriptedModelServer } from '../src/testing/index.ts';
import { callsSoFar } from '../test/actors/resume/resume-fixture.ts';

/** The project's HCL: the model variables, the model and the mission (`extra` goes inside it). */
export function oneTaskProject(mission: string, extra: string): string {
  return `
variable "api_key" {
  secret = true
}
variable "base_url" {
}
model "main" {
  provider = "openai"
  api_key = vars.api_key
  base_url = vars.base_url
}
mission "${mission}" {
  commander {
    model = models.main.gpt_4o_mini
  }
${extra}
  inputs = {
    n = number("The run's number", true)
  }
  task "work" {
    objective = "Work on \${inputs.n}"
  }
}
`;
}

/** Two turns a run, each after `delayMs`: plan and finish the subtask, then complete the task. */
export function twoTurnModel(delayMs: number): Promise<ScriptedModelServer> {
  return ScriptedModelServer.start({
    respond: (request) => {
      const usage = { input: 100, output: 10 };
      if (request.actor !== 'commander:work') return undefined;
      return callsSoFar(request.body) === 0
        ? {
            toolCalls: [
              { name: 'set_subtasks', arguments: { subtasks: ['Work'] } },
              { name: 'complete_subtask', arguments: {} },
            ],
            usage,
            delayMs,
          }
        : {
            toolCalls: [{ name: 'task_complete', arguments: { summary: 'done' } }],
            usage,
            delayMs,
          };
    },
  });
}
