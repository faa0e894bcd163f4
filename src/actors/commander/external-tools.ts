/**
 * The commander's external tools (EXTERNAL_TOOLS): each call waits at the step gate, then runs
 * here; a large result is stored and summarised (commander-results.ts). Arguments were
 * validated by the commander machine against the tool's schema.
 */
import { SortieError } from '../../base/errors.ts';
import type { QuestionToolName } from '../contracts.ts';
import type { ExecuteToolInput } from '../../machines/commander-io.ts';
import type { ToolOutcome } from '../../machines/turn-types.ts';
import type { CommanderScope } from './commander-scope.ts';
import { commanderOutcome, isResultTool, runResultTool } from './commander-results.ts';
import { askAgent, callAgent } from './delegation-tools.ts';
import type { InvokedBy } from '../run-to-end.ts';
import {
  askCommander,
  getCommanderAnswer,
  listCommanderQuestions,
  queryTaskOutput,
} from './question-tools.ts';

/** The machine handed over a tool the wiring does not answer: a defect. */
export class UnhandledToolError extends SortieError {
  constructor(readonly tool: string) {
    super(`no handler for commander tool ${tool}`);
  }
}

/** Runs one external commander tool call; the agents and forks it runs are children of `by.parent`. */
export async function executeCommanderTool(
  scope: CommanderScope,
  input: ExecuteToolInput,
  by: InvokedBy,
): Promise<ToolOutcome> {
  const { signal } = by;
  const { gate, redact } = scope.runtime.services;
  await gate.before(
    {
      kind: 'tool',
      actor: scope.actorId,
      tool: input.call.name,
      detail: redact(input.call.arguments),
    },
    signal,
  );
  const outcome = await runExternalTool(scope, input, by);
  return commanderOutcome(scope, input.call.name, outcome);
}

function runExternalTool(
  scope: CommanderScope,
  input: ExecuteToolInput,
  by: InvokedBy,
): Promise<ToolOutcome> {
  const { name } = input.call;
  const { signal } = by;
  if (isResultTool(name)) return runResultTool(scope, name, input.args, signal);
  switch (name) {
    case 'call_agent':
      return callAgent(scope, input.args, by);
    case 'ask_agent':
      return askAgent(scope, input.args, signal);
    case 'query_task_output':
      return Promise.resolve(queryTaskOutput(scope, input.args));
    case 'ask_commander':
    case 'list_commander_questions':
    case 'get_commander_answer': {
      const remote = scope.runtime.services.remoteQuestions;
      // On a worker: the commanders asked and the question store are the run process's.
      if (remote !== undefined && scope.index !== null) {
        return remote(scope.task, { index: scope.index, tool: name, args: input.args }, signal);
      }
      return runQuestionTool(scope, name, input.args, by);
    }
    default:
      throw new UnhandledToolError(name);
  }
}

/** `ask_commander`, `list_commander_questions` or `get_commander_answer` in this process. */
export function runQuestionTool(
  scope: CommanderScope,
  tool: QuestionToolName,
  args: Record<string, unknown>,
  by: InvokedBy,
): Promise<ToolOutcome> {
  const { signal } = by;
  switch (tool) {
    case 'ask_commander':
      return askCommander(scope, args, by);
    case 'list_commander_questions':
      return Promise.resolve(listCommanderQuestions(scope, args));
    case 'get_commander_answer':
      return getCommanderAnswer(scope, args, signal);
  }
}
