/**
 * `query_task_output`, `ask_commander`, `list_commander_questions` and `get_commander_answer`:
 * a commander reading from its completed ancestors (tools.md, "Data from dependencies").
 */
import type { QueryTaskOutputArgs } from '../../runtime/query-task-output.ts';
import { isCompletedTask } from '../mission/mission-runtime.ts';
import { reasonOf } from '../../base/reason.ts';
import type { ForkAnswer } from './commander-forks.ts';
import type { InvokedBy } from '../run-to-end.ts';
import type { CommanderScope } from './commander-scope.ts';
import { askerName } from './commander-scope.ts';
import type { ToolOutcome } from '../../tools/builtins/agent-tool.ts';
import { errorReply, objectReply, okReply } from './tool-reply.ts';

/** The ancestor check every data tool starts with; undefined when `task` may be read. */
function ancestorError(scope: CommanderScope, task: string): string | undefined {
  if (!scope.ancestors.includes(task))
    return `task "${task}" is not a dependency of "${scope.task}"`;
  if (!isCompletedTask(scope.runtime, task)) return `task "${task}" has not completed`;
  return undefined;
}

/** `query_task_output` over the knowledge store, limited to completed ancestors. */
export function queryTaskOutput(scope: CommanderScope, args: Record<string, unknown>): ToolOutcome {
  const result = scope.runtime.services.knowledge.queryTaskOutput(
    args as unknown as QueryTaskOutputArgs,
    {
      caller: scope.task,
      isAncestor: (task) => scope.ancestors.includes(task),
      isCompleted: (task) => isCompletedTask(scope.runtime, task),
    },
  );
  return objectReply(result);
}

/** Which commander of the target answers: parallel items need `index`. */
function targetIndex(
  scope: CommanderScope,
  task: string,
  index: number | undefined,
): { ok: true; index: number | null } | { ok: false; error: string } {
  const iterator = scope.runtime.services.mission.tasks.get(task)?.iterator;
  if (iterator === undefined || !iterator.parallel) return { ok: true, index: null };
  const count = scope.runtime.services.knowledge.recordCount(task);
  if (index === undefined) {
    return {
      ok: false,
      error: `task "${task}" is iterated: pass index (0-${Math.max(count - 1, 0)})`,
    };
  }
  if (!scope.runtime.commanders.has(task, index)) {
    return {
      ok: false,
      error: `task "${task}" has no commander for index ${index}; it has ${count} items`,
    };
  }
  return { ok: true, index };
}

/** `ask_commander`: records the question, asks the target commander's fork, records the answer. */
export async function askCommander(
  scope: CommanderScope,
  args: Record<string, unknown>,
  by: InvokedBy,
): Promise<ToolOutcome> {
  const task = String(args.task_name);
  const question = String(args.question);
  const blocked = ancestorError(scope, task);
  if (blocked !== undefined) return errorReply(blocked);
  const target = targetIndex(scope, task, args.index as number | undefined);
  if (!target.ok) return errorReply(target.error);
  const record = scope.runtime.commanders.get(task, target.index);
  if (record === undefined) return errorReply(`task "${task}" has no commander to ask`);
  const { questions, bus } = scope.runtime.services;
  const iteration = target.index ?? (args.index as number | undefined) ?? null;
  const questionIndex = questions.ask(task, { question, iteration, askedBy: askerName(scope) });
  bus.emit({
    type: 'question.asked',
    actor: scope.actorId,
    task,
    iteration,
    questionIndex,
    question,
    askedBy: askerName(scope),
  });
  let reply: ForkAnswer;
  try {
    reply = await scope.runtime.forks.ask(record, question, scope.task, by);
  } catch (error) {
    // Aborted while queued behind another question: no answer will come.
    questions.fail(task, questionIndex, reasonOf(error));
    throw error;
  }
  if (!reply.ok) {
    questions.fail(task, questionIndex, reply.reason);
    return errorReply(`the commander of "${task}" could not answer: ${reply.reason}`);
  }
  questions.answer(task, questionIndex, reply.answer);
  bus.emit({
    type: 'question.answered',
    actor: record.actorId,
    task,
    iteration,
    questionIndex,
    answer: reply.answer,
  });
  return okReply({ task, index: iteration, question_index: questionIndex, answer: reply.answer });
}

/** `list_commander_questions`: every question to an ancestor task, its iterations included. */
export function listCommanderQuestions(
  scope: CommanderScope,
  args: Record<string, unknown>,
): ToolOutcome {
  const task = String(args.task_name);
  if (!scope.ancestors.includes(task)) return errorReply(ancestorError(scope, task) ?? '');
  return objectReply(scope.runtime.services.questions.list(task));
}

/** `get_commander_answer`: the answer, waiting for one still being produced. */
export async function getCommanderAnswer(
  scope: CommanderScope,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const task = String(args.task_name);
  if (!scope.ancestors.includes(task)) return errorReply(ancestorError(scope, task) ?? '');
  return objectReply(
    await scope.runtime.services.questions.getAnswer(task, Number(args.index), { signal }),
  );
}
