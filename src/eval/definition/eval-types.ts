/**
 * The typed form of `eval` blocks (the `.evals/` folder of a project, docs/eval.md): which
 * mission, its cases, its variants and what each run is expected to show.
 */
import type { ModelRef } from '../../config/config-types.ts';
import type { TemplateExpr } from '../../config/ast.ts';
import type { Span } from '../../base/span.ts';

/** A bound on one figure of a run (`expect "max" { … }`). */
export type BoundMetric =
  'cost' | 'tokens' | 'requests' | 'commander_turns' | 'rejected_tool_calls' | 'duration_seconds';

/** How a text or a value is compared. */
export type Comparison =
  | { kind: 'equals'; value: unknown }
  | { kind: 'contains'; value: string }
  | { kind: 'matches'; pattern: string }
  | { kind: 'near'; value: number; tolerance: number };

/** One tool call an agent is expected to make, in order (arguments: a subset that must match). */
export interface ExpectedCall {
  tool: string;
  arguments?: Record<string, unknown>;
}

/** What one run is expected to show. `task` undefined: the run as a whole (or its first task). */
export type Expectation =
  | { kind: 'status'; status: 'succeeded' | 'failed'; task?: string }
  | { kind: 'output_valid'; task: string }
  | { kind: 'output'; task: string; field?: string; comparison: Comparison }
  | { kind: 'summary'; task: string; comparison: Comparison }
  | { kind: 'route'; task: string; route: string | null }
  | { kind: 'tools'; agent: string; task?: string; calls: ExpectedCall[] }
  | { kind: 'max'; metric: BoundMetric; limit: number }
  | { kind: 'judge'; task?: string; model: ModelRef; rubric: string; threshold: number };

/** An expectation with where it was written and how the report names it. */
export interface PlacedExpectation {
  expectation: Expectation;
  /** One line naming it in reports: `output "greeting" contains "Ada"`. */
  label: string;
  span: Span;
}

/** One case: the mission's inputs and what its runs must show beyond the eval's own. */
export interface EvalCase {
  name: string;
  /** Converted and checked against the mission's inputs; file inputs as `{ path }`. */
  inputs: Record<string, unknown>;
  expectations: PlacedExpectation[];
  /** The share of runs (0–1) that must pass; the eval's when not given. */
  passRate: number;
  span: Span;
}

/** One variant: what it changes in the project before every run. */
export interface EvalVariant {
  name: string;
  /** Replaces every mission's commander model. */
  commanderModel?: ModelRef;
  /** Replaces every agent's model (before `agentModels`). */
  agentsModel?: ModelRef;
  /** Replaces the named agents' models. */
  agentModels: Map<string, ModelRef>;
  /** Variable values (`--var`), applied before the project is loaded for the variant. */
  vars: Record<string, string>;
  /** Replaces tasks' objectives (templates, as `objective` is). */
  objectives: Map<string, TemplateExpr>;
  /** Replaces agents' personalities. */
  personalities: Map<string, string>;
  span: Span;
}

/** One `eval "NAME"` block. */
export interface EvalDefinition {
  name: string;
  mission: string;
  repeat: number;
  concurrency: number;
  cases: EvalCase[];
  /** At least one: an eval without `variant` blocks runs the project as it is (`baseline`). */
  variants: EvalVariant[];
  /** Checked on every run of every case. */
  expectations: PlacedExpectation[];
  /** The file it is written in, relative to the project root. */
  file: string;
  span: Span;
}
