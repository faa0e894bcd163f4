import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/base/events.ts';
import type { Config } from '../../src/config/config-types.ts';
import { loadProject } from '../../src/config/index.ts';
import { editDocument, readEditedPoint } from '../../src/run/fork-edit.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const PROJECT = `
model "main" {
  provider = "openai"
  api_key = "sk-unused"
}
mission "m" {
  commander {
    model = models.main.gpt_4o_mini
  }
  inputs = {
    count = number("How many", true)
  }
  task "t" {
    objective = "Count"
  }
}
`;

let dir: string;
let config: Config;

beforeAll(async () => {
  dir = await temporaryDirectory('fork-edit');
  await writeFile(join(dir, 'main.hcl'), PROJECT);
  config = await loadProject(dir, { vars: {}, env: {} });
});

const ENVELOPE = { seq: 7, time: '2026-01-01T00:00:00.000Z', runId: 'r', actor: 'commander:t' };
const MODEL = { provider: 'openai' as const, config: 'main', key: 'k', apiName: 'gpt' };

const reply: EventOf<'model.response'> = {
  ...ENVELOPE,
  type: 'model.response',
  requestId: 'q',
  model: MODEL,
  message: {
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Asking.' },
      { type: 'tool_call', id: 'c1', name: 'call_agent', arguments: '{"name":"a","task":"x"}' },
    ],
  },
  usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
  costPico: '0',
  unpriced: false,
  stopReason: 'tool_use',
  durationMs: 1,
};

const result: EventOf<'tool.completed'> = {
  ...ENVELOPE,
  type: 'tool.completed',
  callId: 'c1',
  tool: 'call_agent',
  result: '{"status":"ok"}',
  isError: false,
  durationMs: 1,
};

describe('the edit document of a fork point', () => {
  it("shows a reply with its tool calls' arguments as JSON and reads an unchanged one as no edit", () => {
    const text = editDocument(reply);
    expect(JSON.parse(text)).toEqual({
      role: 'assistant',
      parts: [
        { type: 'text', text: 'Asking.' },
        { type: 'tool_call', id: 'c1', name: 'call_agent', arguments: { name: 'a', task: 'x' } },
      ],
    });
    expect(readEditedPoint(reply, text, config)).toBeUndefined();
  });

  it('reads an edited reply back: arguments as JSON text, no tool call means the reply ended', () => {
    const edited = readEditedPoint(
      reply,
      JSON.stringify({ role: 'assistant', parts: [{ type: 'text', text: 'Done.' }] }),
      config,
    );
    expect(edited).toEqual({
      ...reply,
      message: { role: 'assistant', parts: [{ type: 'text', text: 'Done.' }] },
      stopReason: 'end',
    });
  });

  it('names every problem of a reply that is not well formed', () => {
    const parts = [
      { type: 'tool_call', id: 'c1', name: '', arguments: {} },
      { type: 'tool_call', id: 'c1', name: 'x', arguments: {} },
    ];
    expect(() =>
      readEditedPoint(reply, JSON.stringify({ role: 'assistant', parts }), config),
    ).toThrow(
      'the edited model.response is invalid: /parts/0/name: must have at least 1 character; /parts: tool call id "c1" is used twice',
    );
    expect(() => readEditedPoint(reply, '{"role": "assistant",', config)).toThrow(
      /^the edited model\.response is invalid: not JSON: /,
    );
  });

  it('keeps a tool result that is text as text and one that is JSON as compact JSON', () => {
    expect(JSON.parse(editDocument(result))).toEqual({ isError: false, result: { status: 'ok' } });
    const asText = readEditedPoint(result, '{"isError": true, "result": "no such page"}', config);
    expect(asText).toEqual({ ...result, isError: true, result: 'no such page' });
    const asJson = readEditedPoint(
      result,
      '{"isError": false, "result": {"status": "no"}}',
      config,
    );
    expect(asJson).toEqual({ ...result, result: '{"status":"no"}' });
  });

  it("checks a mission's inputs against its input schema", () => {
    const started: EventOf<'mission.started'> = {
      ...ENVELOPE,
      actor: 'mission:m',
      type: 'mission.started',
      mission: 'm',
      inputs: { count: 3 },
      chainedFrom: null,
    };
    expect(readEditedPoint(started, '{"count": 4}', config)).toEqual({
      ...started,
      inputs: { count: 4 },
    });
    expect(() => readEditedPoint(started, '{"count": "four"}', config)).toThrow(
      'inputs of mission "m" are invalid: /count: must be number',
    );
  });
});
