import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool } from '../builtins/agent-tool.ts';
import { errorOutcome, textOutcome } from '../builtins/agent-tool.ts';
import {
  PATTERN_DESCRIPTION,
  pagingFooter,
  pathProperty,
  searchRequest,
  slotProperty,
} from './file-tool-common.ts';
import { statSlotPath, walkSlotFolder } from './slot-entries.ts';
import type { SlotSet } from './slots.ts';

const MATCH = { one: 'match', many: 'matches' };

/** `file_search {slot, pattern, path?, limit = 50, offset = 0}`: files whose name matches. */
export function createFileSearchTool(slots: SlotSet): AgentTool {
  return {
    definition: defineTool({
      name: 'file_search',
      description:
        'Find files whose name matches a regular expression, below a folder of a slot. Returns relative paths.',
      parameters: objectSchema(['slot', 'pattern'], {
        slot: slotProperty(slots),
        pattern: { type: 'string', description: `${PATTERN_DESCRIPTION}, tested on file names` },
        path: pathProperty('Folder to search; default the slot root'),
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 50 },
        offset: { type: 'integer', minimum: 0, default: 0 },
      }),
    }),
    async execute(args) {
      const request = await searchRequest(slots, args);
      if (typeof request === 'string') return errorOutcome(request);
      const { pattern, limit, offset } = request;
      const folder = request.start;
      const stats = await statSlotPath(folder);
      if (stats?.isDirectory() !== true) {
        return errorOutcome(`folder "${folder.relative}" not found in slot "${folder.slot.label}"`);
      }
      const walk = await walkSlotFolder(folder, true);
      const matches = walk.entries.filter(
        (entry) => !entry.isDirectory && pattern.test(entry.relative.split('/').at(-1) ?? ''),
      );
      const page = matches.slice(offset, offset + limit);
      const lines = page.map((entry) => entry.relative);
      lines.push(pagingFooter(MATCH, matches.length, offset, page.length));
      if (walk.capped) lines.push(`(the search stopped after ${walk.entries.length} entries)`);
      return textOutcome(lines.join('\n'));
    },
  };
}
