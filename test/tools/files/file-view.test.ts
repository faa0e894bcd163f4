import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentTool } from '../../../src/tools/builtins/agent-tool.ts';
import { SlotSet, fileToolsFor } from '../../../src/tools/files/index.ts';
import { callTool } from '../builtins/call-tool.ts';
import { PNG_1X1_BASE64, tinyPdf } from '../../fixtures/media.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

const SVG =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#c00"/></svg>';
const HUGE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="8000" height="4000"><rect width="8000" height="4000" fill="#0c0"/></svg>';

let base: string;
let view: AgentTool;

beforeAll(async () => {
  base = await temporaryDirectory('view');
  const slot = join(base, 'memory');
  await mkdir(slot);
  await writeFile(join(slot, 'dot.png'), Buffer.from(PNG_1X1_BASE64, 'base64'));
  // Content decides the type, not the name.
  await writeFile(join(slot, 'disguised.txt'), Buffer.from(PNG_1X1_BASE64, 'base64'));
  await writeFile(join(slot, 'fake.png'), 'just text');
  await writeFile(join(slot, 'shape.svg'), SVG);
  await writeFile(join(slot, 'huge.svg'), HUGE_SVG);
  await writeFile(join(slot, 'broken.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><rect');
  await writeFile(join(slot, 'doc.pdf'), tinyPdf());
  await writeFile(join(slot, 'photo.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));
  await writeFile(join(slot, 'anim.gif'), Buffer.from('GIF89a\u0001\u0000', 'latin1'));
  await writeFile(
    join(slot, 'pic.webp'),
    Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ', 'latin1'),
  );
  view = fileToolsFor(new SlotSet({ memory: slot })).find(
    (tool) => tool.definition.name === 'file_view',
  ) as AgentTool;
});

describe('file_view', () => {
  it('passes a PNG as an image part', async () => {
    expect(await callTool(view, { slot: 'memory', path: 'dot.png' })).toEqual({
      content: [
        { type: 'text', text: 'dot.png: image/png, 70 B' },
        { type: 'image', mediaType: 'image/png', data: PNG_1X1_BASE64 },
      ],
      isError: false,
    });
  });

  it('detects types by content, not by extension', async () => {
    const disguised = await callTool(view, { slot: 'memory', path: 'disguised.txt' });
    expect(Array.isArray(disguised.content) && disguised.content[1]).toEqual({
      type: 'image',
      mediaType: 'image/png',
      data: PNG_1X1_BASE64,
    });
    expect(await callTool(view, { slot: 'memory', path: 'fake.png' })).toEqual({
      content: JSON.stringify({
        status: 'error',
        error:
          'file "fake.png" is not an image, SVG or PDF: file_view shows PNG, JPEG, GIF, WebP, SVG and PDF; use file_read for text',
      }),
      isError: true,
    });
  });

  it('recognises JPEG, GIF and WebP signatures', async () => {
    const types = [];
    for (const path of ['photo.jpg', 'anim.gif', 'pic.webp']) {
      const outcome = await callTool(view, { slot: 'memory', path });
      types.push(Array.isArray(outcome.content) ? outcome.content[1] : undefined);
    }
    expect(
      types.map((part) => part !== undefined && 'mediaType' in part && part.mediaType),
    ).toEqual(['image/jpeg', 'image/gif', 'image/webp']);
  });

  it('rasterises an SVG to a real PNG', async () => {
    const outcome = await callTool(view, { slot: 'memory', path: 'shape.svg' });
    expect(outcome.isError).toBe(false);
    const [label, image] = outcome.content as [
      { type: string; text: string },
      { type: string; mediaType: string; data: string },
    ];
    expect(label).toEqual({ type: 'text', text: 'shape.svg: SVG rendered to PNG, 40×30' });
    expect([image.type, image.mediaType]).toEqual(['image', 'image/png']);
    const png = Buffer.from(image.data, 'base64');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR width and height, big-endian, at bytes 16..23.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([40, 30]);
  });

  it('scales a huge SVG down to 2048 px on its longest side', async () => {
    const outcome = await callTool(view, { slot: 'memory', path: 'huge.svg' });
    const label = (outcome.content as Array<{ text?: string }>)[0];
    expect(label?.text).toBe('huge.svg: SVG rendered to PNG, 2048×1024');
  });

  it('reports an SVG that cannot be rendered', async () => {
    expect(await callTool(view, { slot: 'memory', path: 'broken.svg' })).toEqual({
      content: '{"status":"error","error":"file \\"broken.svg\\" is not a valid SVG image"}',
      isError: true,
    });
  });

  it('passes a PDF as a document part', async () => {
    const pdf = tinyPdf();
    expect(await callTool(view, { slot: 'memory', path: 'doc.pdf' })).toEqual({
      content: [
        { type: 'text', text: `doc.pdf: PDF, ${pdf.length} B` },
        {
          type: 'document',
          mediaType: 'application/pdf',
          data: pdf.toString('base64'),
          filename: 'doc.pdf',
        },
      ],
      isError: false,
    });
  });
});
