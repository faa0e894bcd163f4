/**
 * A real terminal for end-to-end tests of the real CLI: a private tmux server (its own socket,
 * so killing it touches no one else's panes), one session running a shell command, keys in
 * with `send-keys`, the screen back with `capture-pane`.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { until } from '../helpers/until.ts';

const ROOT = join(import.meta.dirname, '../..');

/** The terminal size every TUI end-to-end test uses. */
const COLUMNS = '120';
const ROWS = '35';

/**
 * `sortie ARGS` as a shell command line for tmux: run from the project root with a clean,
 * colourless environment (plus `extra`, no single quotes in it), its exit code written to
 * `exitFile` (the shell outlives the CLI just long enough to note it). `bin` runs another
 * entry (the built CLI's).
 */
export function sortieCommand(
  args: string,
  exitFile: string,
  extra: Record<string, string> = {},
  bin = 'bin/sortie.js',
): string {
  const kept = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'XDG_STATE_HOME'].flatMap((name) => {
    const value = process.env[name];
    return value === undefined ? [] : [`'${name}=${value}'`];
  });
  const added = Object.entries(extra).map(([name, value]) => `'${name}=${value}'`);
  const environment = [...kept, ...added, "'TERM=xterm-256color'", "'NO_COLOR=1'"];
  return `env -i ${environment.join(' ')} '${process.execPath}' '${bin}' ${args}; echo $? > '${exitFile}'`;
}

export class TmuxTerminal {
  constructor(
    private readonly socket: string,
    private readonly session: string,
  ) {}

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /** Starts the session (120×35 unless told, in the project root) running `command`. */
  start(command: string, size: { columns: number; rows: number } | undefined = undefined): void {
    const columns = size === undefined ? COLUMNS : String(size.columns);
    const rows = size === undefined ? ROWS : String(size.rows);
    this.tmux(
      'new-session',
      '-d',
      '-s',
      this.session,
      '-x',
      columns,
      '-y',
      rows,
      '-c',
      ROOT,
      command,
    );
  }

  /** Keeps the pane, and what it shows, after the command has exited (tmux closes it otherwise). */
  keepPaneOnExit(): void {
    this.tmux('set-option', '-w', '-t', this.session, 'remain-on-exit', 'on');
  }

  /** The visible screen. */
  screen(): string {
    return this.capture('-p', '-t', this.session);
  }

  /** The visible screen with its text styles as escape sequences (colour, bold, inverse…). */
  styledScreen(): string {
    return this.capture('-p', '-e', '-t', this.session);
  }

  /** The pane with its scrollback, where the TUI's final summary lands above the live view. */
  scrollback(): string {
    return this.capture('-p', '-S', '-', '-t', this.session);
  }

  /**
   * Sends keys in ONE `send-keys` call, so that they reach the program in one write, as fast
   * typing or a paste does: key names (`Enter`, `Left`, `C-c`) and literal text (`type=tool`).
   */
  press(...keys: string[]): void {
    this.tmux('send-keys', '-t', this.session, ...keys);
  }

  /** Polls until `check` holds; fails with the last screen after `timeoutMs` (30 s). */
  until(what: string, check: () => boolean, timeoutMs?: number): Promise<void> {
    return until(what, check, { pauseMs: 50, lastSeen: () => this.screen(), timeoutMs });
  }

  /** Stops the private server (it may have left on its own when its last session ended). */
  close(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
  }

  private capture(...args: string[]): string {
    try {
      return this.tmux('capture-pane', ...args);
    } catch {
      return '(no tmux pane)';
    }
  }
}
