import type { RegisterCommand } from './commands.ts';
import { withRunOptions, type RunFlags } from './run.ts';

/** The flags of `sortie fork`: those of `run` and `resume`, the fork point and `--edit`. */
export interface ForkFlags extends RunFlags {
  at: string;
  edit?: boolean;
}

/** `sortie fork RUN_ID --at SEQ [DIR]`: a new run that goes on from an event of another. */
export const registerFork: RegisterCommand = (program, io, setExitCode) => {
  withRunOptions(
    program
      .command('fork')
      .description(
        "start a new run from a run's event: a model response, a tool result or a mission's start",
      )
      .argument('<RUN_ID>', 'the run to fork (a unique prefix is enough; see sortie runs)')
      .argument('[DIR]', 'project directory or .hcl file (default: where the run was started)')
      .requiredOption(
        '--at <SEQ>',
        'the event to fork at: its seq (in --json output and journal.jsonl)',
      )
      .option('--edit', 'edit the event in $EDITOR (JSON) before the fork goes on'),
  ).action(async (runId: string, directory: string | undefined, flags: ForkFlags) => {
    const { forkCommand } = await import('./fork-command.ts');
    setExitCode(await forkCommand({ runId, directory, flags }, io));
  });
};
