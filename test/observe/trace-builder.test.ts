/**
 * The span builder on hand-made events, sent through the real exporter to a loopback receiver:
 * a fork links to its parent's span at the fork point, and settings come from the variables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { openTraceExport } from '../../src/observe/trace-export.ts';
import { traceSettingsOf } from '../../src/observe/settings.ts';
import { sessionTraceId, spanIdOf } from '../../src/observe/span-ids.ts';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.ts';

const MODEL = {
  provider: 'openai',
  config: 'openai',
  key: 'gpt_4o_mini',
  apiName: 'gpt-4o-mini',
} as const;
const USAGE = { input: 10, output: 2, cacheRead: 30, cacheWrite: 4, reasoning: 0 };

/** The events of a fork's journal: the parent's up to a model response, `run.forked`, the fork's session. */
function forkJournal(): MissionEvent[] {
  const at = (seq: number, second: number) => ({
    seq,
    time: `2026-11-28T10:00:0${second}.000Z`,
    runId: 'fork-run',
  });
  const events = [
    { ...at(1, 0), type: 'run.started', actor: 'run', mission: 'm', resumed: false },
    {
      ...at(2, 1),
      type: 'mission.started',
      actor: 'mission:m',
      mission: 'm',
      inputs: {},
      chainedFrom: null,
    },
    {
      ...at(3, 1),
      type: 'task.started',
      actor: 'task:t',
      task: 't',
      activatedBy: null,
      iterated: false,
    },
    {
      ...at(4, 2),
      type: 'model.request',
      actor: 'commander:t',
      requestId: 'r1',
      model: MODEL,
      turn: 1,
      messageCount: 1,
      reasoning: 'low',
    },
    {
      ...at(5, 3),
      type: 'model.response',
      actor: 'commander:t',
      requestId: 'r1',
      model: MODEL,
      message: { role: 'assistant', parts: [{ type: 'text', text: 'hi' }] },
      usage: USAGE,
      costPico: '1500000',
      unpriced: false,
      stopReason: 'end',
      durationMs: 1000,
    },
    {
      ...at(6, 4),
      type: 'run.forked',
      actor: 'run',
      parentRunId: 'parent-run',
      atSeq: 5,
      at: 'model.response',
      edited: false,
    },
    { ...at(7, 5), type: 'run.started', actor: 'run', mission: 'm', resumed: true },
    {
      ...at(8, 6),
      type: 'run.finished',
      actor: 'run',
      outcome: 'succeeded',
      exitCode: 0,
      durationMs: 5,
      usage: USAGE,
      costPico: '1500000',
    },
  ];
  return events as MissionEvent[];
}

describe('TraceBuilder through the OTLP exporter', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it("links a fork's session to its parent's span at the fork point, its earlier events only remembered", async () => {
    const settings = traceSettingsOf({}, receiver.url, () => undefined);
    expect(settings).toBeDefined();
    const warnings: string[] = [];
    const sink = openTraceExport(settings!, (message) => warnings.push(message));
    const events = forkJournal();
    for (const event of events.slice(0, 6)) sink.remember(event);
    for (const event of events.slice(6)) sink.add(event);
    await sink.close();
    expect(warnings).toEqual([]);
    const parentTrace = sessionTraceId('parent-run', 1);
    expect(receiver.spans.map((span) => [span.name, span.traceId, span.links])).toEqual([
      [
        'sortie run m',
        sessionTraceId('fork-run', 7),
        [
          {
            traceId: parentTrace,
            spanId: spanIdOf(parentTrace, 'chat:r1'),
            attributes: {
              'sortie.link': 'fork_parent',
              'sortie.fork.parent_run_id': 'parent-run',
              'sortie.fork.at_seq': 5,
            },
          },
        ],
      ],
    ]);
    expect(receiver.spans[0]?.startNs).toBe(
      BigInt(Date.parse('2026-11-28T10:00:05.000Z')) * 1_000_000n,
    );
    expect(receiver.spans[0]?.endNs).toBe(
      BigInt(Date.parse('2026-11-28T10:00:06.000Z')) * 1_000_000n,
    );
  });
});

describe('traceSettingsOf', () => {
  const warn = (): void => undefined;

  it('is off without an endpoint or a URL, and when the SDK is disabled', () => {
    expect(traceSettingsOf({}, undefined, warn)).toBeUndefined();
    expect(
      traceSettingsOf(
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' },
        undefined,
        warn,
      ),
    ).toBeUndefined();
    expect(
      traceSettingsOf(
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'none' },
        undefined,
        warn,
      ),
    ).toBeUndefined();
  });

  it('reads the protocol, the timeout and content capture; --otel gets the traces path', () => {
    expect(
      traceSettingsOf(
        {
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://a:4318/custom',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
          OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE',
        },
        undefined,
        warn,
      ),
    ).toEqual({
      protocol: 'http/json',
      captureContent: true,
      flushTimeoutMs: 2500,
      destination: 'http://a:4318/custom',
    });
    expect(traceSettingsOf({}, 'http://b:4318/', warn)).toEqual({
      url: 'http://b:4318/v1/traces',
      protocol: 'http/protobuf',
      captureContent: false,
      flushTimeoutMs: 10_000,
      destination: 'http://b:4318/',
    });
  });

  it('warns about grpc and sends protobuf', () => {
    const warnings: string[] = [];
    const settings = traceSettingsOf(
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'http://c:4318',
      (message) => warnings.push(message),
    );
    expect(settings?.protocol).toBe('http/protobuf');
    expect(warnings).toEqual([
      'OTLP protocol "grpc" is not supported; traces are sent as http/protobuf',
    ]);
  });
});
