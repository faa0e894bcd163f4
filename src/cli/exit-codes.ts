/** Process exit codes (cli-tui.md): the same for every command. */
export const ExitCode = {
  ok: 0,
  missionFailed: 1,
  usage: 2,
  cancelled: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
