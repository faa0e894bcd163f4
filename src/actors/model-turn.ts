/**
 * The one door every model request of a run goes through: step gate, budget check, events,
 * the (cached, retry-wrapped) client, cost and budget bookkeeping.
 */
import type { CostLedger } from '../models/cost-ledger.ts';
import type { RetryNotice } from '../models/retry.ts';
import { declinedError } from '../models/stop-reasons.ts';
import type {
  Message,
  ModelClient,
  ModelRequest,
  ModelResponse,
  ResolvedModel,
  ToolDefinition,
} from '../models/model-types.ts';
import { budgetError, type BudgetSignal, type BudgetTracker } from '../runtime/budget.ts';
import type { EventBus } from '../runtime/event-bus.ts';
import type { ModelReference } from '../base/events.ts';
import { openGate, type StepGate } from '../runtime/gate.ts';
import { abortError } from '../base/abort.ts';
import type { ModelClientFactory } from '../models/create-client.ts';
import type { ModelTurnRequest, RunModelTurn } from './contracts.ts';

/** What `createRunModelTurn` needs: the run's shared services. */
export interface RunModelTurnServices {
  bus: EventBus;
  gate: StepGate;
  budgets: BudgetTracker;
  costs: CostLedger;
  clients: ModelClientFactory;
  /** Applied to the gate point's detail line (gate listeners may show it outside events). */
  redact?: (text: string) => string;
  /**
   * Answered model turns per actor in this run, shared by the run's chained missions and
   * seeded from the journal on resume, so an actor's turn numbers (the keys of a cassette)
   * go on where its journal left them instead of starting again at 1. Default: a new map.
   */
  answeredTurns?: Map<string, number>;
}

/** Which actor and request a client call belongs to, for retries reported by a shared client. */
interface CallScope {
  actor: string;
  requestId: string;
}

/** Characters of the last message shown in a gate point's detail line. */
const DETAIL_PREVIEW_CHARS = 80;

/** The `model.request`/`model.response` reference of a resolved model. */
export function modelReference(model: ResolvedModel): ModelReference {
  return { provider: model.provider, config: model.config, key: model.key, apiName: model.apiName };
}

/**
 * Builds the run's `RunModelTurn`. Clients are made once per model (`config` + `key`) and
 * shared by every actor; a retry is reported by the shared client's `onRetry` with the request
 * object it retries, so each request object is mapped to its actor and request id and the retry
 * event names that actor. (Async-local storage did this before; it switches on promise hooks for
 * the whole process, a tax on every promise of the run.)
 */
export function createRunModelTurn(services: RunModelTurnServices): RunModelTurn {
  const { bus, gate, budgets, costs } = services;
  const redact = services.redact ?? ((text: string) => text);
  // Requests in flight (deleted when they settle): a WeakMap would burden every GC instead.
  const calls = new Map<ModelRequest, CallScope>();
  const clients = new Map<string, ModelClient>();
  const reportedBreaches = new Set<string>();
  // One entry per actor for the whole run (10,000 items keep 10,000): what it last sent.
  const actors = new Map<string, ActorPrompts>();
  const answeredTurns = services.answeredTurns ?? new Map<string, number>();
  let requestCount = 0;

  // A factory that wraps `onRetry` must pass the request on: a retry of an unknown request
  // names no actor, so it is not reported.
  const onRetry = (notice: RetryNotice, retried?: ModelRequest): void => {
    const call = retried === undefined ? undefined : calls.get(retried);
    if (call === undefined) return;
    bus.emit({
      type: 'model.retry',
      actor: call.actor,
      requestId: call.requestId,
      attempt: notice.attempt,
      waitMs: notice.waitMs,
      reason: notice.reason,
      status: notice.status ?? null,
      message: notice.message,
    });
  };

  const clientFor = (model: ResolvedModel): ModelClient => {
    const key = `${model.config}\u0000${model.key}`;
    let client = clients.get(key);
    if (client === undefined) {
      client = services.clients(model, { onRetry });
      clients.set(key, client);
    }
    return client;
  };

  // Every scope's breach is announced once, whether found before a request or after a response.
  const emitBudgetSignal = (actor: string, signal: BudgetSignal): void => {
    if (signal.type === 'budget.exceeded') {
      const id = `${signal.scope}:${signal.subject}`;
      if (reportedBreaches.has(id)) return;
      reportedBreaches.add(id);
    }
    bus.emit({ ...signal, actor });
  };

  return async (request: ModelTurnRequest) => {
    const { actor, model } = request;
    // The open gate never holds: no detail line to build, no promise to wait for.
    if (gate !== openGate) {
      await gate.before(
        { kind: 'model', actor, detail: redact(gateDetail(model, request.messages)) },
        request.signal,
      );
    }
    // The open gate never looks at the signal: a cancelled actor must not send anything.
    if (request.signal.aborted) throw abortError('the model request was aborted');
    const check = budgets.checkBeforeRequest(request.task);
    if (!check.ok) {
      emitBudgetSignal(actor, { type: 'budget.exceeded', ...check.breach });
      throw budgetError(check.breach);
    }
    let prompts = actors.get(actor);
    if (prompts === undefined) {
      prompts = { system: undefined, tools: undefined };
      actors.set(actor, prompts);
    }
    // Counted when answered, as a cassette counts: a request that failed is asked again as
    // the same turn.
    const turn = (answeredTurns.get(actor) ?? 0) + 1;
    requestCount += 1;
    const requestId = `request_${requestCount}`;
    const reference = modelReference(model);
    bus.emit({
      type: 'model.request',
      actor,
      requestId,
      model: reference,
      turn,
      ...promptChanges(prompts, request.system, request.tools),
      messageCount: request.messages.length,
      reasoning: request.reasoning ?? null,
    });
    const started = performance.now();
    const client = clientFor(model);
    const sent: ModelRequest = {
      system: request.system,
      messages: request.messages,
      tools: request.tools,
      ...(request.reasoning !== undefined ? { reasoning: request.reasoning } : {}),
      actor,
      turn,
      signal: request.signal,
      onDelta: (text) => bus.emit({ type: 'model.delta', actor, requestId, text }),
    };
    calls.set(sent, { actor, requestId });
    let response: ModelResponse;
    try {
      response = await client.generate(sent);
    } finally {
      calls.delete(sent);
    }
    answeredTurns.set(actor, turn);
    const durationMs = Math.round(performance.now() - started);
    const cost = costs.record({
      actor,
      task: request.task,
      model: `models.${model.config}.${model.key}`,
      usage: response.usage,
      pricing: model.pricing,
    });
    for (const warning of response.warnings) {
      bus.emit({ type: 'warning', actor, code: 'model.adapter', message: warning });
    }
    bus.emit({
      type: 'model.response',
      actor,
      requestId,
      model: reference,
      message: response.message,
      usage: response.usage,
      costPico: String(cost.pico),
      unpriced: cost.unpriced,
      stopReason: response.stopReason,
      ...(response.stopDetail !== undefined ? { stopDetail: response.stopDetail } : {}),
      durationMs,
    });
    const signals = budgets.record(request.task, response.usage, cost.pico);
    for (const signal of signals) emitBudgetSignal(actor, signal);
    const exceeded = signals.find((signal) => signal.type === 'budget.exceeded');
    if (exceeded !== undefined) throw budgetError(exceeded);
    // A refused, blocked or filtered reply is paid for and journaled, then fails the turn.
    const declined = declinedError(response);
    if (declined !== undefined) throw declined;
    return { response, costPico: cost.pico, unpriced: cost.unpriced };
  };
}

/** What an actor sent last (undefined before its first request). */
interface ActorPrompts {
  system: string | undefined;
  tools: readonly ToolDefinition[] | undefined;
}

/**
 * What `model.request` carries of the prompt: the system prompt and the tool list only when
 * they changed since the actor's previous request (both on its first), and records them as
 * the actor's last. Tool lists are usually the same array or a new array of the same
 * definition objects (result tools get appended), so they are compared element by element
 * first and by JSON only when some definition object differs.
 */
function promptChanges(
  last: ActorPrompts,
  system: string,
  tools: ToolDefinition[],
): { system?: string; tools?: ToolDefinition[] } {
  const changes: { system?: string; tools?: ToolDefinition[] } = {};
  if (last.system !== system) changes.system = system;
  if (last.tools === undefined || !sameTools(last.tools, tools)) changes.tools = tools;
  last.system = system;
  last.tools = tools;
  return changes;
}

function sameTools(before: readonly ToolDefinition[], after: readonly ToolDefinition[]): boolean {
  if (before === after) return true;
  if (before.length !== after.length) return false;
  if (before.every((tool, index) => tool === after[index])) return true;
  return JSON.stringify(before) === JSON.stringify(after);
}

/** One line for the person at the step gate: model, conversation length, last message. */
function gateDetail(model: ResolvedModel, messages: readonly Message[]): string {
  const last = messages.at(-1);
  const count = `${messages.length} message${messages.length === 1 ? '' : 's'}`;
  const head = `models.${model.config}.${model.key} (${model.apiName}), ${count}`;
  if (last === undefined) return head;
  return `${head}, last ${last.role}: ${preview(last)}`;
}

function preview(message: Message): string {
  const text = message.parts
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'tool_call') return `[call ${part.name}]`;
      if (part.type === 'tool_result') return `[result ${part.name}]`;
      return `[${part.type}]`;
    })
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > DETAIL_PREVIEW_CHARS ? `${text.slice(0, DETAIL_PREVIEW_CHARS)}…` : text;
}
