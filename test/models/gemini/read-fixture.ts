/** Loads recorded Gemini wire fixtures from test/fixtures/wire/gemini/. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GeminiChunk } from '../../../src/models/gemini/stream-accumulator.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/wire/gemini/', import.meta.url));

/** A fixture file's text. */
export function fixtureText(name: string): string {
  return readFileSync(FIXTURES + name, 'utf8');
}

/** A JSON fixture, parsed. */
export function fixtureJson<T>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** The chunks of an SSE recording (`data:` frames only, as Gemini sends them), in order. */
export function fixtureChunks(name: string): GeminiChunk[] {
  return fixtureText(name)
    .split(/\r?\n\r?\n/)
    .map((frame) => frame.trim())
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as GeminiChunk);
}
