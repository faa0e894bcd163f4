/** The shapes `summarizeRun` returns (what `sortie show` prints). */
import type { Usage } from '../models/model-types.ts';
import type { Outcome, SkipReason } from '../base/events.ts';

/** A run's state as the journal tells it. */
export type RunStatus = Outcome | 'running' | 'interrupted';

/** One item of an iterated task (its last attempt). */
export interface ItemSummary {
  index: number;
  itemId: string;
  status: 'running' | 'succeeded' | 'failed';
  attempts: number;
  output?: unknown;
  error?: string;
}

/** Spending of one task or one model. */
export interface Spending {
  turns: number;
  usage: Usage;
  tokens: number;
  /** Pico-dollars. */
  costPico: bigint;
  /** Some turn had no known price. */
  unpriced: boolean;
}

/** One task of the run. */
export interface TaskSummary extends Spending {
  mission: string;
  name: string;
  status: 'running' | 'succeeded' | 'failed' | 'cancelled' | 'skipped';
  iterated: boolean;
  summary?: string;
  output?: unknown;
  route?: string | null;
  error?: string;
  skipReason?: SkipReason;
  /** The task whose failure or skip caused this skip. */
  skipCause?: string;
  /** The time it ran in all the run's sessions (a resumed task's parts added up). */
  durationMs?: number;
  items: ItemSummary[];
}

/** One model's spending (`config.key`). */
export interface ModelSpending extends Spending {
  model: string;
  provider: string;
  apiName: string;
}

/** One mission of the run (the first, then chained ones). */
export interface MissionSummary {
  name: string;
  status: 'running' | Outcome;
  chainedFrom: string | null;
  durationMs?: number;
  error?: string;
}

/** Everything `sortie show` prints. */
export interface RunSummary extends Spending {
  runId: string;
  mission: string;
  status: RunStatus;
  /** ISO time of the first event ('' for an empty journal). */
  startedAt: string;
  /** The time its sessions ran (a crashed one up to its last event), not the pauses between. */
  durationMs: number;
  /** The run was resumed from its journal at least once (a fork's own start is not a resume). */
  resumed: boolean;
  /** The run is a fork of this run, at this event (`sortie fork`); null otherwise. */
  forkedFrom: { runId: string; seq: number } | null;
  missions: MissionSummary[];
  tasks: TaskSummary[];
  models: ModelSpending[];
  /** Limits the person raised while the run went on (`budget.raised`), in order. */
  budgetRaises: string[];
  /** Failures in order: missions, tasks, items (final attempts), budget breaches. */
  errors: string[];
  warnings: string[];
  /** Where the run can be forked (`sortie fork --at SEQ`), per actor in order of appearance. */
  forkPoints: ActorForkPoints[];
}

/** One actor's fork points: the seqs of its mission starts, model replies and tool results. */
export interface ActorForkPoints {
  actor: string;
  starts: number[];
  replies: number[];
  results: number[];
}
