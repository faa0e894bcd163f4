/**
 * The real CLI's TUI in a real terminal: `sortie run --break tool:…` inside tmux against a
 * scripted model server in this process. Keys go in with `send-keys`, the screen comes back
 * with `capture-pane`; the server's request log shows which gate points have passed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { formatCost, formatDollars } from '../../src/present/money.ts';
import { formatCount } from '../../src/present/numbers.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';
import { CLOCK, SURVEY, TOOL, TURNS } from './tui-script.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const PROJECT = 'test/fixtures/e2e/tui';
const SESSION = 'run';
const directory = temporaryDirectorySync('tui-cli');
// A private tmux server: its environment is ours, killing it touches no one else's panes, and
// its socket goes with the temp directory.
const SOCKET = join(directory, 'tmux.socket');
const stateDir = join(directory, 'state');
const exitFile = join(directory, 'exit-code');
const stderrFile = join(directory, 'stderr');
const terminal = new TmuxTerminal(SOCKET, SESSION);
const screen = (): string => terminal.screen();
const press = (...keys: string[]): void => terminal.press(...keys);
const until = (what: string, check: () => boolean): Promise<void> => terminal.until(what, check);

/** Requests before the breakpoint: survey's first two turns and the clock's tool-calling turn. */
const BEFORE_THE_TOOL = 3;

/**
 * The child's whole environment, built here so that CI is absent (`.ci/run` exports CI=true,
 * under which the CLI refuses --break and Ink would only draw the last frame).
 */
/**
 * The journal's `model.response` events (the journal holds exactly what --json prints), summed
 * and formatted as the Costs tab's total row and the header show them.
 */
function journalTotals(): { requests: number; line: RegExp; header: string; cost: string } {
  const [runId] = readdirSync(join(stateDir, 'runs'));
  const text = readFileSync(join(stateDir, 'runs', String(runId), 'journal.jsonl'), 'utf8');
  const responses = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((event) => event.type === 'model.response') as unknown as Array<{
    usage: Record<'input' | 'cacheRead' | 'cacheWrite' | 'output' | 'reasoning', number>;
    costPico: string;
  }>;
  const sum = (field: keyof (typeof responses)[number]['usage']): number =>
    responses.reduce((total, event) => total + event.usage[field], 0);
  const cost = responses.reduce((total, event) => total + BigInt(event.costPico), 0n);
  const columns = [
    String(responses.length),
    ...(['input', 'cacheRead', 'cacheWrite', 'output', 'reasoning'] as const).map((field) =>
      formatCount(sum(field)),
    ),
    formatDollars(cost),
  ];
  const escaped = columns.map((column) => column.replaceAll('$', '\\$').replaceAll('.', '\\.'));
  const tokens = sum('input') + sum('cacheRead') + sum('cacheWrite') + sum('output');
  return {
    requests: responses.length,
    line: new RegExp(`^total +${escaped.join(' +')}$`, 'm'),
    header: `${formatCount(tokens)} tok · ${formatDollars(cost)}`,
    cost: formatCost(cost, false),
  };
}

let server: ScriptedModelServer;

beforeAll(async () => {
  server = await ScriptedModelServer.start({ turns: TURNS });
});

afterAll(async () => {
  terminal.close();
  await server.close();
});

describe('sortie run in the TUI (tmux, real CLI, scripted model server)', () => {
  it('holds the tool at its breakpoint, steps one gate, continues, and shows the costs', async () => {
    const args = [
      `run ${PROJECT}`,
      `--var api_key=sk-test-tui --var base_url=${server.baseUrl('openai')}`,
      `--state-dir '${stateDir}' --break tool:${TOOL}`,
      // The screen is the TUI's (stdout); what the CLI says after it goes to a file.
      `2>'${stderrFile}'`,
    ].join(' ');
    terminal.start(sortieCommand(args, exitFile));

    // (a) the tree, and (b) the breakpoint holding the clock's tool call. Tasks appear as they
    // start (no event announces a pending one), so `report` is not there yet.
    await until('the held tool call', () => screen().includes('⏸ clock · held before bui…'));
    const held = screen();
    expect(held).toContain('⏸ PAUSED (1 held)');
    expect(held).toMatch(/^› ▾ ● mission timekeeping +\S/m);
    expect(held).toMatch(/^ {4}▾ ● survey +\S/m);
    expect(held).toMatch(/^ {6}▾ ● commander · waiting for c… +\S/m);
    expect(held).toMatch(/^ {10}⏸ clock · held before bui… +\S/m);
    expect(server.requests.map((request) => request.actor)).toEqual([SURVEY, SURVEY, CLOCK]);
    // Selecting the clock shows the held call's arguments in the detail pane.
    press('j', 'j', 'j');
    await until('the held call in the detail pane', () =>
      screen().includes(`⏸ held before tool ${TOOL}: arguments`),
    );
    expect(screen()).toMatch(/"timezone": "UTC"/);

    // (c) `n` lets exactly one gate point through: the tool runs, the clock's next request waits.
    press('n');
    // The held points come from the gate at once, the events with the store's next repaint:
    // wait for the tree row, which needs both.
    await until('the clock held before its model request', () =>
      /^› {9}⏸ clock · held before mod… +\S/m.test(screen()),
    );
    const stepped = screen();
    expect(stepped).toContain('⏸ PAUSED (1 held)');
    expect(stepped).toContain('⏸ held before model request: 3 messages');
    expect(stepped).toContain(`stepped: tool ${CLOCK} ${TOOL}`);
    expect(stepped).toMatch(new RegExp(`tool ${TOOL} \\(ok in \\d+ms\\)`));
    expect(server.requests).toHaveLength(BEFORE_THE_TOOL);

    // (d) `c` runs to the end; the Costs tab's totals are the journal's.
    press('c');
    await until('the finished run', () => /✓ succeeded/.test(screen()));
    const finished = screen();
    expect(finished).not.toContain('PAUSED');
    expect(finished).toMatch(/^ {4}▾ ✓ survey +\S/m);
    expect(finished).toMatch(/^ {4}▾ ✓ report +\S/m);
    press('2');
    await until('the Costs tab', () => screen().includes('per model'));
    const costs = screen();
    press('q');
    // The shell creates the file before it writes the code: wait for the whole line.
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('0\n');
    server.assertDone();
    const totals = journalTotals();
    expect(totals.requests).toBe(TURNS.length);
    expect(costs).toMatch(totals.line);
    expect(costs).toContain(totals.header);
    // After the TUI: where the run is and what it cost (a succeeded run needs no resume line).
    const [runId] = readdirSync(join(stateDir, 'runs'));
    const journal = join(stateDir, 'runs', String(runId), 'journal.jsonl');
    // Ink's cursor restore (show cursor) also goes to stderr; it is terminal control, not text.
    expect(readFileSync(stderrFile, 'utf8').replaceAll('\u001b[?25h', '')).toBe(
      `run ${runId} succeeded · ${totals.cost} · journal ${journal}\n`,
    );
  }, 120_000);
});
