import type { DocumentPart, ImagePart, TextPart } from '../../models/model-types.ts';
import { defineTool, objectSchema } from '../define-tool.ts';
import type { AgentTool, ToolOutcome } from '../builtins/agent-tool.ts';
import { errorOutcome } from '../builtins/agent-tool.ts';
import { errorCode, formatSize, pathProperty, slotProperty } from './file-tool-common.ts';
import { detectViewableType } from './media-type.ts';
import { notRegularFile, readRegularFile } from './regular-file.ts';
import type { SlotPath } from './path-guard.ts';
import { existingFile, useFileList } from './slot-entries.ts';
import type { SlotSet } from './slots.ts';
import { rasteriseSvg } from './svg-raster.ts';

/** Provider limits: images about 5 MB each, PDFs about 32 MB; bigger files are refused. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_PDF_BYTES = 32 * 1024 * 1024;
const MAX_SVG_BYTES = 10 * 1024 * 1024;

/** `file_view {slot, path}`: images, SVG (as PNG) and PDF as model content. */
export function createFileViewTool(slots: SlotSet): AgentTool {
  return {
    definition: defineTool({
      name: 'file_view',
      description:
        'Look at an image (PNG, JPEG, GIF, WebP), an SVG (rendered to PNG) or a PDF from a slot.',
      parameters: objectSchema(['slot', 'path'], {
        slot: slotProperty(slots),
        path: pathProperty('File path relative to the slot root'),
      }),
    }),
    async execute(args) {
      const found = await existingFile(slots, args, 'read', useFileList);
      if (!found.ok) return errorOutcome(found.error);
      const { file, stats } = found;
      if (file.slot.textOnly) {
        return errorOutcome(`slot "${file.slot.label}" holds text files only: use file_read`);
      }
      const head = await readBytes(file, 4096);
      if (!Buffer.isBuffer(head)) return head;
      const type = detectViewableType(head);
      if (type === undefined) {
        return errorOutcome(
          `file "${file.relative}" is not an image, SVG or PDF: file_view shows PNG, JPEG, GIF, WebP, SVG and PDF; use file_read for text`,
        );
      }
      const limit =
        type === 'application/pdf'
          ? MAX_PDF_BYTES
          : type === 'image/svg+xml'
            ? MAX_SVG_BYTES
            : MAX_IMAGE_BYTES;
      if (stats.size > limit) {
        return errorOutcome(
          `file "${file.relative}" is ${formatSize(stats.size)}, over the ${formatSize(limit)} limit for ${type}`,
        );
      }
      const bytes = await readBytes(file, stats.size);
      if (!Buffer.isBuffer(bytes)) return bytes;
      const name = file.relative.split('/').at(-1) ?? file.relative;
      const label = (detail: string): TextPart => ({
        type: 'text',
        text: `${file.relative}: ${detail}`,
      });
      if (type === 'application/pdf') {
        const document: DocumentPart = {
          type: 'document',
          mediaType: 'application/pdf',
          data: Buffer.from(bytes).toString('base64'),
          filename: name,
        };
        return { content: [label(`PDF, ${formatSize(stats.size)}`), document], isError: false };
      }
      if (type === 'image/svg+xml') {
        let raster;
        try {
          raster = await rasteriseSvg(bytes);
        } catch {
          return errorOutcome(`file "${file.relative}" is not a valid SVG image`);
        }
        const image: ImagePart = {
          type: 'image',
          mediaType: 'image/png',
          data: Buffer.from(raster.png).toString('base64'),
        };
        return {
          content: [label(`SVG rendered to PNG, ${raster.width}×${raster.height}`), image],
          isError: false,
        };
      }
      const image: ImagePart = {
        type: 'image',
        mediaType: type,
        data: Buffer.from(bytes).toString('base64'),
      };
      return { content: [label(`${type}, ${formatSize(stats.size)}`), image], isError: false };
    },
  };
}

/** At most `limit` bytes of the file, or the error result when they cannot be read. */
async function readBytes(file: SlotPath, limit: number): Promise<Buffer | ToolOutcome> {
  try {
    return (await readRegularFile(file.host, limit)) ?? errorOutcome(notRegularFile(file.relative));
  } catch (error) {
    return errorOutcome(`could not read "${file.relative}": ${errorCode(error)}`);
  }
}
