import type { RegisterCommand } from './commands.ts';

/** The flags of `sortie replay`. */
export interface ReplayFlags {
  speed: string;
  stateDir?: string;
  plain?: boolean;
  keepPauses?: boolean;
}

/**
 * `sortie replay RUN_ID|FILE [DIR]`: plays a journal back. On a terminal in the TUI at the
 * recorded pace (or `--speed`), with stepping; otherwise it prints the recorded events as the
 * plain line log at once (no waiting), which is what a log file or a pipe wants.
 */
export const registerReplay: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('replay')
    .description(
      'play a recorded run back (TUI on a terminal, else the line log); no model is called',
    )
    .argument('<RUN>', 'a run id (or unambiguous prefix) or a journal.jsonl file')
    .argument('[DIR]', 'project directory (its .sortie/ holds the runs)', '.')
    .option('--speed <X>', 'playback speed: 1 = recorded pace, 2 = twice as fast', '1')
    .option('--state-dir <DIR>', 'where runs are kept (default: SORTIE_HOME or <project>/.sortie)')
    .option('--plain', 'print the line log even on a terminal')
    .option(
      '--keep-pauses',
      'wait at held gate points (--step, --break) as long as the recorded run waited for you',
    )
    .action(async (run: string, directory: string, flags: ReplayFlags) => {
      const { replayCommand } = await import('./replay-command.ts');
      setExitCode(await replayCommand({ run, directory, flags }, io));
    });
};
