/**
 * Packet slots (`packet.NAME`): a project folder the file tools read in place, read-only and
 * text only, behind the same path guard as every slot.
 */
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileToolsFor, SlotSet } from '../../../src/tools/files/index.ts';
import type { AgentTool, ToolOutcome } from '../../../src/tools/builtins/agent-tool.ts';
import { callTool, toolCaller } from '../builtins/call-tool.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let base: string;
let packet: string;
let tools: Map<string, AgentTool>;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

beforeAll(async () => {
  base = await temporaryDirectory('packet');
  packet = join(base, 'project', 'playbooks');
  await mkdir(join(packet, 'incidents'), { recursive: true });
  await writeFile(join(packet, 'incidents', 'outage.md'), '# Outage\nCall the on-call first.\n');
  await writeFile(join(packet, 'data.bin'), Buffer.from('header\u0000Call the on-call\n'));
  await writeFile(join(packet, 'diagram.png'), PNG);
  await writeFile(join(base, 'secret.txt'), 'outside the packet');
  await symlink(join(base, 'secret.txt'), join(packet, 'link-out'));
  const slots = new SlotSet({ packets: { playbooks: packet } });
  tools = new Map(fileToolsFor(slots).map((tool) => [tool.definition.name, tool]));
});

const call = toolCaller(() => tools, { slot: 'packet.playbooks' });

function error(message: string): ToolOutcome {
  return { content: JSON.stringify({ status: 'error', error: message }), isError: true };
}

const READ_ONLY =
  'slot "packet.playbooks" is read-only: a packet holds reference files that cannot be changed';

describe('packet slots', () => {
  it('a mission with only a packet gets every file tool', () => {
    expect([...tools.keys()]).toEqual([
      'file_list',
      'file_read',
      'file_create',
      'file_delete',
      'file_search',
      'file_grep',
      'file_view',
    ]);
  });

  it('lists, reads, searches and greps the text files of the packet folder', async () => {
    expect(await call('file_list', { recursive: true })).toEqual({
      content:
        'data.bin  24 B\ndiagram.png  12 B\nincidents/\nincidents/outage.md  33 B\n(4 entries)',
      isError: false,
    });
    expect(await call('file_read', { path: 'incidents/outage.md' })).toEqual({
      content: '# Outage\nCall the on-call first.\n',
      isError: false,
    });
    expect(await call('file_search', { pattern: 'outage' })).toEqual({
      content: 'incidents/outage.md\n(1 match)',
      isError: false,
    });
    // data.bin holds the same words after a NUL byte: grep skips it as binary.
    expect(await call('file_grep', { pattern: 'on-call' })).toEqual({
      content: 'incidents/outage.md:2: Call the on-call first.\n(1 match)',
      isError: false,
    });
  });

  it('refuses a file with a NUL byte in its first 8 KB, and any known binary format', async () => {
    expect(await call('file_read', { path: 'data.bin' })).toEqual(
      error('file "data.bin" is binary: slot "packet.playbooks" holds text files only'),
    );
    expect(await call('file_read', { path: 'diagram.png' })).toEqual(
      error('file "diagram.png" is binary: slot "packet.playbooks" holds text files only'),
    );
  });

  it('file_view refuses packet slots: they hold text only', async () => {
    expect(await call('file_view', { path: 'diagram.png' })).toEqual(
      error('slot "packet.playbooks" holds text files only: use file_read'),
    );
  });

  it('refuses file_create and file_delete, changing nothing', async () => {
    expect(await call('file_create', { path: 'new.md', content: 'x' })).toEqual(error(READ_ONLY));
    expect(
      await call('file_create', { path: 'incidents/outage.md', content: 'x', overwrite: true }),
    ).toEqual(error(READ_ONLY));
    expect(await call('file_delete', { path: 'incidents/outage.md' })).toEqual(error(READ_ONLY));
    expect((await readdir(packet)).sort()).toEqual([
      'data.bin',
      'diagram.png',
      'incidents',
      'link-out',
    ]);
    expect(await readFile(join(packet, 'incidents', 'outage.md'), 'utf8')).toBe(
      '# Outage\nCall the on-call first.\n',
    );
  });

  it('keeps reads inside the packet: no absolute paths, no .., no links out', async () => {
    expect(await call('file_read', { path: join(base, 'secret.txt') })).toEqual(
      error('absolute paths are not allowed'),
    );
    expect(await call('file_read', { path: '../../secret.txt' })).toEqual(
      error('path escapes the slot'),
    );
    expect(await call('file_read', { path: 'incidents/../../secret.txt' })).toEqual(
      error('path escapes the slot'),
    );
    expect(await call('file_read', { path: 'link-out' })).toEqual(error('path escapes the slot'));
  });

  it('says the packet is not available when its folder is gone', async () => {
    const slots = new SlotSet({ packets: { gone: join(base, 'missing') } });
    const read = fileToolsFor(slots).find((tool) => tool.definition.name === 'file_read');
    expect(await callTool(read!, { slot: 'packet.gone', path: 'x.md' })).toEqual(
      error('slot "packet.gone" is not available'),
    );
  });
});
