import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool } from '../builtins/agent-tool.ts';
import { errorOutcome, textOutcome } from '../builtins/agent-tool.ts';
import { formatSize, pagingFooter, pathProperty, slotProperty } from './file-tool-common.ts';
import { resolveSlotPath } from './path-guard.ts';
import { statSlotPath, walkSlotFolder } from './slot-entries.ts';
import type { SlotSet } from './slots.ts';

const ENTRY = { one: 'entry', many: 'entries' };

/** `file_list {slot, path?, recursive = false, limit = 100 (≤ 1000), offset = 0}`: plain lines. */
export function createFileListTool(slots: SlotSet): AgentTool {
  return {
    definition: defineTool({
      name: 'file_list',
      description:
        'List files and folders in a slot: "name/" for folders, "name  size" for files, then a paging footer.',
      parameters: objectSchema(['slot'], {
        slot: slotProperty(slots),
        path: pathProperty('Folder relative to the slot root; default the root'),
        recursive: { type: 'boolean', default: false },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
        offset: { type: 'integer', minimum: 0, default: 0 },
      }),
    }),
    async execute(args) {
      const limit = (args.limit as number | undefined) ?? 100;
      const offset = (args.offset as number | undefined) ?? 0;
      const resolved = await resolveSlotPath(
        slots,
        args.slot as string,
        (args.path as string | undefined) ?? '',
        'read',
      );
      if (!resolved.ok) return errorOutcome(resolved.error);
      const folder = resolved.path;
      const stats = await statSlotPath(folder);
      if (stats === undefined) {
        return errorOutcome(`folder "${folder.relative}" not found in slot "${folder.slot.label}"`);
      }
      if (!stats.isDirectory()) {
        return errorOutcome(
          `"${folder.relative}" is a file, not a folder: use file_read or file_view`,
        );
      }
      const walk = await walkSlotFolder(folder, args.recursive === true);
      const page = walk.entries.slice(offset, offset + limit);
      const lines = page.map((entry) =>
        entry.isDirectory ? `${entry.relative}/` : `${entry.relative}  ${formatSize(entry.size)}`,
      );
      lines.push(pagingFooter(ENTRY, walk.entries.length, offset, page.length));
      if (walk.capped) lines.push(`(the walk stopped at ${walk.entries.length} entries)`);
      return textOutcome(lines.join('\n'));
    },
  };
}
