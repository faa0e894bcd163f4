import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool } from '../builtins/agent-tool.ts';
import { errorOutcome, textOutcome } from '../builtins/agent-tool.ts';
import {
  MAX_UNCAPPED_READ_BYTES,
  pagingFooter,
  PATTERN_DESCRIPTION,
  searchRequest,
  pathProperty,
  slotProperty,
} from './file-tool-common.ts';
import { looksBinary } from './media-type.ts';
import { notRegularFile, readRegularFile } from './regular-file.ts';
import type { SlotPath } from './path-guard.ts';
import type { SlotEntry } from './slot-entries.ts';
import { statSlotPath, walkSlotFolder } from './slot-entries.ts';
import type { SlotSet } from './slots.ts';

const MATCH = { one: 'match', many: 'matches' };
/** Matching lines longer than this are cut, so one minified file cannot flood the result. */
export const MAX_GREP_LINE_CHARS = 200;

/** `file_grep {slot, pattern, path?, recursive = true, limit = 50, offset = 0}`: `path:line: text`. */
export function createFileGrepTool(slots: SlotSet): AgentTool {
  return {
    definition: defineTool({
      name: 'file_grep',
      description:
        'Search text files of a slot for lines matching a regular expression. Returns "path:line: text" lines.',
      parameters: objectSchema(['slot', 'pattern'], {
        slot: slotProperty(slots),
        pattern: { type: 'string', description: `${PATTERN_DESCRIPTION}, tested on each line` },
        path: pathProperty('File or folder to search; default the slot root'),
        recursive: { type: 'boolean', default: true },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 50 },
        offset: { type: 'integer', minimum: 0, default: 0 },
      }),
    }),
    async execute(args, context) {
      const request = await searchRequest(slots, args);
      if (typeof request === 'string') return errorOutcome(request);
      const { pattern, limit, offset } = request;
      const files = await filesToSearch(request.start, args.recursive !== false);
      if (typeof files === 'string') return errorOutcome(files);
      const matches: string[] = [];
      let skipped = 0;
      for (const file of files) {
        // Between files the event loop has turned: a cancelled run stops here.
        context.signal.throwIfAborted();
        if (file.size > MAX_UNCAPPED_READ_BYTES) {
          skipped++;
          continue;
        }
        // What is no regular file (any more) is skipped like an unreadable one.
        const bytes = await readRegularFile(file.host, MAX_UNCAPPED_READ_BYTES).catch(
          () => undefined,
        );
        if (bytes === undefined || looksBinary(bytes.subarray(0, 8192))) continue;
        const lines = bytes.toString('utf8').split(/\r?\n/);
        lines.forEach((line, index) => {
          if (pattern.test(line)) matches.push(`${file.relative}:${index + 1}: ${cut(line)}`);
        });
      }
      const page = matches.slice(offset, offset + limit);
      page.push(pagingFooter(MATCH, matches.length, offset, page.length));
      if (skipped > 0) page.push(`(skipped ${skipped} file${skipped === 1 ? '' : 's'} over 10 MB)`);
      return textOutcome(page.join('\n'));
    },
  };
}

async function filesToSearch(target: SlotPath, recursive: boolean): Promise<SlotEntry[] | string> {
  const stats = await statSlotPath(target);
  if (stats === undefined) return `"${target.relative}" not found in slot "${target.slot.label}"`;
  if (!stats.isDirectory()) {
    if (!stats.isFile()) return notRegularFile(target.relative);
    return [{ relative: target.relative, host: target.host, isDirectory: false, size: stats.size }];
  }
  const walk = await walkSlotFolder(target, recursive);
  return walk.entries.filter((entry) => !entry.isDirectory);
}

function cut(line: string): string {
  return line.length > MAX_GREP_LINE_CHARS ? `${line.slice(0, MAX_GREP_LINE_CHARS)}…` : line;
}
