/** Where a command writes and how: injected so tests can capture output and fix colour. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Whether stdout / stderr are interactive terminals. */
  stdoutIsTty: boolean;
  stderrIsTty: boolean;
  /** Whether stdin is an interactive terminal (a person can answer agents' questions). */
  stdinIsTty?: boolean;
  /** Milliseconds since the epoch for commands that print times to come; tests fix it. */
  now?: () => number;
}

/** The real process streams and environment. */
export function processIo(): CliIo {
  return {
    stdout: pipeSafeWriter(process.stdout),
    stderr: pipeSafeWriter(process.stderr),
    env: process.env,
    stdoutIsTty: process.stdout.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
    stdinIsTty: process.stdin.isTTY === true,
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

/**
 * Writes to a stream whose reader may go away (`sortie run --json | head -1`): after EPIPE the
 * output is dropped instead of crashing with a stack trace, so a run still finishes and
 * journals. Other stream errors are still thrown.
 */
export function pipeSafeWriter(stream: NodeJS.WritableStream): (text: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}
