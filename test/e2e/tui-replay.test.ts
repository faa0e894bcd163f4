/**
 * `sortie replay RUN_ID` in a real terminal: a real run of the `survey` mission (the scripted
 * model server holds the writer's answer 4 s, a long gap in the journal) is played back by
 * the real CLI inside tmux at ×0.25, paused in that gap, stepped, and played to the end.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpAll, sortie, startModelServer, writeProject } from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';
import { SURVEY_HCL, journals, surveyTurns, type JournalEvent } from './replay-harness.ts';

const SESSION = 'replay';
let directory = '';
let terminal = new TmuxTerminal('', SESSION);
const screen = (): string => terminal.screen();
const press = (key: string): void => terminal.press(key);
const until = (what: string, check: () => boolean): Promise<void> => terminal.until(what, check);
let stateDir = '';
let runLog = '';
let events: JournalEvent[] = [];

beforeAll(async () => {
  directory = await temporaryDirectory('tui-replay');
  // A private tmux server: killing it touches no one else's panes.
  terminal = new TmuxTerminal(join(directory, 'tmux.socket'), SESSION);
  stateDir = join(directory, 'state');
  const server = await startModelServer(surveyTurns({ writerDelayMs: 4_000 }));
  const run = await sortie([
    'run',
    await writeProject(SURVEY_HCL),
    '--var',
    'api_key=sk-test-tui-replay',
    '--var',
    `base_url=${server.baseUrl('openai')}`,
    '--state-dir',
    stateDir,
  ]);
  expect(run.status).toBe(0);
  runLog = run.stdout;
  [events = []] = await journals(stateDir);
}, 60_000);

afterAll(async () => {
  terminal.close();
  await cleanUpAll();
});

describe('sortie replay in the TUI (tmux, real CLI, journal of a real run)', () => {
  it('shows the tree, pauses in a recorded gap, steps, and ends with the recorded outcome', async () => {
    const runId = String(events[0]?.runId);
    const total = events.length;
    // The player waits (16 s at ×0.25) before the writer's answer: the first event after the gap.
    const gap = events.findIndex(
      (event) => event.type === 'model.response' && event.actor === 'agent:publish/writer',
    );
    expect(gap).toBeGreaterThan(0);
    const exitFile = join(directory, 'exit-code');
    terminal.start(
      sortieCommand(`replay ${runId} --state-dir '${stateDir}' --speed 0.25`, exitFile),
    );
    terminal.keepPaneOnExit();

    // The header follows the player at once, the tree the store's next repaint: wait for both.
    await until(
      'the replay waiting in the gap',
      () =>
        screen().includes(`▶ replay ×0.25 playing ${gap}/${total}`) &&
        /^ {10}● writer · thinking +│/m.test(screen()),
    );
    const waiting = screen();
    // At 120 columns the header keeps the run facts: the run id shrinks to its unique tail.
    expect(waiting).toContain(`mission survey · run …${runId.slice(-6)} · ● running`);
    expect(waiting).toMatch(/^› ▾ ● mission survey +\S/m);
    expect(waiting).toMatch(/^ {4}▾ ✓ gather +\S/m);
    expect(waiting).toMatch(/^ {4}▾ ✓ visit 3\/3 ✓3 ✗0 +\S/m);
    expect(waiting).toMatch(/^ {6}▾ ✓ commander\[2\] +\S/m);
    expect(waiting).toMatch(/^ {4}▾ ✓ decide +\S/m);
    expect(waiting).toMatch(/^ {6}↷ follow_up +│/m);
    expect(waiting).toMatch(/^ {4}▾ ● publish +\S/m);
    expect(waiting).toMatch(/^ {10}● writer · thinking +│/m);

    press('Space');
    await until('the pause', () => screen().includes(`▶ replay ×0.25 paused ${gap}/${total}`));
    press('n');
    await until('one step', () => screen().includes(`▶ replay ×0.25 paused ${gap + 1}/${total}`));
    press('n');
    await until('another step', () =>
      screen().includes(`▶ replay ×0.25 paused ${gap + 2}/${total}`),
    );
    expect(events[gap + 1]).toMatchObject({ actor: 'agent:publish/writer' });

    press('Space');
    // The run log printed `mission:survey  succeeded · 5 tasks · 59,128 tokens · $0.0088`; the
    // TUI prints its own summary line (under its last frame) once the person quits. The task count is left out: the line log counts finished tasks (the skipped
    // follow_up included), the TUI started ones.
    const recorded = /^\S+ mission:survey {2}succeeded · 5 tasks · (\S+ tokens · \S+)$/m.exec(
      runLog,
    );
    expect(recorded).not.toBeNull();
    const summary = new RegExp(
      `^mission:survey succeeded · \\d tasks · ${String(recorded?.[1]).replace('$', '\\$')}$`,
      'm',
    );
    await until('the end', () => screen().includes(`▶ replay ×0.25 end ${total}/${total}`));
    const finished = screen();
    expect(finished).toContain(`▶ replay ×0.25 end ${total}/${total}`);
    expect(finished).toMatch(/^ {4}▾ ✓ publish +\S/m);
    expect(finished).toMatch(/^ {10}✓ writer +\S/m);

    press('q');
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('0\n');
    expect(terminal.scrollback()).toMatch(summary);
  }, 120_000);
});
