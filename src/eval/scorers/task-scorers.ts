/**
 * Scorers of what a run's tasks ended with: status, output (valid against the task's schema,
 * or one field compared), summary and route.
 */
import type { MissionConfig } from '../../config/config-types.ts';
import type { TaskSummary } from '../../journal/summary.ts';
import { formatProblem, validate } from '../../schema/index.ts';
import type { Expectation } from '../definition/eval-types.ts';
import type { RunFacts } from '../run-facts.ts';
import { compareValue, fieldOf } from './compare-value.ts';
import { seenText, type Score } from './score-types.ts';

type TaskExpectation = Extract<
  Expectation,
  { kind: 'status' | 'output_valid' | 'output' | 'summary' | 'route' }
>;

/** Scores an expectation about a task (or the run's status). */
export function scoreTask(
  expectation: TaskExpectation,
  facts: RunFacts,
  mission: MissionConfig,
): Score {
  if (expectation.kind === 'status' && expectation.task === undefined) {
    const { status, errors } = facts.summary;
    const why = errors[0] === undefined ? '' : `: ${errors[0]}`;
    return { passed: status === expectation.status, seen: `${status}${why}` };
  }
  const name = expectation.task as string;
  const task = facts.summary.tasks.find((candidate) => candidate.name === name);
  if (task === undefined) return { passed: false, seen: `task ${name} did not run` };
  const notSucceeded = (): Score => ({
    passed: false,
    seen: `${task.status}${task.error === undefined ? '' : `: ${task.error}`}`,
  });
  switch (expectation.kind) {
    case 'status':
      return { passed: task.status === expectation.status, seen: notSucceeded().seen };
    case 'output_valid':
      return task.status === 'succeeded' ? outputValid(task, mission) : notSucceeded();
    case 'output':
      if (task.status !== 'succeeded') return notSucceeded();
      return compareValue(fieldOf(outputOf(task), expectation.field), expectation.comparison);
    case 'summary':
      if (task.status !== 'succeeded') return notSucceeded();
      return compareValue(task.summary ?? '', expectation.comparison);
    case 'route':
      if (task.status !== 'succeeded') return notSucceeded();
      return {
        passed: (task.route ?? null) === expectation.route,
        seen: task.route ?? 'none',
      };
  }
}

/** A task's output: its own, or its items' outputs in order for an iterated task. */
function outputOf(task: TaskSummary): unknown {
  return task.iterated ? task.items.map((item) => item.output) : task.output;
}

function outputValid(task: TaskSummary, mission: MissionConfig): Score {
  const schema = mission.tasks.get(task.name)?.output?.jsonSchema;
  if (schema === undefined) return { passed: true, seen: 'the task has no output schema' };
  const outputs = task.iterated ? task.items.map((item) => item.output) : [task.output];
  for (const output of outputs) {
    const { problems } = validate(schema, output);
    const [first] = problems;
    if (first !== undefined) return { passed: false, seen: formatProblem(first) };
  }
  return { passed: true, seen: seenText(outputOf(task)) };
}
