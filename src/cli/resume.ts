import type { RegisterCommand } from './commands.ts';
import { withRunOptions, type RunFlags } from './run.ts';

/** `sortie resume RUN_ID [DIR]`: continue an interrupted or failed run from its journal. */
export const registerResume: RegisterCommand = (program, io, setExitCode) => {
  withRunOptions(
    program
      .command('resume')
      .description('continue an interrupted or failed run from its journal')
      .argument('<RUN_ID>', 'the run (a unique prefix is enough; see sortie runs)')
      .argument('[DIR]', 'project directory or .hcl file (default: where the run was started)'),
  ).action(async (runId: string, directory: string | undefined, flags: RunFlags) => {
    const { resumeCommand } = await import('./resume-command.ts');
    setExitCode(await resumeCommand({ runId, directory, flags }, io));
  });
};
