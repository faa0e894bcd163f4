/**
 * Issue 5, through the real CLI: an agent looks at a PDF and a PNG file input with
 * `file_view`, and the next model request carries both in the provider's own wire format.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanUpAll,
  delegatingTask,
  reply,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { PROTOCOL } from '../helpers/model-preamble.ts';
import { PNG_1X1_BASE64, tinyPdf } from '../fixtures/media.ts';

afterEach(cleanUpAll);

const HCL = `
agent "reader" {
  model       = MODEL
  personality = "You read reports and charts."
}

mission "review" {
  commander {
    model = MODEL
  }
  agents = [agents.reader]
  inputs = {
    report = file("The quarterly report", true)
    chart  = file("The sales chart", true)
  }
  task "review" {
    objective = "Review the report and the chart"
  }
}
`;

/** Every object nested anywhere in a JSON value. */
function objectsIn(value: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(value)) return value.flatMap(objectsIn);
  if (value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  return [record, ...Object.values(record).flatMap(objectsIn)];
}

/** The document part and image part as each provider's wire carries them. */
function expectedParts(
  provider: 'openai' | 'anthropic' | 'gemini',
  pdf: string,
): Array<Record<string, unknown>> {
  switch (provider) {
    case 'openai':
      return [
        {
          type: 'input_file',
          file_data: `data:application/pdf;base64,${pdf}`,
          filename: 'report.pdf',
        },
        {
          type: 'input_image',
          image_url: `data:image/png;base64,${PNG_1X1_BASE64}`,
          detail: 'auto',
        },
      ];
    case 'anthropic':
      return [
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: pdf },
          title: 'report.pdf',
        },
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: PNG_1X1_BASE64 },
        },
      ];
    case 'gemini':
      return [
        { inlineData: { mimeType: 'application/pdf', data: pdf } },
        { inlineData: { mimeType: 'image/png', data: PNG_1X1_BASE64 } },
      ];
  }
}

describe.each(['openai', 'anthropic', 'gemini'] as const)('file_view on %s (CLI)', (provider) => {
  it('sends the PDF and the PNG file inputs in the provider wire format', async () => {
    const files = await temporaryDirectory('inputs');
    const pdf = tinyPdf();
    await writeFile(join(files, 'report.pdf'), pdf);
    await writeFile(join(files, 'chart.png'), Buffer.from(PNG_1X1_BASE64, 'base64'));
    const agent = 'agent:review/reader';
    const server = await startModelServer(
      delegatingTask(
        'review',
        'reader',
        [
          {
            match: { actor: agent },
            toolCalls: [
              { name: 'file_view', arguments: { slot: 'input.report', path: 'report.pdf' } },
              { name: 'file_view', arguments: { slot: 'input.chart', path: 'chart.png' } },
            ],
          },
          reply(agent, 'The report is one blank page; the chart is one pixel.'),
        ],
        'Reviewed',
      ),
    );
    const project = await writeProject(HCL, provider);
    const run = await sortie([
      'run',
      project,
      '--plain',
      '--input',
      `report=@${join(files, 'report.pdf')}`,
      '--input',
      `chart=@${join(files, 'chart.png')}`,
      '--var',
      'api_key=test-key',
      '--var',
      `base_url=${server.baseUrl(PROTOCOL[provider])}`,
      '--state-dir',
      join(files, 'state'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    server.assertDone();
    const agentRequests = server.requests.filter((request) => request.actor === agent);
    expect(agentRequests).toHaveLength(2);
    const [before, after] = agentRequests.map((request) => objectsIn(request.body));
    const [documentPart, imagePart] = expectedParts(provider, pdf.toString('base64'));
    expect(after).toContainEqual(documentPart);
    expect(after).toContainEqual(imagePart);
    // Parts appear only once the tool ran, not in the request that asked for them.
    expect(before).not.toContainEqual(documentPart);
    expect(before).not.toContainEqual(imagePart);
  }, 60_000);
});
