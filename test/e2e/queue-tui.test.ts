/**
 * `sortie run --queue --step` in the real TUI (tmux) with two real worker processes and a real
 * redis-server: the items the workers run show live in the run's one tree, held at the run's
 * gate; a step lets one of them go on its worker, a continue runs the rest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { largeResultProject, respondToPages } from '../actors/resume/large-result-fixture.ts';
import { queueTestForFile } from './queue-harness.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const queue = queueTestForFile({
  name: 'queue-tui',
  respond: respondToPages(40),
  hcl: largeResultProject(2),
  workers: 2,
});
const directory = temporaryDirectorySync('queue-tui');
const exitFile = join(directory, 'exit-code');
const stderrFile = join(directory, 'stderr');
// A private tmux server: killing it touches no one else's panes.
const terminal = new TmuxTerminal(join(directory, 'tmux.socket'), 'run');
const screen = (): string => terminal.screen();
const until = (what: string, check: () => boolean): Promise<void> => terminal.until(what, check);

/** Whether the run ended: otherwise its workers' items wait at a gate nobody holds any more. */
let ended = false;

afterAll(() => {
  terminal.close();
  if (!ended) for (const worker of queue.workers) worker.process.kill('SIGKILL');
});

describe('sortie run --queue --step in the TUI', () => {
  it('shows the workers items held in the run tree, steps one on its worker and continues', async () => {
    const args = [
      `run '${queue.project}' --queue ${queue.redis.url} --step`,
      `--var api_key=sk-test-tui --var base_url=${queue.server.baseUrl('anthropic')}`,
      `--state-dir '${queue.target.stateDir}'`,
      `2>'${stderrFile}'`,
    ].join(' ');
    terminal.start(sortieCommand(args, exitFile));

    // Both items' commanders, on the workers, are held before their first request: the gate
    // holds them (the header) and their events are in the one tree (the rows).
    const heldRow = (index: number, after: string): RegExp =>
      new RegExp(`^ {8}⏸ commander\\[${index}\\] · held before ${after}`, 'm');
    await until('both items held in the tree', () => {
      const shown = screen();
      return (
        shown.includes('PAUSED (2 held)') && [0, 1].every((i) => heldRow(i, 'model').test(shown))
      );
    });
    expect(screen()).toMatch(/^› ▾ ● mission pages +\S/m);
    expect(screen()).toMatch(/^ {4}▾ ● read 0\/2 ✓0 ✗0 +\S/m);
    expect(queue.server.requests).toHaveLength(0);

    // `n` lets one item's request go on its worker; it stops again at its next point.
    terminal.press('n');
    // Held again, having spent its first turn (110 tokens) on its worker.
    const spent = '.* 110 \\$0\\.0002';
    await until('the stepped item held again', () => {
      const shown = screen();
      return shown.includes('PAUSED (2 held)') && [0, 1].some((i) => heldRow(i, spent).test(shown));
    });
    const stepped = screen();
    expect(stepped).toMatch(/^stepped: model commander:read\[\d\]$/m);
    const index = Number(/stepped: model commander:read\[(\d)\]/.exec(stepped)?.[1]);
    expect(stepped).toMatch(heldRow(index, spent));
    expect(stepped).toMatch(heldRow(1 - index, 'model'));
    expect(queue.server.requests.map((request) => request.actor)).toEqual([
      `commander:read[${index}]`,
    ]);

    // `c` runs the rest on the workers.
    terminal.press('c');
    await until('the finished run', () => /✓ succeeded/.test(screen()));
    const finished = screen();
    expect(finished).not.toContain('PAUSED');
    expect(finished).toMatch(/^ {4}▾ ✓ read 2\/2 ✓2 ✗0 +\S/m);
    terminal.press('q');
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('0\n');
    expect(queue.server.requests).toHaveLength(12);
    ended = true;
  }, 180_000);
});
