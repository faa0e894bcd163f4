/** Scores every expectation of a case on one run: the eval's own, the case's, the program's. */
import type { MissionConfig } from '../../config/config-types.ts';
import type { ModelClientFactory } from '../../models/create-client.ts';
import type { Expectation, PlacedExpectation } from '../definition/eval-types.ts';
import type { RunFacts } from '../run-facts.ts';
import { scoreBound, scoreTools } from './run-scorers.ts';
import type { JudgeScore, Score } from './score-types.ts';
import { scoreTask } from './task-scorers.ts';

/** One expectation's verdict on one run. */
export interface ExpectationResult extends Score {
  label: string;
  /** A judge's verdict, reason and spending. */
  judge?: Omit<JudgeScore, 'passed' | 'seen'>;
}

/** A scorer written in TypeScript (`runEval`'s `scorers`): a name and a verdict on a run. */
export interface ScorerFunction {
  name: string;
  score(run: { facts: RunFacts; caseName: string; variant: string }): Score | Promise<Score>;
}

/**
 * Judges a run against a rubric (judge.ts); given by whoever runs the eval. `clients`, when
 * given, are the ones to ask: the eval's recorder, cassette or mock model for this run.
 */
export type Judge = (
  expectation: Extract<Expectation, { kind: 'judge' }>,
  facts: RunFacts,
  clients?: ModelClientFactory,
) => Promise<JudgeScore>;

/** What scoring needs besides the run. */
export interface ScoringContext {
  mission: MissionConfig;
  judge?: Judge;
  /** The model clients this run's judge asks (undefined: the judge's own). */
  judgeClients?: ModelClientFactory;
  scorers: readonly ScorerFunction[];
  caseName: string;
  variant: string;
}

/** Every verdict on a run, in the order the expectations are written. */
export async function scoreRun(
  expectations: readonly PlacedExpectation[],
  facts: RunFacts,
  context: ScoringContext,
): Promise<ExpectationResult[]> {
  const results: ExpectationResult[] = [];
  for (const { expectation, label } of expectations) {
    results.push({ label, ...(await scoreOne(expectation, facts, context)) });
  }
  for (const scorer of context.scorers) {
    const { passed, seen } = await scorer.score({
      facts,
      caseName: context.caseName,
      variant: context.variant,
    });
    results.push({ label: scorer.name, passed, seen });
  }
  return results;
}

async function scoreOne(
  expectation: Expectation,
  facts: RunFacts,
  context: ScoringContext,
): Promise<Omit<ExpectationResult, 'label'>> {
  switch (expectation.kind) {
    case 'tools':
      return scoreTools(expectation, facts);
    case 'max':
      return scoreBound(expectation, facts);
    case 'judge': {
      if (context.judge === undefined) return { passed: false, seen: 'no judge available' };
      const { passed, seen, ...judge } = await context.judge(
        expectation,
        facts,
        context.judgeClients,
      );
      return { passed, seen, judge };
    }
    default:
      return scoreTask(expectation, facts, context.mission);
  }
}
