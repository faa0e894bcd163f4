/** Where a command writes and how: injected so tests can capture output and fix colour. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Whether stdout / stderr are interactive terminals. */
  stdoutIsTty: boolean;
  stderrIsTty: boolean;
}

/** The real process streams and environment. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    stdoutIsTty: process.stdout.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
  };
}

/**
 * Whether to print ANSI colour: `NO_COLOR` (any non-empty value) turns it off, `FORCE_COLOR`
 * (anything but `0`/`false`) turns it on, otherwise only on an interactive terminal.
 */
export function useColor(io: CliIo, stream: 'stdout' | 'stderr'): boolean {
  const noColor = io.env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return stream === 'stdout' ? io.stdoutIsTty : io.stderrIsTty;
}
