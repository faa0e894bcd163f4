/**
 * The LLM judge of `expect "judge"`: a model of the project reads a rubric and what a run
 * produced (its status, and the summary and output of the task named, or of every task) and
 * answers with a score from 0 to 1 and a reason. The score passes at `threshold`; the judge's
 * tokens and cost are its own, reported apart from the run's.
 */
import type { Config } from '../../config/config-types.ts';
import { resolveModel } from '../../config/resolve-model.ts';
import { createModelClient, type ModelClientFactory } from '../../models/create-client.ts';
import { usageCost } from '../../models/cost.ts';
import { totalTokens } from '../../models/usage.ts';
import type { Expectation } from '../definition/eval-types.ts';
import type { RunFacts } from '../run-facts.ts';
import type { Judge } from './score-run.ts';
import type { JudgeScore } from './score-types.ts';

/** The actor id judge requests carry (`x-sortie-actor`, a mock-model file's key). */
export const JUDGE_ACTOR = 'judge';

const SYSTEM = [
  'You are an evaluator. Read the rubric and the result of a run of an AI mission, then grade',
  'the result against the rubric. Answer with one JSON object and nothing else:',
  '{"score": <a number from 0 to 1>, "reason": "<one or two sentences>"}',
].join('\n');

/**
 * A judge asking the project's models (or `clients`, e.g. a mock-model file's); the clients
 * the eval gives for a run (its cassette, recorder or mock model) come first.
 */
export function modelJudge(config: Config, clients?: ModelClientFactory): Judge {
  return async (expectation, facts, runClients) => {
    const model = resolveModel(config, expectation.model);
    const factory = runClients ?? clients;
    const client =
      factory === undefined
        ? createModelClient(model)
        : factory(model, { onRetry: () => undefined });
    const response = await client.generate({
      system: SYSTEM,
      messages: [
        { role: 'user', parts: [{ type: 'text', text: judgeMaterial(expectation, facts) }] },
      ],
      tools: [],
      actor: JUDGE_ACTOR,
    });
    const text = response.message.parts
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('');
    const tokens = totalTokens(response.usage);
    const costDollars = Number(usageCost(response.usage, model.pricing).pico) / 1e12;
    return verdictOf(text, expectation.threshold, { tokens, costDollars });
  };
}

/** What the judge reads: the rubric, then the run's status and its tasks' results. */
function judgeMaterial(
  expectation: Extract<Expectation, { kind: 'judge' }>,
  facts: RunFacts,
): string {
  const tasks = facts.summary.tasks.filter(
    (task) => expectation.task === undefined || task.name === expectation.task,
  );
  const results = tasks.map((task) =>
    [
      `## Task ${task.name}: ${task.status}`,
      ...(task.summary !== undefined ? [`Summary: ${task.summary}`] : []),
      ...(task.output !== undefined ? [`Output: ${JSON.stringify(task.output)}`] : []),
      ...(task.error !== undefined ? [`Error: ${task.error}`] : []),
    ].join('\n'),
  );
  return [
    '# Rubric',
    expectation.rubric,
    '',
    `# Result (the run ${facts.summary.status})`,
    ...results,
  ].join('\n');
}

/** The score and reason of the judge's answer; an answer without a score fails. */
export function verdictOf(
  text: string,
  threshold: number,
  spent: { tokens: number; costDollars: number },
): JudgeScore {
  const found = /\{[\s\S]*\}/.exec(text);
  let parsed: { score?: unknown; reason?: unknown } = {};
  try {
    parsed = found === null ? {} : (JSON.parse(found[0]) as typeof parsed);
  } catch {
    parsed = {};
  }
  const { score, reason } = parsed;
  if (typeof score !== 'number' || !Number.isFinite(score)) {
    const said = text.trim().slice(0, 120);
    return {
      passed: false,
      seen: `no score in the judge's answer: ${said}`,
      score: 0,
      reason: said,
      ...spent,
    };
  }
  const why = typeof reason === 'string' ? reason : '';
  return {
    passed: score >= threshold,
    seen: `score ${score}${why === '' ? '' : `: ${why}`}`,
    score,
    reason: why,
    ...spent,
  };
}
