/**
 * The TUI in a real terminal: tmux runs tmux-driver.ts at 100×30, the test sends keys and
 * reads the screen.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const session = `sortie-tui-${process.pid}`;
const directory = mkdtempSync(join(tmpdir(), 'sortie-tui-'));
const report = join(directory, 'report.txt');
// A private server: tests sharing tmux's default one see it vanish when another's last session ends.
const socket = join(directory, 'tmux.sock');

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
}

function screen(): string {
  return tmux('capture-pane', '-p', '-t', session);
}

function reported(): string {
  return existsSync(report) ? readFileSync(report, 'utf8') : '';
}

/** Polls until `check` holds; fails with the last screen after 20 s. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting; screen:\n${screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

afterAll(() => {
  try {
    tmux('kill-session', '-t', session);
  } catch {
    // The session already ended, and with its last session the private server.
  }
  rmSync(directory, { recursive: true, force: true });
});

describe('the TUI in a real terminal (tmux)', () => {
  it('steps a held point, switches tabs and cancels on confirmed quit', async () => {
    const command = `${join('node_modules', '.bin', 'tsx')} ${join('test', 'tui', 'tmux-driver.ts')} ${report}`;
    tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '30', command);
    // The gate's state shows at once; the events follow with the store's next repaint.
    await until(() => screen().includes('PAUSED (2 held)') && screen().includes('analyze 7/20'));
    expect(screen()).toContain('analyze 7/20 ✓6 ✗1');

    tmux('send-keys', '-t', session, 'n');
    await until(() => screen().includes('PAUSED (1 held)'));
    expect(reported()).toBe('released model\n');

    tmux('send-keys', '-t', session, '2');
    await until(() => screen().includes('per model'));
    expect(screen()).toMatch(/custom\.mystery\s+20\s+2,000/);

    tmux('send-keys', '-t', session, 'q');
    await until(() => screen().includes('Cancel it and quit?'));
    tmux('send-keys', '-t', session, 'y');
    await until(() => reported().includes('exited'));
    expect(reported()).toBe('released model\ncancelled\nexited\n');
  });
});
