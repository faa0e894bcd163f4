/** Model-visible names of MCP tools, and MCP results as tool outcomes (content the tests' servers do not send). */
import { describe, expect, it } from 'vitest';
import { modelToolName, PROVIDER_TOOL_NAME } from '../../../src/tools/mcp/index.ts';
import { outcomeOfResult } from '../../../src/tools/mcp/mcp-result.ts';
import { PNG_1X1_BASE64, tinyPdf } from '../../fixtures/media.ts';

describe('model-visible names of MCP tools', () => {
  it('is mcp_<server>_<tool> when providers accept it', () => {
    expect(modelToolName('filesystem', 'read_text_file')).toBe('mcp_filesystem_read_text_file');
  });

  it('replaces refused characters, cuts to 64 and adds a hash of the full name', () => {
    const dotted = modelToolName('docs', 'search.v2');
    const underscored = modelToolName('docs', 'search_v2');
    expect(underscored).toBe('mcp_docs_search_v2');
    expect(dotted).toMatch(/^mcp_docs_search_v2_[0-9a-f]{8}$/);
    const long = modelToolName(
      'knowledge_base_of_the_company',
      'search_every_document_by_keyword_and_date',
    );
    expect(long).toHaveLength(64);
    expect(long.slice(0, 56)).toBe('mcp_knowledge_base_of_the_company_search_every_document_');
    expect(PROVIDER_TOOL_NAME.test(long)).toBe(true);
    expect(
      modelToolName('knowledge_base_of_the_company', 'search_every_document_by_keyword_and_date'),
    ).toBe(long);
  });
});

describe('MCP results as tool outcomes', () => {
  const label = 'mcp "s" tool "t"';

  it('gives text resources with their uri, and names audio and unknown binaries in text', async () => {
    const outcome = await outcomeOfResult(
      {
        content: [
          { type: 'resource', resource: { uri: 'file:///notes.md', text: '# Notes' } },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          {
            type: 'resource',
            resource: {
              uri: 'file:///a.bin',
              blob: 'AAECAw==',
              mimeType: 'application/octet-stream',
            },
          },
        ],
      },
      label,
    );
    expect(outcome).toEqual({
      content:
        'file:///notes.md:\n# Notes\n' +
        '[audio audio/wav omitted: sortie passes no audio to models]\n' +
        '[file:///a.bin: application/octet-stream, 4 bytes omitted: not an image or PDF]',
      isError: false,
    });
  });

  it('reads an image type from its bytes and gives a PDF resource as a document', async () => {
    const pdf = tinyPdf().toString('base64');
    const outcome = await outcomeOfResult(
      {
        content: [
          { type: 'image', data: PNG_1X1_BASE64, mimeType: 'image/jpeg' },
          {
            type: 'resource',
            resource: { uri: 'file:///r.pdf', blob: pdf, mimeType: 'application/pdf' },
          },
        ],
      },
      label,
    );
    expect(outcome).toEqual({
      content: [
        { type: 'image', mediaType: 'image/png', data: PNG_1X1_BASE64 },
        { type: 'document', mediaType: 'application/pdf', data: pdf },
      ],
      isError: false,
    });
  });

  it('answers an empty result with ok and an error without text with "no details given"', async () => {
    expect(await outcomeOfResult({ content: [] }, label)).toEqual({
      content: '{"status":"ok"}',
      isError: false,
    });
    expect(await outcomeOfResult({ content: [], isError: true }, label)).toEqual({
      content: '{"status":"error","error":"mcp \\"s\\" tool \\"t\\" failed: no details given"}',
      isError: true,
    });
  });
});
