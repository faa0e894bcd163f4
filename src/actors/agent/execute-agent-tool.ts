/**
 * Runs one tool call of an agent (once the step gate let it through: `holdAgentTool`):
 * `tool.called`, argument validation, execution
 * (secrets substituted inside the tool wrapper), redaction, large-result interception,
 * `tool.completed`. A tool's failure is always a result for the model, never a crash.
 */
import type { ToolCallPart } from '../../models/model-types.ts';
import type { EventBus } from '../../runtime/event-bus.ts';
import { abortError, untilAborted } from '../../base/abort.ts';
import { reasonOf } from '../../base/reason.ts';
import { didYouMean } from '../../base/suggest.ts';
import { openGate, type StepGate } from '../../runtime/gate.ts';
import type { ToolOutcome } from '../../tools/builtins/agent-tool.ts';
import { errorOutcome } from '../../tools/builtins/agent-tool.ts';
import { parseToolArguments } from '../../tools/define-tool.ts';
import { interceptLargeResult, type ResultStore } from '../../tools/results/index.ts';
import { redactOutcome } from '../../tools/secrets.ts';
import type { AgentToolbox } from './agent-toolbox.ts';

/** Checks only that the arguments are a JSON object: for tools that check their own. */
const ANY_OBJECT_TOOL = { name: 'any', description: '', parameters: { type: 'object' } };

/** What executing an agent's tool calls needs. */
export interface AgentToolRunner {
  actor: string;
  bus: EventBus;
  gate: StepGate;
  results: ResultStore;
  toolbox: AgentToolbox;
  /** Replaces every secret value (variables, protected inputs, API keys). */
  redact: (text: string) => string;
  /** Results larger than this many UTF-8 bytes are stored and summarised. */
  thresholdBytes: number;
}

/** What the agent machine says about one call besides the call itself. */
export interface AgentCallRuling {
  /** The machine's own result (skill rules): reported as the call's result, no tool runs. */
  answer?: ToolOutcome;
  /** The skills loaded now: their tools are callable. */
  loadedSkills?: readonly string[];
}

/** Resolves when the step gate lets `call` run; rejects with an AbortError when `signal` aborts. */
export async function holdAgentTool(
  runner: AgentToolRunner,
  call: ToolCallPart,
  signal: AbortSignal,
): Promise<void> {
  // The open gate never holds: no detail line to redact.
  if (runner.gate === openGate) return;
  await runner.gate.before(
    { kind: 'tool', actor: runner.actor, tool: call.name, detail: runner.redact(call.arguments) },
    signal,
  );
}

/**
 * Executes one call and returns what the model sees. Rejects only when the signal aborts
 * (cancellation); everything a tool does wrong becomes an error result.
 */
export async function executeAgentTool(
  runner: AgentToolRunner,
  call: ToolCallPart,
  signal: AbortSignal,
  ruling: AgentCallRuling = {},
): Promise<ToolOutcome> {
  const { actor, bus } = runner;
  if (signal.aborted) throw abortError('the tool call was aborted');
  reportToolCalled(bus, actor, call);
  const started = performance.now();
  let outcome: ToolOutcome;
  if (ruling.answer !== undefined) {
    // The machine's own answer (a skill's instructions) is configuration, never a large result.
    outcome = redactOutcome(ruling.answer, runner.redact);
  } else {
    const raw = await runTool(runner, call, signal, ruling.loadedSkills ?? []);
    // A tool that answers its abort with a result (a cut-off HTTP body) ends with the run, unreported.
    if (signal.aborted) throw abortError('the tool call was aborted');
    outcome = redactOutcome(raw, runner.redact);
    const intercepted = await interceptLargeResult(outcome, {
      thresholdBytes: runner.thresholdBytes,
      store: runner.results,
      toolName: call.name,
    });
    outcome = intercepted.outcome;
    if (intercepted.stored !== undefined) runner.toolbox.addResultTools();
  }
  reportToolCompleted(bus, actor, call, outcome, started);
  return outcome;
}

/** `tool.called` of `actor`'s call. */
export function reportToolCalled(bus: EventBus, actor: string, call: ToolCallPart): void {
  bus.emit({
    type: 'tool.called',
    actor,
    callId: call.id,
    tool: call.name,
    arguments: call.arguments,
  });
}

/** `tool.completed` of `actor`'s call, begun at `started` (`performance.now()`). */
export function reportToolCompleted(
  bus: EventBus,
  actor: string,
  call: ToolCallPart,
  outcome: ToolOutcome,
  started: number,
): void {
  bus.emit({
    type: 'tool.completed',
    actor,
    callId: call.id,
    tool: call.name,
    result: outcomeText(outcome),
    isError: outcome.isError,
    durationMs: Math.round(performance.now() - started),
  });
}

async function runTool(
  runner: AgentToolRunner,
  call: ToolCallPart,
  signal: AbortSignal,
  loadedSkills: readonly string[],
): Promise<ToolOutcome> {
  const tool = runner.toolbox.find(call.name, loadedSkills);
  if (tool === undefined)
    return errorOutcome(unknownToolText(runner.toolbox, call.name, loadedSkills));
  const parsed = parseToolArguments(
    tool.validatesOwnArguments === true ? ANY_OBJECT_TOOL : tool.definition,
    call.arguments,
  );
  if (!parsed.ok) {
    return errorOutcome(`invalid arguments for ${call.name}`, { problems: parsed.problems });
  }
  try {
    // A tool stuck in a call that ignores the signal must not hold a cancelled run.
    return await untilAborted(
      tool.execute(parsed.args, { signal, callId: call.id }),
      signal,
      'the tool call was aborted',
    );
  } catch (error) {
    // A cancelled run must stop here, not carry on with an error result.
    if (signal.aborted) throw error;
    return errorOutcome(`tool failed: ${reasonOf(error)}`);
  }
}

/**
 * The error for a call of a tool the agent does not have: a "did you mean" only among the tools
 * it can call, and, for an agent configured without tools, that the ones it has are the
 * mission's (dataset and file tools), so the model stops looking for others.
 */
function unknownToolText(
  toolbox: AgentToolbox,
  name: string,
  loadedSkills: readonly string[],
): string {
  const names = toolbox.names(loadedSkills);
  const unknown = `unknown tool "${name}"${didYouMean(name, names)}`;
  if (toolbox.hasOwnTools()) return `${unknown}; available tools: ${names.join(', ')}`;
  if (names.length === 0) return `${unknown}; this agent has no tools`;
  return `${unknown}; this agent has no tools of its own, only the mission's: ${names.join(', ')}`;
}

/** The result as one text for `tool.completed`: rich content lists its parts, never their bytes. */
export function outcomeText(outcome: ToolOutcome): string {
  if (typeof outcome.content === 'string') return outcome.content;
  return outcome.content
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'image') return `[image ${part.mediaType}]`;
      return `[document ${part.mediaType}]`;
    })
    .join('\n');
}
