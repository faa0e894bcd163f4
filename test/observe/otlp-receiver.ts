/**
 * An OTLP/HTTP trace receiver on loopback for the tests: takes `http/protobuf` (decoded with the
 * protobuf reader the OpenTelemetry packages ship) and `http/json`, keeps every byte received
 * (to scan for secrets) and the spans in one shape whichever the encoding.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProtobufReader } from '@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-reader.js';

/** An attribute value as received. */
export type AttributeValue = string | number | boolean | AttributeValue[] | null;

/** A span as received, whichever the encoding. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's kind: 1 internal, 3 client. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, AttributeValue>;
  status: { code: number; message: string };
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, AttributeValue> }>;
  events: Array<{ name: string; attributes: Record<string, AttributeValue> }>;
  resource: Record<string, AttributeValue>;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** The base URL (as OTEL_EXPORTER_OTLP_ENDPOINT takes it). */
  url: string;
  spans: ReceivedSpan[];
  /** Every request body, as received. */
  bodies: Buffer[];
  contentTypes: string[];
  close(): Promise<void>;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

function fixed64(bytes: Uint8Array, reader: ProtobufReader): DataView {
  const view = new DataView(bytes.buffer, bytes.byteOffset + reader.pos, 8);
  reader.pos += 8;
  return view;
}

/** Calls `field` for each field of a protobuf message. */
function fields(
  bytes: Uint8Array,
  field: (number: number, wireType: number, reader: ProtobufReader) => void,
): void {
  const reader = new ProtobufReader(bytes);
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    const before = reader.pos;
    field(fieldNumber, wireType, reader);
    if (reader.pos === before) reader.skip(wireType);
  }
}

function anyValue(bytes: Uint8Array): AttributeValue {
  let value: AttributeValue = null;
  fields(bytes, (number, _wire, reader) => {
    if (number === 1) value = reader.readString();
    else if (number === 2) value = reader.readVarint() === 1;
    else if (number === 3) value = reader.readVarint();
    else if (number === 4) value = fixed64(bytes, reader).getFloat64(0, true);
    else if (number === 5) {
      const items: AttributeValue[] = [];
      fields(reader.readBytes(), (inner, _w, r) => {
        if (inner === 1) items.push(anyValue(r.readBytes()));
      });
      value = items;
    }
  });
  return value;
}

function keyValue(bytes: Uint8Array, into: Record<string, AttributeValue>): void {
  let key = '';
  let value: AttributeValue = null;
  fields(bytes, (number, _wire, reader) => {
    if (number === 1) key = reader.readString();
    else if (number === 2) value = anyValue(reader.readBytes());
  });
  into[key] = value;
}

function protobufSpan(bytes: Uint8Array, resource: Record<string, AttributeValue>): ReceivedSpan {
  const span: ReceivedSpan = {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    name: '',
    kind: 0,
    startNs: 0n,
    endNs: 0n,
    attributes: {},
    status: { code: 0, message: '' },
    links: [],
    events: [],
    resource,
  };
  fields(bytes, (number, _wire, reader) => {
    if (number === 1) span.traceId = hex(reader.readBytes());
    else if (number === 2) span.spanId = hex(reader.readBytes());
    else if (number === 4) span.parentSpanId = hex(reader.readBytes());
    else if (number === 5) span.name = reader.readString();
    else if (number === 6) span.kind = reader.readVarint();
    else if (number === 7) span.startNs = fixed64(bytes, reader).getBigUint64(0, true);
    else if (number === 8) span.endNs = fixed64(bytes, reader).getBigUint64(0, true);
    else if (number === 9) keyValue(reader.readBytes(), span.attributes);
    else if (number === 11) {
      const event = { name: '', attributes: {} as Record<string, AttributeValue> };
      fields(reader.readBytes(), (inner, _w, r) => {
        if (inner === 2) event.name = r.readString();
        else if (inner === 3) keyValue(r.readBytes(), event.attributes);
      });
      span.events.push(event);
    } else if (number === 13) {
      const link = { traceId: '', spanId: '', attributes: {} as Record<string, AttributeValue> };
      fields(reader.readBytes(), (inner, _w, r) => {
        if (inner === 1) link.traceId = hex(r.readBytes());
        else if (inner === 2) link.spanId = hex(r.readBytes());
        else if (inner === 4) keyValue(r.readBytes(), link.attributes);
      });
      span.links.push(link);
    } else if (number === 15) {
      fields(reader.readBytes(), (inner, _w, r) => {
        if (inner === 2) span.status.message = r.readString();
        else if (inner === 3) span.status.code = r.readVarint();
      });
    }
  });
  return span;
}

/** The spans of an ExportTraceServiceRequest in protobuf. */
export function decodeProtobuf(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  fields(body, (number, _wire, reader) => {
    if (number !== 1) return;
    const resourceSpans = reader.readBytes();
    const resource: Record<string, AttributeValue> = {};
    const spanBodies: Uint8Array[] = [];
    fields(resourceSpans, (inner, _w, r) => {
      if (inner === 1) {
        fields(r.readBytes(), (field, _x, rr) => {
          if (field === 1) keyValue(rr.readBytes(), resource);
        });
      } else if (inner === 2) {
        fields(r.readBytes(), (field, _x, rr) => {
          if (field === 2) spanBodies.push(rr.readBytes());
        });
      }
    });
    for (const spanBody of spanBodies) spans.push(protobufSpan(spanBody, resource));
  });
  return spans;
}

interface JsonKeyValue {
  key: string;
  value: JsonAnyValue;
}
interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}

function jsonValue(value: JsonAnyValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(jsonValue);
  return null;
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, jsonValue(value)]));
}

/** The spans of an ExportTraceServiceRequest in OTLP/JSON. */
export function decodeJson(body: string): ReceivedSpan[] {
  // OTLP/JSON's shape, as far as the tests read it.
  const request = JSON.parse(body) as {
    resourceSpans: Array<{
      resource?: { attributes?: JsonKeyValue[] };
      scopeSpans: Array<{ spans: Array<Record<string, unknown>> }>;
    }>;
  };
  return request.resourceSpans.flatMap((resourceSpans) => {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    return resourceSpans.scopeSpans.flatMap(({ spans }) =>
      spans.map((span): ReceivedSpan => {
        const status = (span.status ?? {}) as { code?: number; message?: string };
        const links = (span.links ?? []) as Array<Record<string, unknown>>;
        const events = (span.events ?? []) as Array<Record<string, unknown>>;
        return {
          traceId: String(span.traceId),
          spanId: String(span.spanId),
          parentSpanId: String(span.parentSpanId ?? ''),
          name: String(span.name),
          kind: Number(span.kind),
          startNs: BigInt(String(span.startTimeUnixNano)),
          endNs: BigInt(String(span.endTimeUnixNano)),
          attributes: jsonAttributes(span.attributes as JsonKeyValue[]),
          status: { code: status.code ?? 0, message: status.message ?? '' },
          links: links.map((link) => ({
            traceId: String(link.traceId),
            spanId: String(link.spanId),
            attributes: jsonAttributes(link.attributes as JsonKeyValue[]),
          })),
          events: events.map((event) => ({
            name: String(event.name),
            attributes: jsonAttributes(event.attributes as JsonKeyValue[]),
          })),
          resource,
        };
      }),
    );
  });
}

/** Starts a receiver on 127.0.0.1; `answer: false` takes requests and never answers (a hung collector). */
export async function startOtlpReceiver(answer = true): Promise<OtlpReceiver> {
  const received: OtlpReceiver = {
    url: '',
    spans: [],
    bodies: [],
    contentTypes: [],
    close: () => Promise.resolve(),
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = request.headers['content-type'] ?? '';
      received.bodies.push(body);
      received.contentTypes.push(type);
      received.spans.push(
        ...(type.includes('json') ? decodeJson(body.toString('utf8')) : decodeProtobuf(body)),
      );
      if (!answer) return;
      response.writeHead(200, {
        'content-type': type.includes('json') ? 'application/json' : type,
      });
      response.end(type.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  received.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  received.close = () =>
    new Promise<void>((closed) => {
      server.closeAllConnections();
      server.close(() => closed());
    });
  return received;
}
