/**
 * Forking from the TUI in a real terminal (tmux, the real CLI, the scripted model server): a
 * finished run's TUI forks at the commander's reply that calls the poet with `e` (EDITOR a
 * script that changes the tool call), the fork runs in the same terminal and finishes; in the
 * fork's TUI, `f` on the commander's tool result in the detail pane forks the fork unchanged.
 * Nothing before a fork point asks the model again.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { journalOf } from './cli-resume-harness.ts';
import {
  callsPoet,
  FORK_PROJECT,
  respondToPoem,
  seqOf,
  taskSummary,
  REPLACE_SCRIPT,
} from './fork-fixture.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

let server: ScriptedModelServer;
let directory = '';
let stateDir = '';
let terminal = new TmuxTerminal('', 'fork');
/** The first test's run, replayed by the second. */
let parentId = '';

beforeAll(async () => {
  server = await ScriptedModelServer.start({ respond: respondToPoem });
  directory = temporaryDirectorySync('tui-fork');
  writeFileSync(join(directory, 'main.hcl'), FORK_PROJECT);
  writeFileSync(join(directory, 'replace.mjs'), REPLACE_SCRIPT);
  stateDir = join(directory, 'state');
  terminal = new TmuxTerminal(join(directory, 'tmux.socket'), 'fork');
});

afterAll(async () => {
  terminal.close();
  await server.close();
});

const screen = (): string => terminal.screen();
const runIds = (): string[] =>
  existsSync(join(stateDir, 'runs')) ? readdirSync(join(stateDir, 'runs')).sort() : [];
const actorsSince = (count: number): string[] =>
  server.requests.slice(count).map((request) => request.actor ?? '');

/**
 * Waits until the run `runId` shows finished in the TUI (its id, or its tail, is in the
 * header) and its journal holds its end (lines are written a moment after the event).
 */
async function untilFinished(runId: string): Promise<MissionEvent[]> {
  await terminal.until(
    `run ${runId} finished in the TUI`,
    () => screen().includes(runId.slice(-6)) && screen().includes('run finished — q to quit'),
  );
  let events: MissionEvent[] = [];
  await terminal.until(`the journal of ${runId} to end`, () => {
    events = journalOf(stateDir, runId);
    return events.some((event) => event.type === 'run.finished');
  });
  return events;
}

/** The one new run once it appears in the state directory. */
async function newRun(known: readonly string[]): Promise<string> {
  let found = '';
  await terminal.until('a new run in the state directory', () => {
    found = runIds().find((runId) => !known.includes(runId)) ?? '';
    return found !== '';
  });
  return found;
}

/** The seq on the cursor line of the Events tab (`▸12 00:01.2 …`). */
function cursorSeq(): number {
  const line = screen()
    .split('\n')
    .find((text) => text.startsWith('▸'));
  return Number(/^▸\s*(\d+) /.exec(line ?? '')?.[1]);
}

/** Writes the screen to SORTIE_SCREENSHOTS/NAME when set (the captures of docs/screenshots.md). */
function capture(name: string): void {
  const folder = process.env.SORTIE_SCREENSHOTS;
  if (folder !== undefined) writeFileSync(join(folder, name), screen());
}

/** The screen line holding the selection (`›` in the tree, `▸` in the detail pane). */
function selectedLine(mark: string): string {
  return (
    screen()
      .split('\n')
      .find((line) => line.includes(mark)) ?? ''
  );
}

/**
 * Presses `key` one at a time, each time waiting for the selection line (the one with `mark`)
 * to change, until `reached`.
 */
async function moveUntil(
  key: string,
  mark: string,
  what: string,
  reached: () => boolean,
): Promise<void> {
  for (let presses = 0; !reached(); presses++) {
    if (presses === 20) throw new Error(`${what}: not reached; last screen:\n${screen()}`);
    const before = selectedLine(mark);
    terminal.press(key);
    await terminal.until(`the selection to move with ${key}`, () => selectedLine(mark) !== before);
  }
}

/** Opens the Events tab filtered by two words and waits for the `count` lines it leaves. */
async function filterEvents(first: string, second: string, count: number): Promise<void> {
  // One send-keys call: the tab, the filter line, both words and Enter reach the TUI together.
  terminal.press('3', '/', `${first} ${second}`, 'Enter');
  await terminal.until('the filter applied', () =>
    screen().includes(`/ ${first} ${second}  (${count} events)`),
  );
}

/**
 * Presses `q` until the CLI exits and returns its exit code line. The screen can show the end
 * of the parent's TUI above the fork's before the fork's has drawn its own: a `q` in that
 * moment asks whether to cancel the fork, a box its end closes, and the next `q` quits.
 */
async function quitTui(exitFile: string): Promise<string> {
  const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
  for (let presses = 0; presses < 10 && !exitCode().endsWith('\n'); presses++) {
    terminal.press('q');
    // Not exited within 3 s: that q answered the box, so the loop presses the next one.
    await terminal.until('the exit', () => exitCode().endsWith('\n'), 3_000).catch(() => undefined);
  }
  return exitCode();
}

describe('forking from the TUI (tmux, real CLI)', () => {
  it('e edits the commander reply and forks; f forks the fork at a tool result of the detail pane', async () => {
    const exitFile = join(directory, 'exit-code');
    const args = [
      `run '${directory}' --input subject=ants --state-dir '${stateDir}'`,
      `--var api_key=sk-test-tui-fork --var base_url=${server.baseUrl('openai')}`,
    ].join(' ');
    const editor = `${process.execPath} ${join(directory, 'replace.mjs')} ants bees`;
    terminal.start(sortieCommand(args, exitFile, { EDITOR: editor }));
    parentId = await newRun([]);
    const parent = await untilFinished(parentId);
    const reply = seqOf(parent, callsPoet);

    // The Events tab: only the commander's replies, the cursor on the one that calls the poet
    // (the third from the newest: task_complete, complete_subtask, call_agent).
    await filterEvents('type=model.response', 'actor=commander', 4);
    terminal.press('k', 'k', 'k');
    await terminal.until('the cursor on the reply', () => cursorSeq() === reply);
    capture('fork-events.txt');
    const before = server.requests.length;
    terminal.press('e');

    const forkId = await newRun([parentId]);
    const fork = await untilFinished(forkId);
    // Nothing before the reply was asked again: the poet (given the edited task) and the
    // commander's two turns after the reply.
    expect(actorsSince(before)).toEqual(['agent:write/poet', 'commander:write', 'commander:write']);
    expect(JSON.stringify(server.requests[before]?.body)).toContain('Write a line about bees');
    expect(fork.find((event) => event.type === 'run.forked')).toMatchObject({
      parentRunId: parentId,
      atSeq: reply,
      at: 'model.response',
      edited: true,
    });
    expect(taskSummary(fork)).toBe('The poet wrote: A line about bees.');
    expect(terminal.scrollback()).toContain(
      `forked run ${forkId} from ${parentId} at ${reply} (model.response of commander:write), edited`,
    );

    // The fork's TUI: the commander in the tree, its call_agent result in the detail pane.
    const result = seqOf(
      fork,
      (event: MissionEvent) => event.type === 'tool.completed' && event.tool === 'call_agent',
    );
    await moveUntil('j', '› ', 'the commander selected in the tree', () =>
      /^› .*commander/m.test(screen()),
    );
    terminal.press('Tab');
    await moveUntil('j', '▸', 'the tool result under the detail cursor', () =>
      screen().includes('▸ tool call_agent (ok in'),
    );
    const title = screen()
      .split('\n')
      .find((line) => line.includes('▸ tool call_agent (ok in'));
    expect(title, screen()).toMatch(
      new RegExp(`▸ tool call_agent \\(ok in [^)]+\\) · seq ${result}`),
    );
    capture('fork-detail.txt');
    const beforeSecond = server.requests.length;
    terminal.press('f');

    const secondId = await newRun([parentId, forkId]);
    const second = await untilFinished(secondId);
    expect(actorsSince(beforeSecond)).toEqual(['commander:write', 'commander:write']);
    expect(second.filter((event) => event.type === 'run.forked').at(-1)).toMatchObject({
      parentRunId: forkId,
      atSeq: result,
      at: 'tool.completed',
      edited: false,
    });
    expect(taskSummary(second)).toBe('The poet wrote: A line about bees.');

    expect(await quitTui(exitFile)).toBe('0\n');
  }, 180_000);

  it('f forks a replayed run at a tool result; the fork runs live in the same terminal', async () => {
    const exitFile = join(directory, 'exit-code-replay');
    const parent = journalOf(stateDir, parentId);
    const result = seqOf(
      parent,
      (event) => event.type === 'tool.completed' && event.tool === 'call_agent',
    );
    // A replay has no --var: the fork's variables come from the environment.
    const variables = {
      SORTIE_VAR_api_key: 'sk-test-tui-fork',
      SORTIE_VAR_base_url: server.baseUrl('openai'),
    };
    const known = runIds();
    // A session of its own: the first one's may still be closing.
    terminal = new TmuxTerminal(join(directory, 'tmux.socket'), 'fork-replay');
    terminal.start(
      sortieCommand(`replay ${parentId} --state-dir '${stateDir}' --speed 64`, exitFile, variables),
    );
    terminal.press('G');
    await terminal.until('the replay at its end', () => screen().includes('run finished'));
    // The commander's results: task_complete, complete_subtask, then call_agent's.
    await filterEvents('type=tool.completed', 'actor=commander', 4);
    terminal.press('k', 'k', 'k');
    const cursorOnResult = (): boolean =>
      screen()
        .split('\n')
        .some((line) => new RegExp(`^▸\\s*${result} `).test(line));
    await terminal.until('the cursor on the result', cursorOnResult);
    const before = server.requests.length;
    terminal.press('f');

    const forkId = await newRun(known);
    const fork = await untilFinished(forkId);
    expect(actorsSince(before)).toEqual(['commander:write', 'commander:write']);
    expect(fork.filter((event) => event.type === 'run.forked').at(-1)).toMatchObject({
      parentRunId: parentId,
      atSeq: result,
      at: 'tool.completed',
      edited: false,
    });
    expect(taskSummary(fork)).toBe('The poet wrote: A line about ants.');
    expect(await quitTui(exitFile)).toBe('0\n');
  }, 120_000);
  it('f on a live run held at a step cancels it and runs the fork in the same terminal', async () => {
    const exitFile = join(directory, 'exit-code-live');
    const known = runIds();
    terminal = new TmuxTerminal(join(directory, 'tmux.socket'), 'fork-live');
    const args = [
      `run '${directory}' --input subject=ants --state-dir '${stateDir}' --step`,
      `--var api_key=sk-test-tui-fork --var base_url=${server.baseUrl('openai')}`,
    ].join(' ');
    terminal.start(sortieCommand(args, exitFile));
    const liveId = await newRun(known);
    // The run folder comes before its journal file: no journal yet is nothing held yet.
    const events = (): MissionEvent[] =>
      existsSync(join(stateDir, 'runs', liveId, 'journal.jsonl'))
        ? journalOf(stateDir, liveId)
        : [];
    const held = (): number => events().filter((event) => event.type === 'gate.paused').length;
    // Step until the commander's reply that calls the poet is in the journal: the run is then
    // held before the poet's request, still live.
    await terminal.until('the run held at its first step', () => held() === 1);
    while (!journalOf(stateDir, liveId).some(callsPoet)) {
      const before = held();
      terminal.press('n');
      await terminal.until('the run held again', () => held() > before);
    }
    const reply = seqOf(journalOf(stateDir, liveId), callsPoet);
    expect(screen()).toContain('PAUSED');

    // The newest commander reply is the one that calls the poet: the first `k` selects it.
    await filterEvents('type=model.response', 'actor=commander', 2);
    terminal.press('k');
    await terminal.until('the cursor on the reply', () => cursorSeq() === reply);
    const before = server.requests.length;
    terminal.press('f');

    const forkId = await newRun([...known, liveId]);
    // The parent was cancelled, not left running: its journal ends with the run's end.
    const parentEnd = journalOf(stateDir, liveId).at(-1);
    expect(parentEnd).toMatchObject({ type: 'run.finished', outcome: 'cancelled' });
    // The fork keeps the parent's flags: --step holds it before the poet's request.
    await terminal.until('the fork held at its first step', () =>
      journalOf(stateDir, forkId).some((event) => event.type === 'gate.paused'),
    );
    terminal.press('c');
    const fork = await untilFinished(forkId);
    expect(actorsSince(before)).toEqual(['agent:write/poet', 'commander:write', 'commander:write']);
    expect(fork.filter((event) => event.type === 'run.forked').at(-1)).toMatchObject({
      parentRunId: liveId,
      atSeq: reply,
      at: 'model.response',
      edited: false,
    });
    expect(taskSummary(fork)).toBe('The poet wrote: A line about ants.');
    expect(await quitTui(exitFile)).toBe('0\n');
  }, 180_000);
});
