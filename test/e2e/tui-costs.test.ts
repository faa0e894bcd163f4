/**
 * The Costs tab of the research example, replayed from its committed cassette by the real CLI
 * in tmux with NO_COLOR=1: at 80×24 its two Anthropic models and its actors are named apart
 * (`claude_haiku_4_5`, not `anthro…ku_4_5`), at 120×40 every name is whole.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const directory = temporaryDirectorySync('tui-costs');
const terminals: TmuxTerminal[] = [];

afterAll(() => {
  for (const terminal of terminals) terminal.close();
});

/** Replays the research example at `columns`×`rows` and returns the finished run's Costs tab. */
async function costsTab(columns: number, rows: number): Promise<string> {
  const name = `costs-${columns}`;
  const terminal = new TmuxTerminal(join(directory, `${name}.socket`), name);
  terminals.push(terminal);
  const exitFile = join(directory, `${name}.exit`);
  const args = [
    `run examples/research --input 'question=Why is the sky blue?'`,
    '--replay-model examples/research/cassette.jsonl',
    `--state-dir '${join(directory, name)}'`,
  ].join(' ');
  terminal.start(sortieCommand(args, exitFile), { columns, rows });
  terminal.keepPaneOnExit();
  const screen = (): string => terminal.screen();
  await terminal.until('the finished run', () => screen().includes('run finished — q to quit'));
  terminal.press('2');
  await terminal.until('the Costs tab', () => screen().includes('per model'));
  const costs = screen();
  terminal.press('q');
  const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
  await terminal.until('the CLI to exit', () => exitCode().endsWith('\n'));
  expect(exitCode()).toBe('0\n');
  // The header above the tabs shortens the run id with `…`; the tab's own lines start below.
  return costs.split('\n').slice(2).join('\n');
}

describe('the Costs tab of the research example (tmux, real CLI, replayed cassette)', () => {
  it('names the two Anthropic models and the actors apart at 80×24', async () => {
    const costs = await costsTab(80, 24);
    expect(costs).toMatch(/^ +req +input +cache rd +cache wr +output +reasoning +dollars$/m);
    expect(costs).toMatch(
      /^per model +req +input +cache rd +cache wr +output +reasoning +dollars$/m,
    );
    expect(costs).toMatch(/^claude_haiku_4_5 +18 +30,240 +18,432 +0 +993 +0 +\$0\.0370$/m);
    expect(costs).toMatch(/^claude_sonnet_4_6 +2 +1,780 +0 +0 +360 +~264 +\$0\.0107$/m);
    expect(costs).toMatch(/^openai\.gpt_4_1_mini +1 +640 +0 +0 +150 +0 +\$0\.0005$/m);
    expect(costs).toMatch(/^commander:gather +4 +6,040 /m);
    expect(costs).toMatch(/^agent:gather\/researcher\n +1 +820 /m);
    expect(costs).not.toContain('…');
    expect(Math.max(...costs.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  }, 60_000);

  it('keeps every model and actor name whole beside its figures at 120×40', async () => {
    const costs = await costsTab(120, 40);
    expect(costs).toMatch(/^anthropic\.claude_haiku_4_5 +18 +30,240 /m);
    expect(costs).toMatch(/^anthropic\.claude_sonnet_4_6 +2 +1,780 /m);
    for (const actor of ['commander:gather', 'agent:analyze/researcher', 'agent:publish/writer']) {
      expect(costs).toMatch(new RegExp(`^${actor} +\\d+ +[\\d,]+ `, 'm'));
    }
    expect(costs).not.toContain('…');
  }, 60_000);
});
