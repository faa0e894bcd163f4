/**
 * The commander's external tools (EXTERNAL_TOOLS): each call waits at the step gate, then runs
 * here; a large result is stored and summarised (commander-results.ts). Arguments were
 * validated by the commander machine against the tool's schema.
 */
import { SortieError } from '../../base/errors.ts';
import type { ExecuteToolInput } from '../../machines/commander-context.ts';
import type { ToolOutcome } from '../../machines/turn-types.ts';
import type { CommanderScope } from './commander-scope.ts';
import { commanderOutcome, isResultTool, runResultTool } from './commander-results.ts';
import { askAgent, callAgent } from './delegation-tools.ts';
import type { ToolReply } from './tool-reply.ts';
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

/** Runs one external commander tool call. */
export async function executeCommanderTool(
  scope: CommanderScope,
  input: ExecuteToolInput,
  signal: AbortSignal,
): Promise<ToolOutcome> {
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
  const outcome = await runExternalTool(scope, input, signal);
  return commanderOutcome(scope, input.call.name, outcome);
}

function runExternalTool(
  scope: CommanderScope,
  input: ExecuteToolInput,
  signal: AbortSignal,
): Promise<ToolReply> {
  const { name } = input.call;
  if (isResultTool(name)) return runResultTool(scope, name, input.args, signal);
  switch (name) {
    case 'call_agent':
      return callAgent(scope, input.args, signal);
    case 'ask_agent':
      return askAgent(scope, input.args, signal);
    case 'query_task_output':
      return Promise.resolve(queryTaskOutput(scope, input.args));
    case 'ask_commander':
      return askCommander(scope, input.args, signal);
    case 'list_commander_questions':
      return Promise.resolve(listCommanderQuestions(scope, input.args));
    case 'get_commander_answer':
      return getCommanderAnswer(scope, input.args, signal);
    default:
      throw new UnhandledToolError(name);
  }
}
