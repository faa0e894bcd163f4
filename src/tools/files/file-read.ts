import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool } from '../builtins/agent-tool.ts';
import { errorOutcome, textOutcome } from '../builtins/agent-tool.ts';
import {
  MAX_UNCAPPED_READ_BYTES,
  errorCode,
  formatSize,
  pathProperty,
  slotProperty,
} from './file-tool-common.ts';
import { looksBinary } from './media-type.ts';
import { notRegularFile, openRegularFile } from './regular-file.ts';
import { existingFile, useFileList } from './slot-entries.ts';
import type { SlotSet } from './slots.ts';

const CHUNK_BYTES = 64 * 1024;
const SNIFF_BYTES = 8192;

/** `file_read {slot, path, max_lines?, max_bytes?}`: the file's text, plain. */
export function createFileReadTool(slots: SlotSet): AgentTool {
  return {
    definition: defineTool({
      name: 'file_read',
      description:
        'Read a text file from a slot. Returns the text itself. Use max_lines / max_bytes to read the start of big files.',
      parameters: objectSchema(['slot', 'path'], {
        slot: slotProperty(slots),
        path: pathProperty('File path relative to the slot root'),
        max_lines: { type: 'integer', minimum: 1 },
        max_bytes: { type: 'integer', minimum: 1 },
      }),
    }),
    async execute(args) {
      const found = await existingFile(slots, args, 'read', useFileList);
      if (!found.ok) return errorOutcome(found.error);
      const { file, stats } = found;
      const maxLines = args.max_lines as number | undefined;
      const maxBytes = args.max_bytes as number | undefined;
      if (
        maxLines === undefined &&
        maxBytes === undefined &&
        stats.size > MAX_UNCAPPED_READ_BYTES
      ) {
        return errorOutcome(
          `file "${file.relative}" is ${formatSize(stats.size)}, over the 10 MB limit for a whole read: pass max_bytes to read part of it`,
        );
      }
      let bytes: Uint8Array | undefined;
      try {
        const limit = Math.min(maxBytes ?? Infinity, MAX_UNCAPPED_READ_BYTES);
        bytes = await readHead(file.host, limit, maxLines);
      } catch (error) {
        return errorOutcome(`could not read "${file.relative}": ${errorCode(error)}`);
      }
      if (bytes === undefined) return errorOutcome(notRegularFile(file.relative));
      if (looksBinary(bytes.subarray(0, SNIFF_BYTES))) {
        const instead = file.slot.textOnly
          ? `slot "${file.slot.label}" holds text files only`
          : 'file_read reads text; use file_view for images, SVG and PDF';
        return errorOutcome(`file "${file.relative}" is binary: ${instead}`);
      }
      const text = new TextDecoder('utf-8').decode(bytes.subarray(0, completeUtf8Length(bytes)));
      return textOutcome(maxLines === undefined ? text : firstLines(text, maxLines));
    },
  };
}

/**
 * Reads at most `limit` bytes, stopping early once `maxLines` line breaks have been seen;
 * undefined when the file is no regular file (swapped in after the first check).
 */
async function readHead(
  host: string,
  limit: number,
  maxLines: number | undefined,
): Promise<Uint8Array | undefined> {
  const handle = await openRegularFile(host);
  if (handle === undefined) return undefined;
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    let newlines = 0;
    while (total < limit) {
      const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, limit - total));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, total);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      chunks.push(chunk);
      total += bytesRead;
      if (maxLines !== undefined) {
        for (const byte of chunk) if (byte === 0x0a) newlines++;
        if (newlines >= maxLines) break;
      }
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}

/** The length of `bytes` without a UTF-8 sequence cut off at the end by a byte cap. */
function completeUtf8Length(bytes: Uint8Array): number {
  let start = bytes.length - 1;
  // Walk back over continuation bytes (10xxxxxx) to the lead byte of the last sequence.
  while (start >= 0 && start > bytes.length - 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  if (start < 0) return bytes.length;
  const lead = bytes[start] ?? 0;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start < needed ? start : bytes.length;
}

function firstLines(text: string, maxLines: number): string {
  const lines = text.split('\n');
  if (lines.length <= maxLines) return text;
  return lines.slice(0, maxLines).join('\n');
}
