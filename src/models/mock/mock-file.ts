/**
 * `--mock-model FILE`: a YAML (or JSON, which is YAML) file of scripted answers per actor, for
 * trying a mission with no network and no key. Read with the `yaml` package and checked by the
 * one validation path; every problem is a usage error naming the file (exit 2).
 */
import { readFile } from 'node:fs/promises';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { UsageError } from '../../base/errors.ts';
import { didYouMean } from '../../base/suggest.ts';
import { describeFileSystemError, isFileSystemError } from '../../base/file-system-error.ts';
import type { TurnMatch } from '../../base/turn-match.ts';
import { formatProblem, validate } from '../../schema/index.ts';

/** One tool call of a scripted answer. */
export interface MockToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** One scripted answer: text, tool calls or both, answering a request `match` fits. */
export interface MockTurn {
  text?: string;
  toolCalls: MockToolCall[];
  match?: TurnMatch;
  usage: { input: number; output: number };
}

/** The answers of the actors a key names: an actor id, or a pattern with `*` for any text. */
export interface MockActorScript {
  key: string;
  pattern: RegExp;
  turns: MockTurn[];
}

/** A loaded mock-model file. */
export interface MockModel {
  path: string;
  actors: MockActorScript[];
}

/** The mock-model file is missing, not YAML, or not in the mock format. */
export class MockModelFileError extends UsageError {
  /** `at` is `line:col` in the file when the problem has a place. */
  constructor(path: string, problem: string, at?: string) {
    super(
      `mock model ${at === undefined ? path : `${path}:${at}`}: ${problem}`,
      'the format is in docs/testing.md ("Mock models")',
    );
  }
}

const toolCall = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1 }, arguments: { type: 'object' } },
  required: ['name'],
  additionalProperties: false,
};

const turnSchema = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    tool: { type: 'string', minLength: 1 },
    arguments: { type: 'object' },
    tools: { type: 'array', items: toolCall, minItems: 1 },
    when: {
      type: 'object',
      properties: {
        last_message_contains: { type: 'string' },
        contains: { type: 'string' },
      },
      additionalProperties: false,
    },
    usage: {
      type: 'object',
      properties: {
        input: { type: 'integer', minimum: 0 },
        output: { type: 'integer', minimum: 0 },
      },
      additionalProperties: false,
    },
  },
  anyOf: [{ required: ['text'] }, { required: ['tool'] }, { required: ['tools'] }],
  dependentRequired: { arguments: ['tool'] },
  additionalProperties: false,
};

const fileSchema = {
  type: 'object',
  additionalProperties: { type: 'array', items: turnSchema },
};

/** The turn as written in the file (snake_case, like HCL). */
interface WrittenTurn {
  text?: string;
  tool?: string;
  arguments?: Record<string, unknown>;
  tools?: Array<{ name: string; arguments?: Record<string, unknown> }>;
  when?: { last_message_contains?: string; contains?: string };
  usage?: { input?: number; output?: number };
}

/** Reads and checks a mock-model file. */
export async function loadMockModel(path: string): Promise<MockModel> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw new MockModelFileError(path, describeFileSystemError(error));
  }
  return parseMockModel(path, text);
}

/** Parses the text of a mock-model file (`path` names it in messages). */
export function parseMockModel(path: string, text: string): MockModel {
  const lines = new LineCounter();
  // The yaml package's own unique-key check compares each key with every earlier one of its
  // map (quadratic: see bench/README.md); checkUniqueKeys does the same in one pass.
  const document = parseDocument(text, {
    prettyErrors: false,
    lineCounter: lines,
    uniqueKeys: false,
  });
  const syntax = document.errors[0];
  if (syntax !== undefined) {
    const { line } = lines.linePos(syntax.pos[0]);
    throw new MockModelFileError(path, `line ${line}: ${syntax.message.split('\n')[0]}`);
  }
  checkUniqueKeys(path, document, lines);
  checkFieldNames(path, document, lines);
  const value = documentValue(path, document);
  const { problems } = validate(fileSchema, value);
  if (problems.length > 0) {
    throw new MockModelFileError(path, problems.map(formatProblem).join('; '));
  }
  const written = value as Record<string, WrittenTurn[]>;
  return {
    path,
    actors: Object.entries(written).map(([key, turns]) => ({
      key,
      pattern: actorPattern(key),
      turns: turns.map(readTurn),
    })),
  };
}

/** A key written twice in one mapping, found with one set per mapping (linear in the file). */
function checkUniqueKeys(path: string, document: Document, lines: LineCounter): void {
  visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        if (!seen.has(pair.key.value)) {
          seen.add(pair.key.value);
          continue;
        }
        const { line, col } = lines.linePos(pair.key.range?.[0] ?? 0);
        throw new MockModelFileError(
          path,
          `the key "${String(pair.key.value)}" is written twice`,
          `${line}:${col}`,
        );
      }
    },
  });
}

/**
 * An unknown field of an answer, reported where it is written with the closest known name:
 * ajv alone would give every branch of the answer's `anyOf` and no place in the file.
 */
function checkFieldNames(path: string, document: Document, lines: LineCounter): void {
  const known = Object.keys(turnSchema.properties);
  const actors = document.contents;
  if (!isMap(actors)) return;
  for (const actor of actors.items) {
    if (!isSeq(actor.value)) continue;
    for (const turn of actor.value.items) {
      if (!isMap(turn)) continue;
      for (const field of turn.items) {
        if (!isScalar(field.key) || known.includes(String(field.key.value))) continue;
        const name = String(field.key.value);
        const { line, col } = lines.linePos(field.key.range?.[0] ?? 0);
        throw new MockModelFileError(
          path,
          `unknown field "${name}" in an answer${didYouMean(name, known)}`,
          `${line}:${col}`,
        );
      }
    }
  }
}

/** Aliases an anchor may expand to: far more than a hand-written file uses, far fewer than a bomb. */
const MAX_ALIAS_COUNT = 100;

/** The document as plain values; an alias bomb ("billion laughs") is the user's error, not ours. */
function documentValue(path: string, document: Document): unknown {
  try {
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (error) {
    // The yaml package throws a ReferenceError with this text when the aliases expand too far.
    if (!(error instanceof ReferenceError) || !error.message.startsWith('Excessive alias count')) {
      throw error;
    }
    throw new MockModelFileError(
      path,
      `its aliases (*name) expand past the limit of ${MAX_ALIAS_COUNT} values; write the answers out instead`,
    );
  }
}

function readTurn(written: WrittenTurn): MockTurn {
  const toolCalls: MockToolCall[] = [];
  if (written.tool !== undefined) {
    toolCalls.push({ name: written.tool, arguments: written.arguments ?? {} });
  }
  for (const call of written.tools ?? []) {
    toolCalls.push({ name: call.name, arguments: call.arguments ?? {} });
  }
  const match: TurnMatch = {};
  if (written.when?.last_message_contains !== undefined) {
    match.lastMessageContains = written.when.last_message_contains;
  }
  if (written.when?.contains !== undefined) match.contains = written.when.contains;
  return {
    ...(written.text !== undefined ? { text: written.text } : {}),
    toolCalls,
    ...(Object.keys(match).length > 0 ? { match } : {}),
    usage: { input: written.usage?.input ?? 0, output: written.usage?.output ?? 0 },
  };
}

/** `commander:summarize[*]` → a RegExp where `*` is any text and the rest is literal. */
function actorPattern(key: string): RegExp {
  const literal = key.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('.*')}$`);
}
