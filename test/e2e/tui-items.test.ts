/**
 * The item table of a 1,000-item iterated task in the real CLI's TUI (tmux, NO_COLOR=1, mock
 * model, item 7 failing): opened with `5`, filtered by status and text, sorted, and `enter`
 * opening an item's commander in the tree, at 80×24; then the same at 120×40.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const ITEMS = 1_000;
const directory = temporaryDirectorySync('tui-items');
const terminal = new TmuxTerminal(join(directory, 'tmux.socket'), 'items');
const screen = (): string => terminal.screen();
const until = (what: string, check: () => boolean): Promise<void> => terminal.until(what, check);

const items = Array.from({ length: ITEMS }, (_, index) => `{ name = "item ${index}" }`);
const MISSION = `model "mock" {
  provider = "openai"
  api_key  = "sk-test-items"
}

mission "many" {
  directive = "Visit every item"
  commander {
    model = models.mock.gpt_4o_mini
  }

  dataset "things" {
    description = "Things to visit"
    schema = {
      name = string("Name", true)
    }
    items = [${items.join(',\n')}]
  }

  task "visit" {
    objective = "Visit \${item.name}"
    iterator {
      dataset           = datasets.things
      parallel          = true
      concurrency_limit = 50
    }
  }
}
`;
// Item 7's commander answers with text only and then has no answer left: it fails.
const MOCK = `commander:visit[7]:
  - text: I cannot do this.
commander:visit[*]:
  - tool: set_subtasks
    arguments: { subtasks: [Visit the item] }
    usage: { input: 100, output: 10 }
  - tool: complete_subtask
    usage: { input: 110, output: 10 }
  - tool: task_complete
    arguments: { summary: Visited the item. }
    usage: { input: 120, output: 12 }
`;

afterAll(() => {
  terminal.close();
});

/** The screen's lines from the table's title on. */
function table(): string[] {
  const lines = screen().split('\n');
  return lines.slice(lines.findIndex((line) => line.startsWith('items of visit')));
}

describe('the item table of 1,000 items (tmux, real CLI, mock model)', () => {
  it('filters, sorts and opens an item at 80×24, then again at 120×40', async () => {
    const project = join(directory, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'main.hcl'), MISSION);
    writeFileSync(join(directory, 'mock.yaml'), MOCK);
    const exitFile = join(directory, 'exit-code');
    const args = [
      `run '${project}' --mock-model '${join(directory, 'mock.yaml')}' --keep-going`,
      `--state-dir '${join(directory, 'state')}'`,
    ].join(' ');
    terminal.start(sortieCommand(args, exitFile), { columns: 80, rows: 24 });
    terminal.keepPaneOnExit();
    // Room for 1,000 items on a loaded machine: five times the usual 30 s.
    await terminal.until(
      'the finished run',
      () => screen().includes('run finished — q to quit'),
      150_000,
    );

    terminal.press('5');
    await until('the item table', () => screen().includes('items of visit'));
    expect(screen()).toContain('[5 Items]');
    expect(table().slice(0, 4)).toEqual([
      'items of visit · 1,000 of 1,000 items · status all',
      '    #▲ status     retries  turns   tokens     cost     time  output / error',
      expect.stringMatching(/^› {4}0 succeeded {8}0 {6}3 {6}362 {2}\$0\.0001 +\d+(\.\d)?m?s$/),
      expect.stringMatching(/^ {5}1 succeeded {8}0 {6}3 {6}362 /),
    ]);
    expect(screen()).toMatch(
      /^ {5}7 failed {11}0 {6}1 +0 +\$0\.0000 +\S+ {2}no mock answer for…$/m,
    );

    // `t` steps the status filter: running, succeeded, failed.
    terminal.press('t', 't', 't');
    await until('only the failed item', () =>
      screen().includes('1 of 1,000 items · status failed'),
    );
    expect(table()[2]).toMatch(/^› {4}7 failed /);
    expect(table()[3]).toBe('');

    // Back to every item, sorted by turns (`s` × 3) in reverse: the failed item's one turn last.
    terminal.press('t', 's', 's', 's', 'S');
    await until('the sort by turns', () => screen().includes('turns▼'));
    // 24 rows leave 16 rows of items; a page moves the cursor 17.
    terminal.press(...Array.from({ length: 60 }, () => 'PageDown'));
    await until('the last row', () => /^› {4}7 failed /m.test(screen()));

    terminal.press('/', '9', '9', '9', 'Enter');
    await until('the text filter', () =>
      screen().includes('1 of 1,000 items · status all · filter "999"'),
    );
    expect(table()[2]).toMatch(/^› {2}999 succeeded {8}0 {6}3 {6}362 /);

    terminal.press('Enter');
    await until('the commander in the tree', () => screen().includes('▸ ✓ commander:visit[999]'));
    expect(screen()).toContain('[1 Tree]');

    terminal.tmux('resize-window', '-t', 'items', '-x', '120', '-y', '40');
    terminal.press('5', '/', 'Escape');
    // 40 rows leave 32 rows of items under the title and the heading.
    const itemLines = (): string[] =>
      table().filter((line) => /^[ ›] +\d+ (succeeded|failed) /.test(line));
    await until('the table at 40 rows', () => itemLines().length === 32);
    expect(table()[0]).toBe('items of visit · 1,000 of 1,000 items · status all');
    expect(table()[1]).toBe(
      '     # status     retries turns▼   tokens     cost     time  output / error',
    );
    terminal.press('t', 't', 't');
    await until('the failed item at 120 columns', () => screen().includes('status failed'));
    expect(table()[2]).toMatch(
      /^› {4}7 failed {11}0 {6}1 +0 +\$0\.0000 +\S+ {2}no mock answer for commander:visit\[7\] \(turn 2\): its 1 answ…$/,
    );

    // Sort, filter and open at 120×40 too: every item again, by tokens, the fewest first.
    terminal.press('t', 's', 'S');
    await until('the sort by tokens at 120 columns', () => screen().includes('tokens▲'));
    expect(table()[0]).toBe('items of visit · 1,000 of 1,000 items · status all');
    expect(table()[2]).toMatch(/^› {4}7 failed /);
    terminal.press('/', '5', '5', '5', 'Enter');
    await until('the text filter at 120 columns', () =>
      screen().includes('1 of 1,000 items · status all · filter "555"'),
    );
    expect(table()[2]).toMatch(/^› +555 succeeded +0 +3 +362 /);
    terminal.press('Enter');
    await until('the commander at 120 columns', () =>
      screen().includes('▸ ✓ commander:visit[555]'),
    );
    expect(screen()).toContain('[1 Tree]');

    terminal.press('q');
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await until('the CLI to exit', () => exitCode().endsWith('\n'));
    // Item 7 failed: the run failed with it.
    expect(exitCode()).toBe('1\n');
  }, 180_000);
});
