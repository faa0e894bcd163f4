import { collect } from './collect-flag.ts';
import type { RegisterCommand } from './commands.ts';
import { ExitCode } from '../base/exit-codes.ts';
import { useColor, type CliIo } from './io.ts';
import { plural, summarize } from './verify-summary.ts';

/** `sortie verify [DIR]`: load and validate everything, print diagnostics and a summary. */
export const registerVerify: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('verify')
    .description(
      'load and validate a project: print every problem and a summary; exit 0, or 2 on errors',
    )
    .argument('[DIR]', 'project directory or .hcl file', '.')
    .option('--var <NAME=VALUE>', 'set a variable (repeatable)', collect)
    .option('--tokens', "add each task's commander harness tokens (system prompt + tool schemas)")
    .option(
      '--strict-hcl',
      "check every file with HCL's own parser (hcl2json), not only files with a syntax problem",
    )
    .action(async (directory: string, options: VerifyOptions & { var?: string[] }) => {
      setExitCode(await verify(directory, options.var ?? [], io, options));
    });
};

/** What `verify` prints and checks beyond the default. */
export interface VerifyOptions {
  /** Add each task's commander harness tokens. */
  tokens?: boolean;
  /** `--strict-hcl`: hcl2json checks every file (else `SORTIE_STRICT_HCL` decides). */
  strictHcl?: boolean;
}

/** Runs verify and returns its exit code. */
export async function verify(
  directory: string,
  varFlags: readonly string[],
  io: CliIo,
  options: VerifyOptions = {},
): Promise<number> {
  const { checkDeclaredVariables, parseVarFlags } = await import('./var-flags.ts');
  const { analyzeProject } = await import('../config/load-project.ts');
  const vars = parseVarFlags(varFlags);
  const analysis = await analyzeProject(directory, {
    vars,
    env: io.env,
    ...(options.strictHcl === true ? { strictHcl: true } : {}),
  });
  if (analysis.diagnostics.length > 0) {
    // Loaded only when there is something to print: string-width and its tables cost a
    // cold start that has nothing to show.
    const { printDiagnostics } = await import('./print-diagnostics.ts');
    printDiagnostics(analysis.diagnostics, analysis.sources, io.stdout, useColor(io, 'stdout'));
  }
  const projectErrors = analysis.diagnostics.filter(
    (diagnostic) => diagnostic.severity === 'error',
  ).length;
  // Evals are checked against the project, so only against a project without errors.
  const { verifyEvals } = await import('./verify-evals.ts');
  const evals =
    projectErrors === 0
      ? await verifyEvals(analysis.config, io)
      : { errors: 0, warnings: 0, summary: '' };
  const errors = projectErrors + evals.errors;
  const warnings = analysis.diagnostics.length - projectErrors + evals.warnings;
  if (errors > 0) {
    io.stdout(`failed: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`);
    return ExitCode.usage;
  }
  checkDeclaredVariables(vars, analysis.config.variables.keys());
  const missions = [...analysis.config.missions.values()];
  if (missions.some((mission) => mission.schedules.length > 0)) {
    // Loaded only for a project with schedules: the fire-time code is the server's.
    const { formatScheduleTimes } = await import('./verify-schedules.ts');
    io.stdout(formatScheduleTimes(analysis.config, new Date((io.now ?? Date.now)())));
  }
  io.stdout(`${summarize(analysis.config)}${evals.summary}, ${plural(warnings, 'warning')}\n`);
  if (options.tokens === true) {
    const { formatHarnessTokens } = await import('./verify-tokens.ts');
    io.stdout(formatHarnessTokens(analysis.config));
  }
  return ExitCode.ok;
}
