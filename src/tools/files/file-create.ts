import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool } from '../builtins/agent-tool.ts';
import { errorOutcome, okOutcome } from '../builtins/agent-tool.ts';
import { errorCode, pathProperty, slotProperty } from './file-tool-common.ts';
import { resolveSlotPath } from './path-guard.ts';
import { notRegularFile, writeFlags } from './regular-file.ts';
import { statSlotPath } from './slot-entries.ts';
import type { SlotSet } from './slots.ts';
import { makeDirectory } from '../../base/make-directory.ts';

/**
 * `file_create {slot, path, content, overwrite = false, append = false}` → `{"status":"ok","bytes":N}`.
 * A slot outlives the run (memory, workspaces), so `${secrets.NAME}` is written as it is.
 */
export function createFileCreateTool(slots: SlotSet): AgentTool {
  return {
    keepsSecretPlaceholders: true,
    definition: defineTool({
      name: 'file_create',
      description:
        'Write a text file in a slot (parent folders are created). An existing file needs overwrite = true or append = true. ${secrets.NAME} is written as it is, never the value.',
      parameters: objectSchema(['slot', 'path', 'content'], {
        slot: slotProperty(slots),
        path: pathProperty('File path relative to the slot root'),
        content: { type: 'string' },
        overwrite: { type: 'boolean', default: false },
        append: { type: 'boolean', default: false },
      }),
    }),
    async execute(args) {
      const overwrite = args.overwrite === true;
      const append = args.append === true;
      if (overwrite && append) return errorOutcome('pass overwrite or append, not both');
      const resolved = await resolveSlotPath(
        slots,
        args.slot as string,
        args.path as string,
        'write',
      );
      if (!resolved.ok) return errorOutcome(resolved.error);
      const file = resolved.path;
      if (file.relative === '.') return errorOutcome('path must name a file, not the slot root');
      const stats = await statSlotPath(file);
      if (stats?.isDirectory() === true) return errorOutcome(`"${file.relative}" is a folder`);
      if (stats !== undefined && !stats.isFile())
        return errorOutcome(notRegularFile(file.relative));
      if (stats !== undefined && !overwrite && !append) {
        return errorOutcome(
          `file "${file.relative}" already exists: pass overwrite = true to replace it or append = true to add to it`,
        );
      }
      const content = args.content as string;
      try {
        await makeDirectory(dirname(file.host));
        await writeFile(file.host, content, { encoding: 'utf8', flag: writeFlags(append) });
      } catch (error) {
        return errorOutcome(`could not write "${file.relative}": ${errorCode(error)}`);
      }
      return okOutcome({ bytes: Buffer.byteLength(content, 'utf8') });
    },
  };
}
