import type { RegisterCommand } from './commands.ts';

/** The flags of `sortie attach` as commander parses them. */
export interface AttachFlags {
  server: string;
  token?: string;
  plain?: boolean;
  json?: boolean;
}

/**
 * `sortie attach RUN_ID`: a run of `sortie serve`, live, in the TUI (pause, step, breakpoints,
 * answers act on the server's run; `q` detaches), or its log with --plain / --json.
 */
export const registerAttach: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('attach')
    .description('watch and drive a run of `sortie serve` (TUI on a terminal, else the line log)')
    .argument('<RUN_ID>', 'the served run (its id as the API or the server log gives it)')
    .option('--server <URL>', 'the server', 'http://127.0.0.1:7700')
    .option('--token <TOKEN>', "the server's token (or SORTIE_SERVE_TOKEN)")
    .option('--plain', 'print the line log, even on a terminal')
    .option('--json', 'print the events as JSONL (as `sortie run --json`)')
    .action(async (runId: string, flags: AttachFlags) => {
      const { attachCommand } = await import('./attach-command.ts');
      setExitCode(await attachCommand({ runId, flags }, io));
    });
};
