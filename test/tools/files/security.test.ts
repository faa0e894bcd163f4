import { readdir } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileToolsFor } from '../../../src/tools/files/index.ts';
import type { AgentTool, ToolOutcome } from '../../../src/tools/builtins/agent-tool.ts';
import { toolCaller } from '../builtins/call-tool.ts';
import { createSlotFixture } from './fixture.ts';
import type { SlotFixture } from './fixture.ts';

let fixture: SlotFixture;
let tools: Map<string, AgentTool>;

beforeAll(async () => {
  fixture = await createSlotFixture();
  tools = new Map(fileToolsFor(fixture.slots).map((tool) => [tool.definition.name, tool]));
});

const call = toolCaller(() => tools);

function errorText(message: string): ToolOutcome {
  return { content: JSON.stringify({ status: 'error', error: message }), isError: true };
}

/** Every call is checked three ways: the exact error, no host path, the outside untouched. */
async function expectRejected(
  name: string,
  args: Record<string, unknown>,
  message: string,
): Promise<void> {
  const outcome = await call(name, args);
  expect(outcome).toEqual(errorText(message));
  expect(JSON.stringify(outcome)).not.toContain(fixture.base);
  expect(await fixture.sentinel()).toBe(fixture.sentinelText);
  expect((await readdir(fixture.outside)).sort()).toEqual(['secret.txt']);
}

const READERS = ['file_read', 'file_view', 'file_list', 'file_grep', 'file_search'];
const WRITE = { content: 'overwritten', overwrite: true };

describe('file tool security', () => {
  it('rejects absolute paths in every tool', async () => {
    for (const name of READERS) {
      const pattern = name === 'file_grep' || name === 'file_search' ? { pattern: 'x' } : {};
      const path = `${fixture.outside}/secret.txt`;
      await expectRejected(
        name,
        { slot: 'memory', path, ...pattern },
        'absolute paths are not allowed',
      );
    }
    await expectRejected(
      'file_create',
      { slot: 'memory', path: '/tmp/x.txt', ...WRITE },
      'absolute paths are not allowed',
    );
    await expectRejected(
      'file_delete',
      { slot: 'memory', path: 'C:\\x.txt' },
      'absolute paths are not allowed',
    );
  });

  it('rejects .. that leaves the slot, with either separator', async () => {
    await expectRejected(
      'file_read',
      { slot: 'memory', path: '../../outside/secret.txt' },
      'path escapes the slot',
    );
    await expectRejected(
      'file_read',
      { slot: 'memory', path: 'docs/../../memory/../../outside/secret.txt' },
      'path escapes the slot',
    );
    await expectRejected(
      'file_create',
      { slot: 'memory', path: '..\\..\\outside\\secret.txt', ...WRITE },
      'path escapes the slot',
    );
    await expectRejected('file_list', { slot: 'memory', path: '..' }, 'path escapes the slot');
    await expectRejected(
      'file_delete',
      { slot: 'scratchpad', path: '../../outside/secret.txt' },
      'path escapes the slot',
    );
  });

  it('allows .. that stays inside the slot', async () => {
    const outcome = await call('file_read', { slot: 'memory', path: 'docs/../a.txt' });
    expect(outcome).toEqual({ content: 'alpha\nbeta\ngamma\n', isError: false });
  });

  it('rejects a file symlink whose target is outside the slot', async () => {
    await expectRejected(
      'file_read',
      { slot: 'memory', path: 'link-out' },
      'path escapes the slot',
    );
    await expectRejected(
      'file_create',
      { slot: 'memory', path: 'link-out', ...WRITE },
      'path escapes the slot',
    );
    await expectRejected(
      'file_delete',
      { slot: 'memory', path: 'link-out' },
      'path escapes the slot',
    );
    await expectRejected(
      'file_view',
      { slot: 'memory', path: 'link-out' },
      'path escapes the slot',
    );
  });

  it('rejects a folder symlink whose target is outside the slot, anywhere on the path', async () => {
    await expectRejected(
      'file_read',
      { slot: 'memory', path: 'dir-out/secret.txt' },
      'path escapes the slot',
    );
    await expectRejected(
      'file_create',
      { slot: 'memory', path: 'dir-out/new.txt', content: 'x' },
      'path escapes the slot',
    );
    await expectRejected(
      'file_create',
      { slot: 'memory', path: 'dir-out/sub/new.txt', content: 'x' },
      'path escapes the slot',
    );
    await expectRejected('file_list', { slot: 'memory', path: 'dir-out' }, 'path escapes the slot');
    await expectRejected(
      'file_grep',
      { slot: 'memory', path: 'dir-out', pattern: 'outside' },
      'path escapes the slot',
    );
  });

  it('rejects a broken symlink pointing outside, so nothing can be created through it', async () => {
    await expectRejected(
      'file_create',
      { slot: 'memory', path: 'dangling-out', content: 'x' },
      'path escapes the slot',
    );
  });

  it('follows a symlink whose target stays inside the slot', async () => {
    const outcome = await call('file_read', { slot: 'memory', path: 'link-in' });
    expect(outcome).toEqual({ content: 'alpha\nbeta\ngamma\n', isError: false });
  });

  it('never lists or searches through links leaving the slot', async () => {
    const grep = await call('file_grep', { slot: 'memory', pattern: 'untouched' });
    expect(grep).toEqual({ content: '(no matches)', isError: false });
    const listing = await call('file_list', { slot: 'memory' });
    expect(listing.content).not.toContain('link-out');
    expect(listing.content).not.toContain('dir-out');
  });

  it('rejects NUL bytes and control characters', async () => {
    await expectRejected(
      'file_read',
      { slot: 'memory', path: 'a.txt\u0000.png' },
      'path contains a NUL byte',
    );
    await expectRejected(
      'file_create',
      { slot: 'memory', path: 'x\u0000', content: 'x' },
      'path contains a NUL byte',
    );
    await expectRejected(
      'file_read',
      { slot: 'memory', path: 'a\u001b.txt' },
      'path contains a control character',
    );
  });

  it('treats percent-encoded and look-alike dots as plain names inside the slot', async () => {
    await expectRejected(
      'file_read',
      { slot: 'memory', path: '%2e%2e/%2e%2e/outside/secret.txt' },
      'file "%2e%2e/%2e%2e/outside/secret.txt" not found in slot "memory"',
    );
    await expectRejected(
      'file_read',
      { slot: 'memory', path: '\uff0e\uff0e/secret.txt' },
      'file "\uff0e\uff0e/secret.txt" not found in slot "memory"',
    );
  });

  it('refuses writes to a read-only input slot', async () => {
    await expectRejected(
      'file_create',
      { slot: 'input.report', path: 'report.txt', ...WRITE },
      'slot "input.report" is read-only',
    );
    await expectRejected(
      'file_delete',
      { slot: 'input.report', path: 'report.txt' },
      'slot "input.report" is read-only',
    );
  });

  it('exposes only the input file itself in an input slot', async () => {
    const read = await call('file_read', { slot: 'input.report', path: 'report.txt' });
    expect(read).toEqual({ content: 'quarterly report\nline two\n', isError: false });
    await expectRejected(
      'file_read',
      { slot: 'input.report', path: 'sibling.txt' },
      'file "sibling.txt" not found in slot "input.report"',
    );
    await expectRejected(
      'file_read',
      { slot: 'input.report', path: '../inputs/sibling.txt' },
      'path escapes the slot',
    );
    const listing = await call('file_list', { slot: 'input.report' });
    expect(listing).toEqual({ content: 'report.txt  26 B\n(1 entry)', isError: false });
  });

  it('rejects an unknown slot, listing the slots', async () => {
    await expectRejected(
      'file_read',
      { slot: 'secrets', path: 'a.txt' },
      'unknown slot "secrets"; available slots: memory, scratchpad, notes, input.report',
    );
  });
});
