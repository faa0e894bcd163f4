/**
 * What a finished run shows, read back from its journal: the figures `sortie show` reports
 * (status, tasks, outputs, cost, tokens, requests, duration) and the ones only an eval asks
 * for (commander turns, refused commander tool calls, the tools each agent called in order).
 */
import type { MissionEvent } from '../base/events.ts';
import { parseActorId } from '../base/events.ts';
import { readJournal } from '../journal/reader.ts';
import { runPaths } from '../journal/paths.ts';
import { summarizeRun, type RunSummary } from '../journal/summary.ts';

/** One tool call of an agent. */
export interface AgentCall {
  task: string;
  agent: string;
  tool: string;
  /** The arguments as the model sent them (JSON text, possibly malformed). */
  arguments: string;
}

/** A run's facts, which the scorers read. */
export interface RunFacts {
  runId: string;
  summary: RunSummary;
  costDollars: number;
  /** Model requests of commanders only. */
  commanderTurns: number;
  /** Commander tool calls the machines refused (an error result to the commander). */
  rejectedToolCalls: number;
  agentCalls: AgentCall[];
}

/** Reads the facts of a run from its journal in the state directory. */
export async function readRunFacts(stateDir: string, runId: string): Promise<RunFacts> {
  const { events } = await readJournal(runPaths(stateDir, runId).journal);
  return runFactsOf(runId, events);
}

/** The facts of a run from its events. */
export function runFactsOf(runId: string, events: readonly MissionEvent[]): RunFacts {
  const summary = summarizeRun(events);
  let commanderTurns = 0;
  let rejectedToolCalls = 0;
  const agentCalls: AgentCall[] = [];
  for (const event of events) {
    const actor = parseActorId(event.actor);
    if (actor === undefined) continue;
    if (event.type === 'model.request' && actor.kind === 'commander') commanderTurns += 1;
    if (event.type === 'tool.completed' && actor.kind === 'commander' && event.isError) {
      rejectedToolCalls += 1;
    }
    if (event.type === 'tool.called' && actor.kind === 'agent' && actor.agent !== null) {
      agentCalls.push({
        task: actor.name,
        agent: actor.agent,
        tool: event.tool,
        arguments: event.arguments,
      });
    }
  }
  return {
    runId,
    summary,
    costDollars: Number(summary.costPico) / 1e12,
    commanderTurns,
    rejectedToolCalls,
    agentCalls,
  };
}
