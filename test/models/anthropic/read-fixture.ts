/** Loads recorded Anthropic wire fixtures from test/fixtures/wire/anthropic/. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';

const FIXTURES = fileURLToPath(new URL('../../fixtures/wire/anthropic/', import.meta.url));

/** A fixture file's text. */
export function fixtureText(name: string): string {
  return readFileSync(FIXTURES + name, 'utf8');
}

/** A JSON fixture, parsed. */
export function fixtureJson<T>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** The events of an SSE recording, in order, as the SDK yields them (pings skipped). */
export function fixtureEvents(name: string): RawMessageStreamEvent[] {
  return fixtureText(name)
    .split(/\n\n/)
    .map((frame) => frame.split('\n').find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map(
      (line) => JSON.parse(line.slice('data: '.length)) as RawMessageStreamEvent | { type: 'ping' },
    )
    .filter((event): event is RawMessageStreamEvent => event.type !== 'ping');
}
