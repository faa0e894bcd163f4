/** `sortie verify`'s part for the evals of a project (its `.evals/` folder, docs/eval.md). */
import type { Config } from '../config/config-types.ts';
import { analyzeEvals } from '../eval/definition/load-evals.ts';
import { useColor, type CliIo } from './io.ts';
import { plural } from './verify-summary.ts';

/** What checking the evals found: their count and problems (printed already). */
export interface EvalCheck {
  errors: number;
  warnings: number;
  /** `, 2 evals` for the summary line; empty for a project without evals. */
  summary: string;
}

/** Checks the project's evals, printing their diagnostics. */
export async function verifyEvals(config: Config, io: CliIo): Promise<EvalCheck> {
  const analysis = await analyzeEvals(config);
  if (analysis.diagnostics.length > 0) {
    const { printDiagnostics } = await import('./print-diagnostics.ts');
    printDiagnostics(analysis.diagnostics, analysis.sources, io.stdout, useColor(io, 'stdout'));
  }
  const errors = analysis.diagnostics.filter((item) => item.severity === 'error').length;
  return {
    errors,
    warnings: analysis.diagnostics.length - errors,
    summary: analysis.found ? `, ${plural(analysis.evals.length, 'eval')}` : '',
  };
}
