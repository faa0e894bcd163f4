/**
 * File-system failures through the real CLI: each is a usage error (exit 2) with a message
 * naming the path and the reason — never "internal error", a stack trace or a hang. A full
 * disk is real: `/dev/full` answers every write with ENOSPC, and a file-size limit
 * (`ulimit -f`, RLIMIT_FSIZE) makes the journal's writes fail with EFBIG part-way through a run.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/journal/reader.ts';
import { summarizeRun } from '../../src/journal/summary.ts';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import {
  EXPECTED_OUTPUTS,
  RESUME_PROJECT,
  respondToResumable,
} from '../actors/resume/resume-fixture.ts';
import { runChild, sortieSync as sortie } from './cli-child.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const HELLO = ['examples/hello', '--replay-model', 'examples/hello/cassette.jsonl'];
const HINT = 'hint: point --state-dir or SORTIE_HOME at a folder sortie can write\n';
const temporary = temporaryDirectorySync('cli-files');

/** A new folder under the test's temporary folder. */
function folder(name: string): string {
  const path = join(temporary, name);
  mkdirSync(path, { recursive: true });
  return path;
}

// Sequential: each child is awaited synchronously, so concurrency would only stack timeouts.
describe('a state directory sortie cannot use (child process)', () => {
  const file = join(folder('state-file'), 'not-a-folder');
  writeFileSync(file, 'x');

  it('refuses --state-dir naming a file, for run and for the commands that read runs', () => {
    const message = `error: cannot use the state directory ${file} (from --state-dir): it is a file, not a folder\n${HINT}`;
    for (const args of [['run', ...HELLO], ['runs'], ['show', 'r-1'], ['replay', 'r-1']]) {
      expect(sortie([...args, '--state-dir', file])).toEqual({
        status: 2,
        stdout: '',
        stderr: message,
      });
    }
  }, 60_000);

  it('refuses SORTIE_HOME below a file, naming the file', () => {
    const below = join(file, 'state');
    expect(sortie(['run', ...HELLO], { SORTIE_HOME: below })).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: cannot use the state directory ${below} (from SORTIE_HOME): ${file} is a file, not a folder\n${HINT}`,
    });
  });

  // procfs answers ENOENT to mkdir of a new folder, which sends Node's recursive mkdir into
  // an endless loop at full CPU; before the fix this child never exited.
  it.runIf(existsSync('/proc/self'))('refuses a state directory inside /proc at once', () => {
    expect(sortie(['run', ...HELLO, '--state-dir', '/proc/sortie-state'])).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: cannot use the state directory /proc/sortie-state (from --state-dir): cannot create the folder /proc/sortie-state: this file system does not allow creating it\n${HINT}`,
    });
  });
});

describe('run files that are folders (child process)', () => {
  it('refuses --record naming a folder before the run starts', () => {
    const target = folder('record-folder');
    const stateDir = join(temporary, 'record-folder-state');
    expect(
      sortie([
        'run',
        'examples/hello',
        '--record',
        target,
        '--var',
        'openai_api_key=sk-test',
        '--state-dir',
        stateDir,
      ]),
    ).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: --record ${target}: cannot open ${target}: it is a folder, not a file\n`,
    });
    expect(existsSync(join(stateDir, 'runs')) ? readdirSync(join(stateDir, 'runs')) : []).toEqual(
      [],
    );
  });

  it('reports a journal that is a folder to show, replay and resume', () => {
    const stateDir = join(temporary, 'journal-folder-state');
    expect(sortie(['run', ...HELLO, '--quiet', '--state-dir', stateDir]).status).toBe(0);
    const [runId = ''] = readdirSync(join(stateDir, 'runs'));
    const journal = join(stateDir, 'runs', runId, 'journal.jsonl');
    rmSync(journal);
    mkdirSync(journal);
    const message = `error: cannot read ${journal}: it is a folder, not a file\n`;
    for (const args of [
      ['show', runId],
      ['replay', runId],
      ['resume', runId, ...HELLO],
    ]) {
      expect(sortie([...args, '--state-dir', stateDir])).toEqual({
        status: 2,
        stdout: '',
        stderr: message,
      });
    }
  }, 60_000);
});

describe('a full disk while a run records (child process)', () => {
  let server: ScriptedModelServer;
  let project: string;

  beforeAll(async () => {
    server = await ScriptedModelServer.start({ respond: respondToResumable });
    project = folder('full-disk-project');
    writeFileSync(join(project, 'main.hcl'), RESUME_PROJECT);
  });

  afterAll(() => server.close());

  /** The flags of runAgainstServer that the resume line repeats (the key is named apart). */
  function runFlags(): string {
    return `--var base_url=${server.baseUrl('openai')} --plain`;
  }

  /** `sortie ARGS --plain` against the scripted server; `limitKb` caps every file it writes. */
  function runAgainstServer(args: string[], stateDir: string, limitKb?: number) {
    const sortieArgs = [
      'bin/sortie.js',
      ...args,
      '--plain',
      '--state-dir',
      stateDir,
      '--var',
      'api_key=sk-test-full',
      '--var',
      `base_url=${server.baseUrl('openai')}`,
    ];
    if (limitKb === undefined) return runChild(process.execPath, sortieArgs);
    // `ulimit -f` counts blocks of 512 or 1024 bytes depending on the shell; either will do.
    const script = `ulimit -f ${limitKb}; exec "$@"`;
    // The limit holds for every file the run writes: its run index must be its own, not the
    // suite's shared one (already larger than the limit after enough runs).
    const index = { XDG_STATE_HOME: join(stateDir, 'index') };
    return runChild('sh', ['-c', script, 'sh', process.execPath, ...sortieArgs], index);
  }

  it.runIf(existsSync('/dev/full'))(
    'stops the run when the cassette gets ENOSPC, and says how to go on',
    async () => {
      const stateDir = join(temporary, 'dev-full-state');
      const cassette = join(folder('dev-full'), 'cassette.jsonl');
      symlinkSync('/dev/full', cassette);
      const result = await runAgainstServer(
        ['run', project, '--input', 'topic=things', '--record', cassette],
        stateDir,
      );
      const [runId = ''] = readdirSync(join(stateDir, 'runs'));
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(
        `error: cannot write ${cassette}: no space left on the device; the run was stopped\n` +
          `hint: make room (or fix the file), then continue the run with: sortie resume ${runId} ${project} --state-dir ${stateDir} ${runFlags()}\n` +
          `  adding what is not printed here: --var api_key=…\n`,
      );
      expect(result.stdout.split('\n')[1]).toBe(
        `00:00.0 run  warning: cannot write ${cassette}: no space left on the device; stopping the run`,
      );
      const { events } = await readJournal(join(stateDir, 'runs', runId, 'journal.jsonl'));
      expect(events.filter((event) => event.type === 'model.response')).toEqual([]);
      expect(summarizeRun(events).status).toBe('cancelled');
      // The journal says why the run stopped: the file, not the user.
      const cancelled = events.find((event) => event.type === 'mission.cancelled');
      expect(cancelled?.reason).toBe(
        `cannot write ${cassette}: no space left on the device; stopping the run`,
      );
    },
    60_000,
  );

  it('stops the run when the journal cannot grow, leaving a journal that resumes to the end', async () => {
    const stateDir = join(temporary, 'file-limit-state');
    const stopped = await runAgainstServer(
      ['run', project, '--input', 'topic=things'],
      stateDir,
      24,
    );
    const [runId = ''] = readdirSync(join(stateDir, 'runs'));
    const journal = join(stateDir, 'runs', runId, 'journal.jsonl');
    expect(stopped.status, stopped.stderr).toBe(2);
    expect(stopped.stderr).toBe(
      `error: cannot write ${journal}: the file is too large (a file-size limit was reached); the run was stopped\n` +
        `hint: make room (or fix the file), then continue the run with: sortie resume ${runId} ${project} --state-dir ${stateDir} ${runFlags()}\n` +
        `  adding what is not printed here: --var api_key=…\n`,
    );
    const before = await readJournal(journal);
    expect(summarizeRun(before.events).status).not.toBe('succeeded');

    const resumed = await runAgainstServer(['resume', runId, project], stateDir);
    expect(resumed.status, resumed.stderr).toBe(0);
    const after = summarizeRun((await readJournal(journal)).events);
    expect(after.status).toBe('succeeded');
    const tasks = new Map(after.tasks.map((task) => [task.name, task]));
    expect(tasks.get('gather')?.output).toEqual(EXPECTED_OUTPUTS.gather);
    expect(tasks.get('each')?.items.map((item) => item.output)).toEqual(EXPECTED_OUTPUTS.each);
  }, 60_000);
});
