/**
 * The failure of a request no mock answer fits: it shows the request (actor, turn, last
 * message, offered tools) and an entry to add to the file, so the next try gets further.
 */
import { SortieError } from '../../base/errors.ts';
import type { MatchableRequest } from '../../base/turn-match.ts';
import type { ModelRequest, ToolDefinition } from '../model-types.ts';
import type { MockActorScript } from './mock-file.ts';

/** Characters of the last message shown. */
const SHOWN = 300;

/** No answer of the mock-model file fits a request; the model turn (and its task) fails. */
export class UnmatchedMockRequestError extends SortieError {
  constructor(
    readonly path: string,
    request: ModelRequest,
    matchable: MatchableRequest,
    script: MockActorScript | undefined,
  ) {
    const actor = matchable.actor ?? 'unknown';
    super(
      [
        `no mock answer for ${actor}${turnOf(request)}: ${why(script)}`,
        `  last message: ${JSON.stringify(shorten(matchable.lastMessage))}`,
        `  tools offered: ${request.tools.map((tool) => tool.name).join(', ') || 'none'}`,
        `add an answer to ${path}, e.g.`,
        ...example(script?.key ?? actor, request),
      ].join('\n'),
    );
  }
}

function turnOf(request: ModelRequest): string {
  return request.turn === undefined ? '' : ` (turn ${request.turn})`;
}

function why(script: MockActorScript | undefined): string {
  if (script === undefined) return 'no key of the file names this actor';
  const count = script.turns.length;
  return script.turns.some((turn) => turn.match !== undefined)
    ? `no unused answer under ${script.key} has a \`when\` that fits`
    : `${count === 1 ? 'its 1 answer is' : `all ${count} of its answers are`} used`;
}

function shorten(text: string): string {
  return text.length <= SHOWN ? text : `${text.slice(0, SHOWN - 1)}…`;
}

/**
 * An entry in YAML: the first offered tool on an actor's first turn, the next completion tool
 * after it, else a text answer; tool arguments are placeholders of the required properties.
 */
function example(key: string, request: ModelRequest): string[] {
  const acted = request.messages.some((message) => message.role === 'assistant');
  const next = acted ? completionStep(request) : undefined;
  const tool = acted
    ? request.tools.find((candidate) => candidate.name === next)
    : request.tools[0];
  if (tool === undefined) return [`  ${key}:`, `    - text: "your answer"`];
  return [
    `  ${key}:`,
    `    - tool: ${tool.name}`,
    `      arguments: ${JSON.stringify(placeholderArguments(tool))}`,
  ];
}

/**
 * The commander's rules (commander-completing.ts) refuse `task_complete` until the task's output
 * is submitted, so `submit_output` comes next when it is offered and was never called or the
 * last tool result (a refusal) asks for it; `task_complete` otherwise.
 */
function completionStep(request: ModelRequest): string {
  if (!request.tools.some((tool) => tool.name === 'submit_output')) return 'task_complete';
  const parts = request.messages.flatMap((message) => message.parts);
  const submitted = parts.some(
    (part) => part.type === 'tool_call' && part.name === 'submit_output',
  );
  const last = parts.findLast((part) => part.type === 'tool_result');
  const asked =
    last?.type === 'tool_result' &&
    typeof last.content === 'string' &&
    last.content.includes('submit_output');
  return !submitted || asked ? 'submit_output' : 'task_complete';
}

/** The tool's required properties with a placeholder of each one's type. */
function placeholderArguments(tool: ToolDefinition): Record<string, unknown> {
  const schema = tool.parameters as {
    properties?: Record<string, { type?: unknown }>;
    required?: string[];
  };
  const placeholders: Record<string, unknown> = {
    string: '…',
    number: 0,
    integer: 0,
    boolean: false,
    array: [],
    object: {},
  };
  return Object.fromEntries(
    (schema.required ?? []).map((name) => {
      const type = schema.properties?.[name]?.type;
      return [name, typeof type === 'string' ? (placeholders[type] ?? null) : null];
    }),
  );
}
