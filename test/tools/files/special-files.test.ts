/**
 * Issue 25 item 2: a FIFO in a slot (or any file that is no regular file) never blocks a file
 * tool: reading tools refuse it, walks leave it out, writes refuse it, a deletion removes it;
 * and every file tool answers with an error result once its deadline passes.
 */
import { execFileSync } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Timers } from '../../../src/base/abort.ts';
import type { AgentTool } from '../../../src/tools/builtins/agent-tool.ts';
import { defineTool } from '../../../src/tools/define-tool.ts';
import { withDeadline } from '../../../src/tools/files/deadline.ts';
import { fileToolsFor } from '../../../src/tools/files/index.ts';
import { openRegularFile } from '../../../src/tools/files/regular-file.ts';
import { SlotSet } from '../../../src/tools/files/slots.ts';
import { toolCaller } from '../builtins/call-tool.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let base: string;
let memory: string;
let tools: Map<string, AgentTool>;

beforeAll(async () => {
  base = await temporaryDirectory('fifo');
  memory = join(base, 'memory');
  execFileSync('mkdir', ['-p', join(memory, 'sub')]);
  await writeFile(join(memory, 'notes.md'), 'the pipe is not a file\n');
  execFileSync('mkfifo', [join(memory, 'pipe'), join(memory, 'sub', 'deep-pipe')]);
  const slots = new SlotSet({ memory });
  tools = new Map(fileToolsFor(slots).map((tool) => [tool.definition.name, tool]));
});

const call = toolCaller(() => tools, { slot: 'memory' });

const NOT_REGULAR = {
  content: JSON.stringify({
    status: 'error',
    error: '"pipe" is not a regular file: the file tools read and write regular files only',
  }),
  isError: true,
};

describe('a FIFO in a slot', () => {
  it('is refused by file_read, file_view and file_grep naming it', async () => {
    expect(await call('file_read', { path: 'pipe' })).toEqual(NOT_REGULAR);
    expect(await call('file_view', { path: 'pipe' })).toEqual(NOT_REGULAR);
    expect(await call('file_grep', { path: 'pipe', pattern: 'x' })).toEqual(NOT_REGULAR);
  });

  it('is left out of listings, name searches and recursive greps', async () => {
    expect(await call('file_list', { recursive: true })).toEqual({
      content: 'notes.md  23 B\nsub/\n(2 entries)',
      isError: false,
    });
    expect(await call('file_search', { pattern: 'pipe' })).toEqual({
      content: '(no matches)',
      isError: false,
    });
    expect(await call('file_grep', { pattern: 'pipe' })).toEqual({
      content: 'notes.md:1: the pipe is not a file\n(1 match)',
      isError: false,
    });
  });

  it('is refused by file_create, whether replacing or appending, and removed by file_delete', async () => {
    for (const mode of [{ overwrite: true }, { append: true }]) {
      expect(await call('file_create', { path: 'pipe', content: 'x', ...mode })).toEqual(
        NOT_REGULAR,
      );
    }
    execFileSync('mkfifo', [join(memory, 'doomed')]);
    expect(await call('file_delete', { path: 'doomed' })).toEqual({
      content: JSON.stringify({ status: 'ok', deleted: 'doomed' }),
      isError: false,
    });
    expect((await readdir(memory)).sort()).toEqual(['notes.md', 'pipe', 'sub']);
  });

  it('opens without waiting for a writer and is then refused (a FIFO swapped in after the check)', async () => {
    expect(await openRegularFile(join(memory, 'pipe'))).toBeUndefined();
  });
});

/** Timers whose one pending callback the test fires. */
function manualTimers(): Timers & { fire(): void; delays: number[] } {
  let pending: (() => void) | undefined;
  const delays: number[] = [];
  return {
    delays,
    setTimeout: (callback, milliseconds) => {
      pending = callback;
      delays.push(milliseconds);
      return 1;
    },
    clearTimeout: () => {
      pending = undefined;
    },
    fire: () => pending?.(),
  };
}

describe('the deadline of a file tool', () => {
  it('answers with an error result and aborts the call once the deadline passes', async () => {
    const signals: AbortSignal[] = [];
    const hanging: AgentTool = {
      definition: defineTool({
        name: 'file_read',
        description: 'r',
        parameters: { type: 'object' },
      }),
      execute: (_args, context) => {
        signals.push(context.signal);
        return new Promise(() => undefined);
      },
    };
    const timers = manualTimers();
    const pending = withDeadline(hanging, 60_000, timers).execute(
      {},
      {
        signal: new AbortController().signal,
      },
    );
    timers.fire();
    expect(await pending).toEqual({
      content: JSON.stringify({
        status: 'error',
        error:
          'file_read did not finish within 60 s (the file system did not answer): try another file or a narrower path',
      }),
      isError: true,
    });
    expect(timers.delays).toEqual([60_000]);
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });

  it('gives a call that finishes in time its own result and clears the timer', async () => {
    const quick: AgentTool = {
      definition: defineTool({
        name: 'file_list',
        description: 'l',
        parameters: { type: 'object' },
      }),
      execute: () => Promise.resolve({ content: '(no entries)', isError: false }),
    };
    const timers = manualTimers();
    const outcome = await withDeadline(quick, 60_000, timers).execute(
      {},
      {
        signal: new AbortController().signal,
      },
    );
    expect(outcome).toEqual({ content: '(no entries)', isError: false });
    timers.fire();
    expect(timers.delays).toEqual([60_000]);
  });
});
