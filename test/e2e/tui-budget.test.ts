/**
 * A budget's warning in the real CLI's TUI (tmux, scripted model server, NO_COLOR=1), at the
 * smallest screen it promises and a larger one: the run holds, the prompt shows what was spent
 * and the choices, keys raise the limit, and the run finishes past its old limit with the raise
 * in its journal.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { call } from '../helpers/script-turns.ts';
import { cleanUpAll, writeProject } from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';

/** Three commander turns of 110 tokens: 330 in all, past the task's limit of 250. */
const TURNS = [
  call('set_subtasks', { subtasks: ['Work'] }),
  call('complete_subtask'),
  call('task_complete', { summary: 'Done' }),
];

const PROJECT = `
mission "m" {
  commander {
    model = MODEL
  }
  task "t" {
    objective = "Work"
    budget {
      tokens = 250
    }
  }
}
`;

const opened: Array<{ close(): unknown }> = [];

afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close();
  await cleanUpAll();
});

/** The journal's events of the one run in `stateDir`. */
function journalEvents(stateDir: string): Array<Record<string, unknown>> {
  const [runId] = readdirSync(join(stateDir, 'runs'));
  const text = readFileSync(join(stateDir, 'runs', runId ?? '', 'journal.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('a budget warning in the TUI (tmux, real CLI)', () => {
  it.each([
    { columns: 80, rows: 24, keys: ['600', 'Enter'], to: 600, how: 'typed' },
    { columns: 120, rows: 40, keys: ['*'], to: 500, how: 'double' },
  ])(
    'holds the run at $columns×$rows, raises the limit on keys and finishes past the old one',
    async ({ columns, rows, keys, to, how }) => {
      const server = await ScriptedModelServer.start({ turns: TURNS });
      opened.push(server);
      const dir = await temporaryDirectory('tui-budget');
      const stateDir = join(dir, 'state');
      const exitFile = join(dir, 'exit-code');
      const terminal = new TmuxTerminal(join(dir, 'tmux.socket'), 'budget');
      opened.push(terminal);
      const command = [
        `run '${await writeProject(PROJECT)}'`,
        `--var api_key=sk-test-budget --var base_url=${server.baseUrl('openai')}`,
        `--state-dir '${stateDir}'`,
      ].join(' ');
      terminal.start(sortieCommand(command, exitFile), { columns, rows });

      // Four times the usual wait: the CLI's first screen comes slowly on a busy machine.
      await terminal.until('the budget prompt', () => terminal.screen().includes('> ▌'), 120_000);
      await terminal.until('the held run', () => terminal.screen().includes('PAUSED (1 held)'));
      expect(terminal.screen()).toContain(
        [
          '! Budget warning: task "t" has used 88% of its limit',
          '  spent 220 of 250 tokens',
          '  The run is held: every actor stops at its next step until you choose.',
          '',
          '  +    raise it by half, to 375 tokens',
          '  *    double it, to 500 tokens',
          '  or type a new limit (tokens) and press enter',
          '  n    go on without raising (the work fails at 250 tokens)',
          '  esc  choose later (the run stays held; $ opens this again)',
          '',
          '> ▌',
        ].join('\n'),
      );
      // Only two turns were sent: the third waits for the person.
      expect(server.requests).toHaveLength(2);

      // Every key in one send-keys call: one read of the terminal.
      terminal.press(...keys);
      await terminal.until('the finished run', () => terminal.screen().includes('✓ succeeded'));
      terminal.press('q');
      const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
      await terminal.until('the CLI to exit', () => exitCode().endsWith('\n'));
      expect(exitCode()).toBe('0\n');
      expect(server.requests).toHaveLength(3);

      const events = journalEvents(stateDir);
      expect(events.filter((event) => String(event.type).startsWith('budget.'))).toMatchObject([
        { type: 'budget.warning', actor: 'commander:t', metric: 'tokens', used: 220, limit: 250 },
        {
          type: 'budget.raised',
          actor: 'task:t',
          scope: 'task',
          subject: 't',
          metric: 'tokens',
          from: 250,
          to,
          how,
        },
      ]);
      expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'succeeded' });
    },
    120_000,
  );
});
