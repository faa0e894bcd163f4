import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { jsonLines } from './agent-tools-harness.ts';
import { sortieAsync, sortieSync as sortie } from './cli-child.ts';
import { until } from '../helpers/until.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const ROOT = join(import.meta.dirname, '../..');
const DEMO = ['run', 'examples/hello', '--replay-model', 'examples/hello/cassette.jsonl'];
const ENV = { NO_COLOR: '1', FORCE_COLOR: undefined, CI: '1', OPENAI_API_KEY: undefined };

/** Journal lines of the only run in a state directory. */
function onlyJournal(stateDir: string): Array<Record<string, unknown>> {
  const [runId] = readdirSync(join(stateDir, 'runs'));
  const text = readFileSync(join(stateDir, 'runs', String(runId), 'journal.jsonl'), 'utf8');
  // A journal line ends with its checksum (`$crc`), which the --json output does not carry.
  return jsonLines(text);
}

/** Replaces the run id and elapsed prefixes, which differ between runs. */
function stable(text: string, runId: string): string {
  return text.replaceAll(runId, 'RUN_ID').replace(/^\d\d:\d\d\.\d /gm, 'mm:ss.d ');
}

describe('the offline demo (child process)', () => {
  const stateDir = temporaryDirectorySync('demo');
  let run: ReturnType<typeof sortie>;
  let runId = '';

  beforeAll(() => {
    run = sortie([...DEMO, '--state-dir', stateDir]);
    runId = String(onlyJournal(stateDir)[0]?.runId);
  });

  it('runs the hello mission from its cassette with no key and exits 0', () => {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = stable(run.stdout, runId).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      `mm:ss.d run  started run RUN_ID (mission hello) · journal ${join(stateDir, 'runs', 'RUN_ID', 'journal.jsonl')}`,
      'mm:ss.d mission:hello  started · inputs {"name":"world"}',
      'mm:ss.d task:greet  started',
    ]);
    expect(lines.slice(-8)).toEqual([
      'mm:ss.d mission:hello  succeeded · 1 task · 6,344 tokens · $0.0008',
      expect.stringMatching(/^mm:ss\.d run {2}succeeded · exit 0 · (\d+ms|\d+\.\ds) · \$0\.0008$/),
      'tasks:',
      '  greet  succeeded  The greeter wrote: Hello, world! It is good to have you here; may your day be bright and easy.',
      'costs:',
      '  openai.gpt_4o_mini  5 requests  6,344 tokens  $0.0008',
      '  total               5 requests  6,344 tokens  $0.0008',
      '',
    ]);
  });

  it('ships a cassette that says it is scripted, not real model output', () => {
    const cassette = readFileSync(join(ROOT, 'examples/hello/cassette.jsonl'), 'utf8');
    const header = JSON.parse(cassette.slice(0, cassette.indexOf('\n'))) as { note: string };
    expect(header.note.startsWith('scripted, not real model output')).toBe(true);
  });

  it('journals the run: run.started first, run.finished succeeded last', () => {
    const journal = onlyJournal(stateDir);
    expect(journal[0]).toMatchObject({ type: 'run.started', seq: 1, mission: 'hello' });
    expect(journal.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'succeeded',
      exitCode: 0,
    });
  });

  it('lists the run and shows its summary', () => {
    const runs = sortie(['runs', '--state-dir', stateDir]);
    expect(runs.status).toBe(0);
    expect(runs.stdout.split('\n')[1]).toMatch(
      new RegExp(`^${runId} +hello +succeeded .* 6,344 +\\$0\\.0008$`),
    );
    const show = sortie(['show', runId.slice(0, 20), '--state-dir', stateDir]);
    expect(show.status).toBe(0);
    expect(show.stdout.split('\n')[0]).toBe(`run ${runId} · hello · succeeded`);
  });

  it('replays the journal as the same line log the run printed', () => {
    const replay = sortie(['replay', runId, '--state-dir', stateDir]);
    expect(replay).toEqual({ status: 0, stdout: run.stdout, stderr: '' });
    const journalFile = join(stateDir, 'runs', runId, 'journal.jsonl');
    expect(sortie(['replay', journalFile]).stdout).toBe(run.stdout);
  });

  it('colours the line log on a pipe only when FORCE_COLOR asks', () => {
    expect(run.stdout).not.toContain('\u001b[');
    const colored = spawnSync(
      process.execPath,
      ['bin/sortie.js', 'replay', runId, '--state-dir', stateDir],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, ...ENV, NO_COLOR: undefined, FORCE_COLOR: '1' },
      },
    );
    expect(colored.stdout).toContain('\u001b[32msucceeded\u001b[39m');
  });

  it('prints exactly the journal as JSON lines with --json', () => {
    const jsonState = temporaryDirectorySync('json');
    const result = sortie([...DEMO, '--json', '--state-dir', jsonState]);
    expect(result.status).toBe(0);
    const printed = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(printed).toEqual(onlyJournal(jsonState));
    const seqs = printed.map((event) => Number(event.seq));
    expect(seqs.every((seq, index) => index === 0 || seq > (seqs[index - 1] ?? 0))).toBe(true);
    expect(printed.some((event) => event.type === 'model.delta')).toBe(false);
  });

  it('fails the run (exit 1) with a readable diff when the cassette does not fit', () => {
    const result = sortie([...DEMO, '--input', 'name=Ada', '--state-dir', stateDir]);
    expect(result.status).toBe(1);
    const summary = result.stdout.slice(result.stdout.indexOf('tasks:\n'));
    expect(summary.split('\n').slice(0, 4)).toEqual([
      'tasks:',
      '  greet  failed  model request of commander:greet (turn 1) differs from the cassette in messages:',
      '      --- cassette',
      '      +++ this run',
    ]);
    expect(summary).toContain('      -         "text": "Write a greeting for world",\n');
    expect(summary).toContain('      +         "text": "Write a greeting for Ada",\n');
  });
});

describe('cancelling a run with Ctrl-C (child process)', () => {
  let server: ScriptedModelServer;

  beforeAll(async () => {
    server = await ScriptedModelServer.start({
      turns: [{ match: { actor: 'commander:linger' }, text: 'finally', delayMs: 60_000 }],
    });
  });

  afterAll(async () => {
    await server.close();
  });

  it('cancels on SIGINT, journals run.finished cancelled and exits 130', async () => {
    const stateDir = temporaryDirectorySync('cancel');
    const child = spawn(
      process.execPath,
      [
        'bin/sortie.js',
        'run',
        'test/cli/fixtures/slow',
        '--var',
        'api_key=sk-test-cancel',
        '--var',
        `base_url=${server.baseUrl('openai')}`,
        '--state-dir',
        stateDir,
      ],
      { cwd: ROOT, env: { ...process.env, ...ENV }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    await until('the first model request', () => server.requests.length > 0);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const journal = onlyJournal(stateDir);
    expect(journal.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'cancelled',
      exitCode: 130,
    });
    expect(stdout).toContain('run  cancelled · exit 130');
    const [runId] = readdirSync(join(stateDir, 'runs'));
    const journalText = readFileSync(
      join(stateDir, 'runs', String(runId), 'journal.jsonl'),
      'utf8',
    );
    expect(journalText).not.toContain('sk-test-cancel');
    expect(stdout).not.toContain('sk-test-cancel');
  }, 60_000);
});

describe('recording a cassette with --record, then replaying it (child process)', () => {
  let server: ScriptedModelServer;

  beforeAll(async () => {
    server = await ScriptedModelServer.start({
      turns: [
        { name: 'set_subtasks', arguments: { subtasks: ['Linger'] } },
        { name: 'complete_subtask', arguments: {} },
        { name: 'task_complete', arguments: { summary: 'Lingered briefly.' } },
      ].map((call) => ({
        match: { actor: 'commander:linger' },
        toolCalls: [call],
        usage: { input: 500, output: 20 },
      })),
    });
  });

  afterAll(async () => {
    await server.close();
  });

  it('records the run redacted, and the cassette replays it with no key and no server', async () => {
    const directory = temporaryDirectorySync('record');
    const cassette = join(directory, 'cassette.jsonl');
    const stateDir = join(directory, 'state');
    const recorded = await sortieAsync([
      'run',
      'test/cli/fixtures/slow',
      '--var',
      'api_key=sk-test-record-secret',
      '--var',
      `base_url=${server.baseUrl('openai')}`,
      '--record',
      cassette,
      '--state-dir',
      stateDir,
      '--quiet',
    ]);
    expect(recorded.stderr).toBe('');
    expect(recorded.status).toBe(0);
    const lines = readFileSync(cassette, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(String(lines[1]))).toMatchObject({ actor: 'commander:linger', turn: 1 });
    expect(lines.join('\n')).not.toContain('sk-test-record-secret');
    const replayed = await sortieAsync([
      'run',
      'test/cli/fixtures/slow',
      '--replay-model',
      cassette,
      '--state-dir',
      stateDir,
      '--quiet',
    ]);
    expect(replayed).toEqual({ status: 0, stdout: recorded.stdout, stderr: '' });
    expect(replayed.stdout.split('\n').slice(0, 2)).toEqual([
      'tasks:',
      '  linger  succeeded  Lingered briefly.',
    ]);
  }, 60_000);
});

describe('the built CLI', () => {
  it('is absent or newer than every source file (bin/sortie.js prefers dist/)', () => {
    const built = join(ROOT, 'dist/cli/main.js');
    let builtAt: number;
    try {
      builtAt = statSync(built).mtimeMs;
    } catch {
      return;
    }
    const newest = (directory: string): number =>
      Math.max(
        0,
        ...readdirSync(directory, { withFileTypes: true }).map((entry) =>
          entry.isDirectory()
            ? newest(join(directory, entry.name))
            : statSync(join(directory, entry.name)).mtimeMs,
        ),
      );
    expect(builtAt).toBeGreaterThanOrEqual(newest(join(ROOT, 'src')));
  });
});
