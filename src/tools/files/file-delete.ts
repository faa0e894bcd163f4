import { unlink } from 'node:fs/promises';
import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool } from '../builtins/agent-tool.ts';
import { errorOutcome, okOutcome } from '../builtins/agent-tool.ts';
import { errorCode, pathProperty, slotProperty } from './file-tool-common.ts';
import { existingFile } from './slot-entries.ts';
import type { SlotSet } from './slots.ts';

/** `file_delete {slot, path}`: deletes one file; folders are refused. */
export function createFileDeleteTool(slots: SlotSet): AgentTool {
  return {
    definition: defineTool({
      name: 'file_delete',
      description: 'Delete a file in a slot (files only, not folders).',
      parameters: objectSchema(['slot', 'path'], {
        slot: slotProperty(slots),
        path: pathProperty('File path relative to the slot root'),
      }),
    }),
    async execute(args) {
      const found = await existingFile(
        slots,
        args,
        'write',
        (relative) => `"${relative}" is a folder: file_delete deletes files only`,
      );
      if (!found.ok) return errorOutcome(found.error);
      const { file } = found;
      try {
        await unlink(file.host);
      } catch (error) {
        return errorOutcome(`could not delete "${file.relative}": ${errorCode(error)}`);
      }
      return okOutcome({ deleted: file.relative });
    },
  };
}
