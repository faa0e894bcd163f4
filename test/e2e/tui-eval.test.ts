/**
 * `sortie eval`'s live table in a real terminal (tmux, NO_COLOR=1) at 80×24 and 120×40: the
 * real CLI against the scripted model server, two variants whose greeter models answer
 * differently. The greeter's answers for Grace are held until the table shows Ada's row filled
 * and Grace's still waiting; then the table gives way to the report and the exit code is 1.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModelServer, type ScriptTurn } from '../../src/testing/index.ts';
import { ROOT } from './cli-child.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const EVAL = `eval "models" {
  mission     = "hello"
  concurrency = 4

  case "ada" {
    inputs = { name = "Ada" }
    expect "summary" {
      contains = "Hello"
    }
  }
  case "grace" {
    inputs = { name = "Grace" }
  }

  variant "mini" {}
  variant "big" {
    agent_models = { greeter = models.openai.gpt_4o }
  }
}
`;

const directory = temporaryDirectorySync('tui-eval');
let server: ScriptedModelServer;
/** Lets the held answers for Grace go; replaced for each terminal size. */
let releaseGrace: () => void = () => undefined;
let graceHeld: Promise<void> = Promise.resolve();

/** gpt-4o greets by name, gpt-4o-mini says "Hi."; the commander reports what it got. */
function respond(request: {
  actor: string | undefined;
  summary: { model: string; allText: string };
  body: unknown;
}): ScriptTurn | undefined {
  const { actor, summary } = request;
  if (actor === 'agent:greet/greeter') {
    const grace = summary.allText.includes('Grace');
    const text = summary.model === 'gpt-4o' ? `Hello, ${grace ? 'Grace' : 'Ada'}!` : 'Hi.';
    return { text, ...(grace ? { heldUntil: graceHeld } : {}) };
  }
  const input = (request.body as { input?: Array<{ type?: string }> }).input ?? [];
  const results = input.filter((item) => item.type === 'function_call_output').length;
  const greeted = summary.allText.includes('Hello, ') ? 'Hello there!' : 'Hi.';
  const person = summary.allText.includes('Grace') ? 'Grace' : 'Ada';
  const calls = [
    { name: 'set_subtasks', arguments: { subtasks: ['Ask for a greeting'] } },
    { name: 'call_agent', arguments: { name: 'greeter', task: `Write a greeting for ${person}` } },
    { name: 'complete_subtask', arguments: {} },
    { name: 'task_complete', arguments: { summary: greeted } },
  ];
  const call = calls[results];
  return call === undefined ? undefined : { toolCalls: [call] };
}

/** examples/hello with its models at the scripted server, and the eval above. */
function project(name: string): string {
  const root = join(directory, name);
  mkdirSync(join(root, '.evals'), { recursive: true });
  const hello = readFileSync(join(ROOT, 'examples/hello/main.hcl'), 'utf8');
  writeFileSync(
    join(root, 'main.hcl'),
    hello.replace(
      'api_key  = vars.openai_api_key',
      'api_key  = vars.openai_api_key\n  base_url = vars.openai_base_url',
    ) + '\nvariable "openai_base_url" {}\n',
  );
  writeFileSync(join(root, '.evals', 'models.hcl'), EVAL);
  return root;
}

beforeAll(async () => {
  server = await ScriptedModelServer.start({ turns: [], respond });
});

afterAll(async () => {
  releaseGrace();
  await server.close();
});

describe('sortie eval live table (tmux, real CLI, NO_COLOR=1)', () => {
  it.each([
    { columns: 80, rows: 24 },
    { columns: 120, rows: 40 },
  ])(
    'fills the cells at $columns×$rows as runs finish, then prints the report',
    async (size) => {
      graceHeld = new Promise((resolve) => (releaseGrace = resolve));
      const name = `${size.columns}x${size.rows}`;
      const root = project(name);
      const exitFile = join(directory, `${name}.exit`);
      const terminal = new TmuxTerminal(join(directory, `${name}.socket`), 'eval');
      try {
        const args = [
          `eval '${root}'`,
          `--var openai_api_key=sk-test --var openai_base_url=${server.baseUrl('openai')}`,
          `--state-dir '${join(root, 'state')}'`,
        ].join(' ');
        terminal.start(sortieCommand(args, exitFile, { SORTIE_RUN_SOURCES: '1' }), size);
        terminal.keepPaneOnExit();
        await terminal.until('the table', () => terminal.screen().includes('case   mini'));
        await terminal.until('Ada finished and Grace held', () =>
          terminal.screen().includes('runs 2/4 · running 2'),
        );
        const table = terminal.screen();
        expect(table.split('\n').slice(0, 8)).toEqual([
          'eval models · mission hello · 2 variants × 2 cases × 1 repeats',
          '',
          'case   mini   big',
          'ada    0/1 ✗  1/1 ✓',
          'grace  ·      ·',
          '',
          'runs 2/4 · running 2 · $0.0000 spent',
          '',
        ]);

        releaseGrace();
        const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
        await terminal.until('the CLI to exit', () => exitCode().endsWith('\n'));
        expect(exitCode()).toBe('1\n');
        const scrollback = terminal.scrollback();
        expect(scrollback).not.toContain('running');
        expect(scrollback).toContain(
          [
            'case   mini' + ' '.repeat(19) + 'big',
            'ada    0/1 0% ✗ (needs 100%)  1/1 100% ✓',
            'grace  1/1 100% ✓' + ' '.repeat(13) + '1/1 100% ✓',
          ].join('\n'),
        );
        expect(scrollback).toContain('failed: 1 of 4 cells below their threshold\n');
      } finally {
        terminal.close();
      }
    },
    120_000,
  );
});
