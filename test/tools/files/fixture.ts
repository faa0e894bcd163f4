import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SlotSet } from '../../../src/tools/files/slots.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

/** A temp tree: slots under `slots/`, a sentinel outside them, and links pointing out. */
export interface SlotFixture {
  base: string;
  slots: SlotSet;
  outside: string;
  sentinelText: string;
  /** The sentinel's current content (to prove nothing outside changed). */
  sentinel(): Promise<string>;
}

export const SENTINEL_TEXT = 'outside the slot: must stay untouched';

/** Builds the fixture tree in a fresh temp directory. */
export async function createSlotFixture(): Promise<SlotFixture> {
  const base = await temporaryDirectory('slots');
  const memory = join(base, 'slots', 'memory');
  const scratchpad = join(base, 'slots', 'scratchpad');
  const notes = join(base, 'slots', 'notes');
  const outside = join(base, 'outside');
  const inputs = join(base, 'inputs');
  await Promise.all(
    [memory, scratchpad, notes, outside, inputs].map((dir) => mkdir(dir, { recursive: true })),
  );
  await writeFile(join(outside, 'secret.txt'), SENTINEL_TEXT);
  await writeFile(join(inputs, 'report.txt'), 'quarterly report\nline two\n');
  await writeFile(join(inputs, 'sibling.txt'), 'not part of the input');
  await writeFile(join(memory, 'a.txt'), 'alpha\nbeta\ngamma\n');
  await mkdir(join(memory, 'docs', 'deep'), { recursive: true });
  await writeFile(join(memory, 'docs', 'readme.md'), '# Title\nsome beta text\n');
  await writeFile(join(memory, 'docs', 'deep', 'notes.md'), 'deep beta\n');
  await writeFile(join(memory, '.hidden'), 'hidden beta');
  await symlink(join(outside, 'secret.txt'), join(memory, 'link-out'));
  await symlink(outside, join(memory, 'dir-out'));
  await symlink(join(memory, 'a.txt'), join(memory, 'link-in'));
  await symlink(join(outside, 'nothing-here.txt'), join(memory, 'dangling-out'));
  const slots = new SlotSet({
    memory,
    scratchpad,
    shared: { notes },
    inputs: { report: { path: join(inputs, 'report.txt') } },
  });
  return {
    base,
    slots,
    outside,
    sentinelText: SENTINEL_TEXT,
    sentinel: () => readFile(join(outside, 'secret.txt'), 'utf8'),
  };
}
