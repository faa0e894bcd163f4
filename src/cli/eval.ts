import { collect } from './collect-flag.ts';
import type { RegisterCommand } from './commands.ts';

/** The flags of `sortie eval` as commander parses them. */
export interface EvalFlags {
  variant?: string[];
  case?: string[];
  repeat?: string;
  concurrency?: string;
  json?: string;
  junit?: string;
  maxCost?: string;
  record?: string;
  replayModel?: string;
  mockModel?: string;
  compare?: string;
  var?: string[];
  stateDir?: string;
  plain?: boolean;
}

/** `sortie eval [DIR] [NAME…]`: run a project's evals and report pass rates and figures. */
export const registerEval: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('eval')
    .description(
      "run the project's evals (.evals/*.hcl): every variant × case × repeat, scored; exit 0 when every case meets its threshold, 1 when one does not",
    )
    .argument('[DIR]', 'project directory', '.')
    .argument('[NAME...]', 'the evals to run (default: all)')
    .option('--variant <NAME>', 'run only this variant (repeatable)', collect)
    .option('--case <NAME>', 'run only this case (repeatable)', collect)
    .option('--repeat <N>', "runs per variant and case (default: the eval's repeat)")
    .option('--concurrency <N>', "runs at once (default: the eval's concurrency)")
    .option('--json <FILE>', 'write the report as JSON')
    .option('--junit <FILE>', 'write the report as JUnit XML')
    .option('--max-cost <USD>', 'start no run once the runs so far cost this much')
    .option('--record <DIR>', 'record one cassette per run: DIR/VARIANT/CASE/REPEAT.jsonl')
    .option('--replay-model <DIR>', 'answer every run from the cassettes --record wrote')
    .option('--mock-model <FILE>', 'answer model requests from a file of scripted answers')
    .option('--compare <FILE>', 'mark regressions against a previous --json report (exit 1)')
    .option('--var <NAME=VALUE>', 'set a variable (repeatable)', collect)
    .option('--plain', 'a line per finished run instead of the live table on a terminal')
    .option('--state-dir <DIR>', 'where runs are kept (default: SORTIE_HOME or <project>/.sortie)')
    .action(async (directory: string, names: string[], flags: EvalFlags) => {
      const { evalCommand } = await import('./eval-command.ts');
      setExitCode(await evalCommand({ directory, names, flags }, io));
    });
};
