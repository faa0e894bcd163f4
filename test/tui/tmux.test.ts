/**
 * The TUI in a real terminal: tmux runs tmux-driver.ts at 100×30, the test sends keys and
 * reads the screen.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';
import { until } from '../helpers/until.ts';

const session = `sortie-tui-${process.pid}`;
const directory = temporaryDirectorySync('tui');
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

/** `until` that shows the terminal's last screen when it gives up. */
function untilScreen(what: string, check: () => boolean): Promise<void> {
  return until(what, check, { pauseMs: 50, lastSeen: screen });
}

afterAll(() => {
  try {
    tmux('kill-session', '-t', session);
  } catch {
    // The session already ended, and with its last session the private server.
  }
});

describe('the TUI in a real terminal (tmux)', () => {
  it('steps a held point, switches tabs and cancels on confirmed quit', async () => {
    const command = `${join('node_modules', '.bin', 'tsx')} ${join('test', 'tui', 'tmux-driver.ts')} ${report}`;
    tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '30', command);
    // The gate's state shows at once; the events follow with the store's next repaint.
    await untilScreen(
      'two held points',
      () => screen().includes('PAUSED (2 held)') && screen().includes('analyze 7/20'),
    );
    expect(screen()).toContain('analyze 7/20 ✓6 ✗1');

    tmux('send-keys', '-t', session, 'n');
    await untilScreen('one held point', () => screen().includes('PAUSED (1 held)'));
    expect(reported()).toBe('released model\n');

    tmux('send-keys', '-t', session, '2');
    await untilScreen('the Costs tab', () => screen().includes('per model'));
    expect(screen()).toMatch(/custom\.mystery\s+20\s+2,000/);

    tmux('send-keys', '-t', session, 'q');
    await untilScreen('the quit question', () => screen().includes('Cancel it and quit?'));
    tmux('send-keys', '-t', session, 'y');
    await untilScreen('the exit report', () => reported().includes('exited'));
    expect(reported()).toBe('released model\ncancelled\nexited\n');
  });
});
