/** Scorers of how a run went: the tools an agent called, and bounds on its figures. */
import { isDeepStrictEqual } from 'node:util';
import type { BoundMetric, Expectation, ExpectedCall } from '../definition/eval-types.ts';
import type { AgentCall, RunFacts } from '../run-facts.ts';
import type { Score } from './score-types.ts';

/** Whether the agent's calls hold the expected ones in order (others may come between). */
export function scoreTools(
  expectation: Extract<Expectation, { kind: 'tools' }>,
  facts: RunFacts,
): Score {
  const calls = facts.agentCalls.filter(
    (call) =>
      call.agent === expectation.agent &&
      (expectation.task === undefined || call.task === expectation.task),
  );
  let next = 0;
  for (const call of calls) {
    const wanted = expectation.calls[next];
    if (wanted !== undefined && callFits(call, wanted)) next += 1;
  }
  const seen = calls.length === 0 ? 'no calls' : calls.map((call) => call.tool).join(' → ');
  return { passed: next === expectation.calls.length, seen };
}

/** The same tool, and every expected argument equal to the one sent. */
function callFits(call: AgentCall, wanted: ExpectedCall): boolean {
  if (call.tool !== wanted.tool) return false;
  if (wanted.arguments === undefined) return true;
  let sent: unknown;
  try {
    sent = JSON.parse(call.arguments);
  } catch {
    return false;
  }
  if (typeof sent !== 'object' || sent === null) return false;
  const record = sent as Record<string, unknown>;
  return Object.entries(wanted.arguments).every(([key, value]) =>
    isDeepStrictEqual(record[key], value),
  );
}

/** The figure a bound is on, as a number. */
export function metricOf(metric: BoundMetric, facts: RunFacts): number {
  switch (metric) {
    case 'cost':
      return facts.costDollars;
    case 'tokens':
      return facts.summary.tokens;
    case 'requests':
      return facts.summary.turns;
    case 'commander_turns':
      return facts.commanderTurns;
    case 'rejected_tool_calls':
      return facts.rejectedToolCalls;
    case 'duration_seconds':
      return facts.summary.durationMs / 1000;
  }
}

/** Whether a figure stays within its bound. */
export function scoreBound(
  expectation: Extract<Expectation, { kind: 'max' }>,
  facts: RunFacts,
): Score {
  const value = metricOf(expectation.metric, facts);
  return { passed: value <= expectation.limit, seen: String(value) };
}
