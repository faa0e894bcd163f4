/**
 * What one library run does to the state directory: the file-system calls of a run's set-up
 * and teardown, recorded by wrapping `node:fs/promises` (its named exports follow the module
 * object after `syncBuiltinESMExports`) and the file handle's methods. A run that calls no
 * large-result tool and writes no scratchpad pays for its folder, its journal (created once,
 * with its writer's pid file beside it, appended to at the flush points of its events): nothing
 * more per run, and no fsync. Every call is synchronous (cheaper in CPU than a thread-pool trip
 * with its promise).
 */
import syncFs from 'node:fs';
import fs from 'node:fs/promises';
import { writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join, relative, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openProject, runMission, type Project } from '../../src/index.ts';
import { capitalMock, capitalProject } from './capital-project.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const PATH_CALLS = ['mkdir', 'stat', 'lstat', 'open', 'readdir', 'writeFile', 'unlink', 'rm'];
const SYNC_CALLS = PATH_CALLS.map((call) => `${call}Sync`);
// (`close` is an own property of each handle, not on the prototype.)
const HANDLE_CALLS = ['sync', 'stat', 'read', 'truncate'];
/** Calls on a file descriptor, named by the path `openSync` opened it with. */
const DESCRIPTOR_CALLS = ['appendFileSync', 'writeSync', 'fsync', 'fsyncSync', 'closeSync'];

type Restore = () => void;
const restores: Restore[] = [];
afterEach(() => {
  for (const restore of restores.splice(0).reverse()) restore();
  syncBuiltinESMExports();
});

/** Replaces `object[name]` with a wrapper that reports each call first. */
function wrap(
  object: Record<string, unknown>,
  name: string,
  report: (this: unknown, args: unknown[]) => void,
): void {
  const original = object[name] as (...args: unknown[]) => unknown;
  object[name] = function (this: unknown, ...args: unknown[]) {
    report.call(this, args);
    return original.apply(this, args);
  };
  restores.push(() => (object[name] = original));
}

/** Records, until the returned function is called, the file-system calls under `below`. */
async function recordCalls(below: string): Promise<() => string[]> {
  const calls: string[] = [];
  let recording = true;
  const name = (path: unknown): string | undefined => {
    const text = String(path);
    return text.startsWith(below + sep) ? relative(below, text).split(sep).join('/') : undefined;
  };
  const paths = new WeakMap<object, string>();
  const modules = [
    { module: fs as unknown as Record<string, unknown>, names: PATH_CALLS },
    { module: syncFs as unknown as Record<string, unknown>, names: SYNC_CALLS },
  ];
  for (const { module, names } of modules) {
    for (const call of names) {
      wrap(module, call, ([path, flags]) => {
        const at = name(path);
        if (!recording || at === undefined) return;
        calls.push(`${call} ${at}${call.startsWith('open') ? ` ${String(flags ?? 'r')}` : ''}`);
      });
    }
  }
  // File handles: their prototype is reached through one opened handle.
  const probe = await fs.open(join(below, '..'), 'r');
  const handlePrototype = Object.getPrototypeOf(probe) as Record<string, unknown>;
  await probe.close();
  for (const call of HANDLE_CALLS) {
    wrap(handlePrototype, call, function (this: unknown) {
      const at = paths.get(this as object);
      if (recording && at !== undefined) calls.push(`handle.${call} ${at}`);
    });
  }
  // Which descriptor is which file: `openSync` is wrapped once more to name what it returns.
  const descriptors = new Map<number, string>();
  for (const call of DESCRIPTOR_CALLS) {
    wrap(syncFs as unknown as Record<string, unknown>, call, ([descriptor]) => {
      const at = typeof descriptor === 'number' ? descriptors.get(descriptor) : undefined;
      if (recording && at !== undefined) calls.push(`${call} ${at}`);
    });
  }
  const openSync = syncFs.openSync;
  (syncFs as unknown as Record<string, unknown>).openSync = (
    ...args: Parameters<typeof openSync>
  ) => {
    const descriptor = openSync(...args);
    const at = name(args[0]);
    if (at !== undefined) descriptors.set(descriptor, at);
    return descriptor;
  };
  restores.push(() => ((syncFs as unknown as Record<string, unknown>).openSync = openSync));
  // Which handle is which file: wrap `open` once more to name the handles it returns.
  const open = fs.open;
  (fs as unknown as Record<string, unknown>).open = async (...args: Parameters<typeof open>) => {
    const handle = await open(...args);
    const at = name(args[0]);
    if (at !== undefined) paths.set(handle, at);
    return handle;
  };
  restores.push(() => ((fs as unknown as Record<string, unknown>).open = open));
  syncBuiltinESMExports();
  return () => {
    recording = false;
    return calls.sort();
  };
}

async function project(): Promise<{ opened: Project; mockModel: string; stateDir: string }> {
  const dir = await temporaryDirectory('run-files');
  await writeFile(join(dir, 'main.hcl'), capitalProject(''));
  await writeFile(join(dir, 'mock.yaml'), capitalMock('  - text: Paris\n'));
  const opened = await openProject(dir, {
    vars: { api_key: 'k', base_url: 'http://127.0.0.1:9/v1', token: 't' },
    env: {},
  });
  return { opened, mockModel: join(dir, 'mock.yaml'), stateDir: join(dir, 'state') };
}

describe('a run of runMission on the file system', () => {
  it('makes its folder, journal and pid file once and appends at the flush points, after the first run of the process', async () => {
    const { opened, mockModel, stateDir } = await project();
    const options = { inputs: { country: 'France' }, mockModel, stateDir };
    expect((await runMission(opened, options).result).status).toBe('succeeded');
    const stop = await recordCalls(stateDir);
    const run = runMission(opened, options);
    expect((await run.result).status).toBe('succeeded');
    const folder = `runs/${run.runId}`;
    expect(stop()).toEqual(
      [
        `mkdirSync ${folder}`,
        `openSync ${folder}/journal.jsonl ax`,
        `writeFileSync ${folder}/writer.pid`,
        // mission.started, task.succeeded, mission.succeeded, run.finished
        ...Array.from({ length: 4 }, () => `appendFileSync ${folder}/journal.jsonl`),
        `closeSync ${folder}/journal.jsonl`,
        `unlinkSync ${folder}/writer.pid`,
      ].sort(),
    );
  });
});
