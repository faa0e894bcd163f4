/**
 * Opens a URL in the person's browser: the command in `$BROWSER` when set (the convention of
 * Unix tools: a `:`-separated list whose first entry is used, `%s` standing for the URL, or the
 * URL appended), else the platform's opener. The opener runs detached; a missing one is not an
 * error, since the caller prints the URL anyway.
 */
import { spawn } from 'node:child_process';

/** The program and arguments that open `url`. */
export function browserCommand(
  url: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } {
  const configured = env.BROWSER?.split(':')[0]?.trim();
  if (configured !== undefined && configured !== '') {
    const [command = configured, ...args] = configured.split(/\s+/);
    const withUrl = args.some((arg) => arg.includes('%s'));
    return {
      command,
      args: withUrl ? args.map((arg) => arg.replaceAll('%s', url)) : [...args, url],
    };
  }
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Starts the browser on `url` without waiting for it; resolves once it was started (or not). */
export function openBrowser(url: string, env: Record<string, string | undefined>): Promise<void> {
  const { command, args } = browserCommand(url, env);
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve());
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
