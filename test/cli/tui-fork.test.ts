/**
 * The TUI's forker (`f`, `e`) with a real editor process: the seq is checked as `sortie fork
 * --at` checks it, the edit goes through `sortie fork --edit`'s document and validation, and
 * what is wrong comes back as the message the TUI shows, with nothing chosen.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventOf, MissionEvent } from '../../src/base/events.ts';
import type { Config } from '../../src/config/config-types.ts';
import { TuiForks } from '../../src/cli/tui-fork.ts';
import { REPLACE_SCRIPT } from '../e2e/fork-fixture.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

let dir: string;
let replacer: string;
/** Only a mission start's edit reads the project (its inputs' schema): these points need none. */
const noConfig = (): Promise<Config> => Promise.resolve({} as Config);

beforeAll(async () => {
  dir = await temporaryDirectory('tui-fork');
  replacer = join(dir, 'replace.mjs');
  await writeFile(replacer, REPLACE_SCRIPT);
});

const ENVELOPE = { time: '2026-01-01T00:00:00.000Z', runId: 'run-1', actor: 'commander:t' };
const called: EventOf<'tool.called'> = {
  ...ENVELOPE,
  seq: 4,
  type: 'tool.called',
  callId: 'c1',
  tool: 'call_agent',
  arguments: '{"name":"a","task":"x"}',
};
const completed: EventOf<'tool.completed'> = {
  ...ENVELOPE,
  seq: 5,
  type: 'tool.completed',
  callId: 'c1',
  tool: 'call_agent',
  result: '{"status":"ok","result":"ants"}',
  isError: false,
  durationMs: 1,
};

function forksWith(editor: string): TuiForks {
  const forks = new TuiForks(noConfig, { EDITOR: editor });
  for (const event of [called, completed] as MissionEvent[]) forks.record(event);
  return forks;
}

/** Runs the work as the TUI's suspend would, counting the hand-overs. */
function countingSuspend() {
  const counted = { times: 0 };
  const suspend = <T>(work: () => T): T => {
    counted.times += 1;
    return work();
  };
  return { counted, suspend };
}

describe('TuiForks', () => {
  it('chooses a fork at a tool result unchanged with f, without the editor', async () => {
    const forks = forksWith('false');
    const { counted, suspend } = countingSuspend();
    expect(await forks.prepare(5, false, suspend)).toBeNull();
    expect(forks.chosen).toEqual({ seq: 5, edited: undefined });
    expect(counted.times).toBe(0);
  });

  it('edits the point in the editor, the terminal handed over, with e', async () => {
    const forks = forksWith(`${process.execPath} ${replacer} ants bees`);
    const { counted, suspend } = countingSuspend();
    expect(await forks.prepare(5, true, suspend)).toBeNull();
    expect(counted.times).toBe(1);
    expect(forks.chosen).toEqual({
      seq: 5,
      edited: { ...completed, result: '{"status":"ok","result":"bees"}' },
    });
  });

  it('answers an invalid edit with the wording of sortie fork --edit, and chooses nothing', async () => {
    const forks = forksWith(`${process.execPath} ${replacer} false '"no"'`);
    const { suspend } = countingSuspend();
    expect(await forks.prepare(5, true, suspend)).toBe(
      'the edited tool.completed is invalid: /isError: must be boolean; nothing was forked; run the fork again and fix the edit',
    );
    expect(forks.chosen).toBeUndefined();
  });

  it('answers a seq that is no fork point with the nearest ones, as --at does', async () => {
    const forks = forksWith('false');
    expect(await forks.prepare(4, false, countingSuspend().suspend)).toBe(
      "event 4 of run run-1 is tool.called (commander:t); a fork starts at a model response, a tool result or a mission's start; the nearest are 5 (tool.completed of commander:t)",
    );
    expect(forks.chosen).toBeUndefined();
  });

  it('answers an editor that fails', async () => {
    const forks = forksWith('false');
    expect(await forks.prepare(5, true, countingSuspend().suspend)).toBe(
      'the editor (false) did not finish (status 1); nothing was forked',
    );
  });
});
