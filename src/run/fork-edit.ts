/**
 * A fork point as a JSON document a person edits (`sortie fork --edit`, `e` in the TUI), and the
 * edited document read back into the event, checked on the one validation path (src/schema):
 * - a model response: the assistant message, each tool call's arguments as a JSON object;
 * - a tool result: `{ "isError": false, "result": ... }`, the result as JSON when it is JSON;
 * - a mission's start: its inputs, checked against the mission's input schema.
 */
import { UsageError } from '../base/errors.ts';
import type { Message, Part, StopReason } from '../base/conversation.ts';
import type { Config } from '../config/config-types.ts';
import { checkedInputs } from '../actors/mission/run-checks.ts';
import type { ForkPoint } from '../journal/fork-journal.ts';
import { formatProblem, validate } from '../schema/index.ts';
import { pickMission } from './pick-mission.ts';

/** The document for a fork point, as the person sees it (two-space JSON and a newline). */
export function editDocument(point: ForkPoint): string {
  return `${JSON.stringify(documentOf(point), null, 2)}\n`;
}

/** `seq-13-model.response.json`: what the editor's title bar shows. */
export function editFileName(point: ForkPoint): string {
  return `seq-${point.seq}-${point.type}.json`;
}

function documentOf(point: ForkPoint): unknown {
  switch (point.type) {
    case 'model.response':
      return {
        role: 'assistant',
        parts: point.message.parts.map((part) =>
          part.type === 'tool_call' ? { ...part, arguments: parsedOrText(part.arguments) } : part,
        ),
      };
    case 'tool.completed':
      return { isError: point.isError, result: parsedOrText(point.result) };
    case 'mission.started':
      return point.inputs;
  }
}

/** The parsed JSON of a text that is JSON, else the text itself. */
function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const TEXT_PART = {
  type: 'object',
  required: ['type', 'text'],
  properties: { type: { const: 'text' }, text: { type: 'string' } },
};
const TOOL_CALL_PART = {
  type: 'object',
  required: ['type', 'id', 'name', 'arguments'],
  properties: {
    type: { const: 'tool_call' },
    id: { type: 'string', minLength: 1 },
    name: { type: 'string', minLength: 1 },
    arguments: { type: 'object' },
  },
};
const REASONING_PART = {
  type: 'object',
  required: ['type', 'provider', 'text'],
  properties: {
    type: { const: 'reasoning' },
    provider: { type: 'string' },
    text: { type: 'string' },
  },
};
/** An assistant message; each part is checked against its type's schema (PART_SCHEMAS). */
const MESSAGE_SCHEMA = {
  type: 'object',
  required: ['role', 'parts'],
  additionalProperties: false,
  properties: {
    role: { const: 'assistant' },
    parts: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['type'],
        properties: { type: { enum: ['text', 'tool_call', 'reasoning'] } },
      },
    },
  },
};
const PART_SCHEMAS: Record<string, Record<string, unknown>> = {
  text: TEXT_PART,
  tool_call: TOOL_CALL_PART,
  reasoning: REASONING_PART,
};
const TOOL_RESULT_SCHEMA = {
  type: 'object',
  required: ['isError', 'result'],
  additionalProperties: false,
  properties: { isError: { type: 'boolean' }, result: {} },
};

/**
 * The fork point as the edited document says; undefined when the document is unchanged.
 * Throws a usage error naming every problem (JSON syntax, shape, the mission's inputs).
 */
export function readEditedPoint(
  point: ForkPoint,
  text: string,
  config: Config,
): ForkPoint | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(point, [`not JSON: ${(error as Error).message}`]);
  }
  if (JSON.stringify(value) === JSON.stringify(documentOf(point))) return undefined;
  switch (point.type) {
    case 'model.response': {
      checkShape(point, MESSAGE_SCHEMA, value);
      const message = messageOf(value as { parts: Array<Record<string, unknown>> });
      return { ...point, message, stopReason: stopReasonOf(message, point.stopReason) };
    }
    case 'tool.completed': {
      checkShape(point, TOOL_RESULT_SCHEMA, value);
      const { isError, result } = value as { isError: boolean; result: unknown };
      return {
        ...point,
        isError,
        result: typeof result === 'string' ? result : JSON.stringify(result),
      };
    }
    case 'mission.started': {
      const mission = pickMission(config, point.mission);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw invalid(point, ['/: must be object']);
      }
      checkedInputs(mission, value as Record<string, unknown>);
      return { ...point, inputs: value as Record<string, unknown> };
    }
  }
}

function checkShape(point: ForkPoint, schema: Record<string, unknown>, value: unknown): void {
  const problems = validate(schema, value).problems.map(formatProblem);
  if (problems.length === 0 && point.type === 'model.response') {
    problems.push(...partProblems((value as { parts: Array<{ type: string }> }).parts));
  }
  if (problems.length > 0) throw invalid(point, problems);
}

/** Each part against its type's schema, then tool call ids used twice. */
function partProblems(parts: ReadonlyArray<{ type: string; id?: unknown }>): string[] {
  const problems = parts.flatMap((part, index) =>
    validate(PART_SCHEMAS[part.type] ?? {}, part).problems.map((problem) =>
      formatProblem({
        ...problem,
        path: `/parts/${index}${problem.path === '/' ? '' : problem.path}`,
      }),
    ),
  );
  const ids = parts.filter((part) => part.type === 'tool_call').map((part) => part.id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined)
    problems.push(`/parts: tool call id "${String(repeated)}" is used twice`);
  return problems;
}

function invalid(point: ForkPoint, problems: string[]): UsageError {
  return new UsageError(
    `the edited ${point.type} is invalid: ${problems.join('; ')}`,
    'nothing was forked; run the fork again and fix the edit',
  );
}

function messageOf(value: { parts: Array<Record<string, unknown>> }): Message {
  const parts = value.parts.map((part): Part =>
    part.type === 'tool_call'
      ? ({ ...part, arguments: JSON.stringify(part.arguments) } as Part)
      : (part as unknown as Part),
  );
  return { role: 'assistant', parts };
}

/** A reply with tool calls stopped for them; one without, where the original stopped (or `end`). */
function stopReasonOf(message: Message, original: StopReason): StopReason {
  if (message.parts.some((part) => part.type === 'tool_call')) return 'tool_use';
  return original === 'tool_use' ? 'end' : original;
}
