/**
 * An MCP tool result as sortie's tool outcome: text stays text (one plain string when there is
 * nothing else, so large-result interception applies), structured content becomes JSON text,
 * images and PDFs become image and document parts the model sees (as `file_view` gives them),
 * anything a model cannot take is named in a line of text, and `isError` sets the error flag.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DocumentPart, ImagePart, TextPart } from '../../models/model-types.ts';
import type { ToolOutcome } from '../builtins/agent-tool.ts';
import { errorOutcome, okOutcome } from '../builtins/agent-tool.ts';
import { MAX_IMAGE_BYTES, MAX_PDF_BYTES } from '../files/file-view.ts';
import { detectViewableType } from '../files/media-type.ts';
import { rasteriseSvg } from '../files/svg-raster.ts';

type Part = TextPart | ImagePart | DocumentPart;
type ContentItem = CallToolResult['content'][number];

/** Maps one result; `label` (`mcp "fs" tool "read"`) opens error messages. */
export async function outcomeOfResult(result: CallToolResult, label: string): Promise<ToolOutcome> {
  const parts: Part[] = [];
  for (const item of result.content) parts.push(...(await partsOf(item)));
  const texts = parts.filter((part): part is TextPart => part.type === 'text');
  // Servers should mirror structured content in a text item; when one does not, the JSON is it.
  if (result.structuredContent !== undefined && texts.length === 0) {
    parts.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  if (result.isError === true) {
    const message = parts
      .map((part) => (part.type === 'text' ? part.text : `[${part.mediaType}]`))
      .join('\n');
    return errorOutcome(`${label} failed: ${message === '' ? 'no details given' : message}`);
  }
  if (parts.length === 0) return okOutcome();
  if (parts.every((part) => part.type === 'text')) {
    return { content: parts.map((part) => (part as TextPart).text).join('\n'), isError: false };
  }
  return { content: parts, isError: false };
}

async function partsOf(item: ContentItem): Promise<Part[]> {
  switch (item.type) {
    case 'text':
      return [{ type: 'text', text: item.text }];
    case 'image':
      return binaryParts(item.data, item.mimeType, 'image');
    case 'audio':
      return [text(`[audio ${item.mimeType} omitted: sortie passes no audio to models]`)];
    case 'resource': {
      const resource = item.resource;
      if ('text' in resource) return [text(`${resource.uri}:\n${resource.text}`)];
      return binaryParts(
        resource.blob,
        resource.mimeType ?? 'application/octet-stream',
        resource.uri,
      );
    }
    case 'resource_link':
      return [
        text(JSON.stringify({ resource_link: item.uri, name: item.name, mimeType: item.mimeType })),
      ];
    default:
      return [text(`[content of type ${(item as { type: string }).type} omitted]`)];
  }
}

/**
 * Base64 bytes as an image or PDF part, the type read from the bytes (a declared type is
 * not trusted); SVG is rendered to PNG. Anything else, or too large, is named in text.
 */
async function binaryParts(base64: string, declared: string, name: string): Promise<Part[]> {
  const bytes = Buffer.from(base64, 'base64');
  const type = detectViewableType(bytes.subarray(0, 4096));
  if (type === undefined)
    return [text(`[${name}: ${declared}, ${bytes.length} bytes omitted: not an image or PDF]`)];
  const limit = type === 'application/pdf' ? MAX_PDF_BYTES : MAX_IMAGE_BYTES;
  if (bytes.length > limit) {
    return [
      text(`[${name}: ${type}, ${bytes.length} bytes omitted: over the ${limit} byte limit]`),
    ];
  }
  if (type === 'application/pdf') {
    return [{ type: 'document', mediaType: 'application/pdf', data: bytes.toString('base64') }];
  }
  if (type === 'image/svg+xml') {
    try {
      const raster = await rasteriseSvg(bytes);
      return [
        { type: 'image', mediaType: 'image/png', data: Buffer.from(raster.png).toString('base64') },
      ];
    } catch {
      return [text(`[${name}: an SVG that could not be rendered]`)];
    }
  }
  return [{ type: 'image', mediaType: type, data: bytes.toString('base64') }];
}

function text(value: string): TextPart {
  return { type: 'text', text: value };
}
