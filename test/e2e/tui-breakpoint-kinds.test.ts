/**
 * Issue 30's breakpoints on what goes wrong, through the real CLI's TUI in tmux (NO_COLOR=1) at
 * 80×24 and 120×40: `--break stall|loop|cost:USD|tokens:N|route|error` each holds the run at
 * the point the engine tests name, the screen says which breakpoint held it and at what, and
 * `c` lets the run finish with exit 0.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptTurn } from '../../src/testing/index.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { cleanUpAll, startModelServer, writeProject } from './agent-tools-harness.ts';
import { HCL, ROUTER_HCL } from './breakpoint-projects.ts';
import { call, plainTask } from './engine-harness.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';

/** One breakpoint kind: its project, script, flag and what the held screen shows. */
interface Kind {
  breakpoint: string;
  hcl: string;
  turns: ScriptTurn[];
  /** The held actor (its Events tab line names the breakpoint). */
  actor: string;
  /** What the held tree shows at either size: the mark, the held row or the header's spend. */
  shows: string;
}

const COMMANDER = 'commander:greet';
const withUsage = (turns: ScriptTurn[], input: number): ScriptTurn[] =>
  turns.map((turn) => ({ ...turn, usage: { input, output: 10 } }));

const KINDS: Kind[] = [
  {
    breakpoint: 'stall',
    hcl: HCL,
    turns: plainTask(
      'greet',
      'greeter',
      'Greeted',
      ['Plan', 'Plan again', 'Plan once more', 'Still planning'].map((step) =>
        call(COMMANDER, 'set_subtasks', { subtasks: [step] }),
      ),
    ),
    actor: COMMANDER,
    shows: '⏸ commander ⚠ stall',
  },
  {
    breakpoint: 'loop',
    hcl: HCL,
    turns: plainTask(
      'greet',
      'greeter',
      'Greeted',
      [1, 2, 3].map(() => call(COMMANDER, 'get_subtasks')),
    ),
    actor: COMMANDER,
    shows: '⏸ commander ⚠ loop',
  },
  {
    breakpoint: 'tokens:300',
    hcl: HCL,
    turns: withUsage(plainTask('greet', 'greeter', 'Greeted'), 100),
    actor: COMMANDER,
    shows: '330 tok · $0.0001 ⏸ PAUSED (1 held)',
  },
  {
    breakpoint: 'cost:0.02',
    hcl: HCL,
    // gpt-4o-mini input at $0.15 per million: each turn costs $0.015, the second crosses $0.02.
    turns: withUsage(plainTask('greet', 'greeter', 'Greeted'), 100_000),
    actor: COMMANDER,
    shows: '200,020 tok · $0.0300 ⏸ PAUSED (1 held)',
  },
  {
    breakpoint: 'route',
    hcl: ROUTER_HCL,
    turns: [
      call('commander:decide', 'set_subtasks', { subtasks: ['Judge'] }),
      call('commander:decide', 'complete_subtask'),
      call('commander:decide', 'task_complete', { summary: 'Good', route: 'publish' }),
      ...plainTask('publish', null, 'Published'),
    ],
    actor: 'commander:decide',
    shows: '⏸ commander · held befor',
  },
  {
    breakpoint: 'error',
    hcl: HCL,
    turns: [
      call(COMMANDER, 'set_subtasks', { subtasks: ['Greet'] }),
      call(COMMANDER, 'call_agent', { name: 'greeter', task: 'Greet' }),
      {
        match: { actor: 'agent:greet/greeter' },
        toolCalls: [{ name: 'no_such_tool', arguments: {} }],
      },
      { match: { actor: 'agent:greet/greeter' }, text: 'Hello' },
      call(COMMANDER, 'complete_subtask'),
      call(COMMANDER, 'task_complete', { summary: 'Greeted' }),
    ],
    actor: 'agent:greet/greeter',
    shows: '⏸ greeter · held befor',
  },
];

const SIZES = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 },
];

afterEach(cleanUpAll);

/** The CLI's exit code, once it has written one. */
const exitCodeOf = (exitFile: string): string =>
  existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '';

describe('breakpoints on what goes wrong, in the TUI (tmux, real CLI)', () => {
  for (const kind of KINDS) {
    for (const size of SIZES) {
      it(`--break ${kind.breakpoint} at ${size.columns}×${size.rows}`, async () => {
        const server = await startModelServer(kind.turns);
        const project = await writeProject(kind.hcl);
        const dir = await temporaryDirectory('tui-breaks');
        const exitFile = join(dir, 'exit-code');
        const terminal = new TmuxTerminal(join(dir, 'tmux.socket'), 'breaks');
        try {
          const mission = kind.hcl === ROUTER_HCL ? 'route' : 'hello';
          const args = [
            `run '${project}' ${mission}`,
            `--var api_key=sk-test-breaks --var base_url=${server.baseUrl('openai')}`,
            `--state-dir '${join(dir, 'state')}' --break ${kind.breakpoint}`,
            `2>'${join(dir, 'stderr')}'`,
          ].join(' ');
          terminal.start(sortieCommand(args, exitFile), size);
          await terminal.until(`the hold showing ${kind.shows}`, () => {
            const screen = terminal.screen();
            return screen.includes('PAUSED (1 held)') && screen.includes(kind.shows);
          });
          // The Events tab's gate.paused line names the breakpoint and the held actor.
          terminal.press('3');
          const line = new RegExp(
            `^ *\\d+ [\\d:.]+ ${kind.actor} +gate\\.paused +breakpoint ${kind.breakpoint.replaceAll('.', '\\.')}: paused`,
            'm',
          );
          await terminal.until('the hold in the Events tab', () => line.test(terminal.screen()));
          terminal.press('1', 'c');
          await terminal.until('the finished run', () => terminal.screen().includes('✓ succeeded'));
          terminal.press('q');
          await terminal.until('the CLI to exit', () => exitCodeOf(exitFile).endsWith('\n'));
          expect(exitCodeOf(exitFile)).toBe('0\n');
          server.assertDone();
        } finally {
          terminal.close();
        }
      }, 60_000);
    }
  }
});

describe('a spend breakpoint typed into the TUI breakpoint list (tmux, real CLI)', () => {
  const cost = KINDS.find((kind) => kind.breakpoint === 'cost:0.02');
  for (const size of SIZES) {
    it(`holds at the spend crossing cost:0.02 typed during a --step run at ${size.columns}×${size.rows}`, async () => {
      if (cost === undefined) throw new Error('the cost:0.02 kind is missing');
      const server = await startModelServer(cost.turns);
      const project = await writeProject(cost.hcl);
      const dir = await temporaryDirectory('tui-typed-break');
      const exitFile = join(dir, 'exit-code');
      const terminal = new TmuxTerminal(join(dir, 'tmux.socket'), 'typed');
      try {
        const args = [
          `run '${project}' hello`,
          `--var api_key=sk-test-breaks --var base_url=${server.baseUrl('openai')}`,
          `--state-dir '${join(dir, 'state')}' --step`,
          `2>'${join(dir, 'stderr')}'`,
        ].join(' ');
        terminal.start(sortieCommand(args, exitFile), size);
        // --step holds the first model request, before anything is spent.
        await terminal.until('the first hold', () =>
          terminal.screen().includes('0 tok · $0.0000 ⏸ PAUSED (1 held)'),
        );
        terminal.press('B', 'a');
        await terminal.until('the typed line', () => terminal.screen().includes('add: ▌'));
        terminal.press('cost:0.02', 'Enter');
        await terminal.until('the breakpoint set', () =>
          terminal.screen().includes('▸ [x] cost:0.02'),
        );
        expect(terminal.screen()).toContain('breakpoint cost:0.02 set');
        terminal.press('Escape');
        await terminal.until('the list closed', () => !terminal.screen().includes('Breakpoints —'));
        terminal.press('c');
        // The second turn takes the spend to $0.03, past the line: the next point holds.
        await terminal.until('the hold at the crossing', () =>
          terminal.screen().includes(cost.shows),
        );
        terminal.press('3');
        const line = /^ *\d+ [\d:.]+ commander:greet +gate\.paused +breakpoint cost:0\.02: paused/m;
        await terminal.until('the hold in the Events tab', () => line.test(terminal.screen()));
        terminal.press('1', 'c');
        await terminal.until('the finished run', () => terminal.screen().includes('✓ succeeded'));
        terminal.press('q');
        await terminal.until('the CLI to exit', () => exitCodeOf(exitFile).endsWith('\n'));
        expect(exitCodeOf(exitFile)).toBe('0\n');
        server.assertDone();
      } finally {
        terminal.close();
      }
    }, 90_000);
  }
});
