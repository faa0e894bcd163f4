/**
 * The steps of one model turn, in order: gate → budget check → request event → call → cost →
 * response event → budget record → declined reply. Each step is a small function over the
 * run's shared turn state; `createRunModelTurn` composes them once per run.
 */
import type { CostLedger } from '../models/cost-ledger.ts';
import type { TurnCost } from '../models/cost.ts';
import { declinedError } from '../models/stop-reasons.ts';
import type { ModelRequest, ModelResponse } from '../models/model-types.ts';
import { budgetError, type BudgetSignal, type BudgetTracker } from '../runtime/budget.ts';
import type { EventBus } from '../runtime/event-bus.ts';
import type { ModelReference } from '../base/events.ts';
import { openGate, type StepGate } from '../runtime/gate.ts';
import { abortError } from '../base/abort.ts';
import { entryOf } from '../base/per-object.ts';
// The same reference a cassette keeps, so recorded and live runs name models alike.
import { modelReference } from '../journal/cassette/cassette-format.ts';
import type { ModelTurnRequest } from './contracts.ts';
import type { RunClients } from './model-clients.ts';
import { gateDetail, promptChanges, type ActorPrompts } from './model-turn-prompts.ts';

/** What every turn of one run shares. */
export interface TurnRun {
  bus: EventBus;
  gate: StepGate;
  budgets: BudgetTracker;
  costs: CostLedger;
  redact: (text: string) => string;
  clients: RunClients;
  /** Budget scopes whose breach was announced (each is announced once). */
  reportedBreaches: Set<string>;
  /** What each actor sent last; an item's actors leave when the item is settled (`release`). */
  prompts: Map<string, ActorPrompts>;
  /** Answered model turns per actor (see `RunModelTurnServices.answeredTurns`). */
  answeredTurns: Map<string, number>;
  requestCount: number;
}

/** One request on its way, as its `model.request` announced it. */
export interface Sending {
  requestId: string;
  turn: number;
  reference: ModelReference;
  started: number;
  /** Set when the response arrived. */
  durationMs: number;
}

/**
 * Waits at the step gate; a cancelled actor sends nothing. The open gate never holds: no detail
 * line to build, no promise to wait for (undefined instead of a promise).
 */
export function passGate(run: TurnRun, request: ModelTurnRequest): Promise<void> | undefined {
  if (run.gate === openGate) {
    // The open gate never looks at the signal.
    throwIfAborted(request);
    return undefined;
  }
  const detail = run.redact(gateDetail(request.model, request.messages));
  // The person stepping sees the whole request before it goes, the system prompt included.
  const system = run.redact(request.system);
  return run.gate
    .before({ kind: 'model', actor: request.actor, detail, system }, request.signal)
    .then(() => throwIfAborted(request));
}

function throwIfAborted(request: ModelTurnRequest): void {
  if (request.signal.aborted) throw abortError('the model request was aborted');
}

/** Nothing is sent once a budget of the task is used up. */
export function checkBudget(run: TurnRun, request: ModelTurnRequest): void {
  const check = run.budgets.checkBeforeRequest(request.task);
  if (check.ok) return;
  emitBudgetSignal(run, request.actor, { type: 'budget.exceeded', ...check.breach });
  throw budgetError(check.breach);
}

/** Emits `model.request` (the prompt's changed parts only) and numbers the request. */
export function announceRequest(run: TurnRun, request: ModelTurnRequest): Sending {
  const { actor } = request;
  const prompts = entryOf(run.prompts, actor, () => ({ system: undefined, tools: undefined }));
  // Counted when answered, as a cassette counts: a request that failed is asked again as
  // the same turn.
  const turn = (run.answeredTurns.get(actor) ?? 0) + 1;
  run.requestCount += 1;
  const requestId = `request_${run.requestCount}`;
  const reference = modelReference(request.model);
  run.bus.emit({
    type: 'model.request',
    actor,
    requestId,
    model: reference,
    turn,
    ...promptChanges(prompts, request.system, request.tools),
    messageCount: request.messages.length,
    reasoning: request.reasoning ?? null,
  });
  return { requestId, turn, reference, started: performance.now(), durationMs: 0 };
}

/** Sends the request through the model's shared client, streaming `model.delta` events. */
export async function callModel(
  run: TurnRun,
  request: ModelTurnRequest,
  sending: Sending,
): Promise<ModelResponse> {
  const { actor } = request;
  const { requestId, turn } = sending;
  const sent: ModelRequest = {
    system: request.system,
    messages: request.messages,
    tools: request.tools,
    ...(request.reasoning !== undefined ? { reasoning: request.reasoning } : {}),
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
    ...(request.parallelToolCalls === false ? { parallelToolCalls: false } : {}),
    actor,
    turn,
    signal: request.signal,
    onDelta: (text) => run.bus.emit({ type: 'model.delta', actor, requestId, text }),
  };
  const response = await run.clients.generate(request.model, sent, { actor, requestId });
  run.answeredTurns.set(actor, turn);
  sending.durationMs = Math.round(performance.now() - sending.started);
  return response;
}

/** The turn's cost, recorded in the run's ledger. */
export function recordCost(
  run: TurnRun,
  request: ModelTurnRequest,
  response: ModelResponse,
): TurnCost {
  const { model } = request;
  return run.costs.record({
    actor: request.actor,
    task: request.task,
    model: `models.${model.config}.${model.key}`,
    usage: response.usage,
    pricing: model.pricing,
  });
}

/** Emits the adapter's warnings and `model.response` with usage, cost and duration. */
export function announceResponse(
  run: TurnRun,
  request: ModelTurnRequest,
  sending: Sending,
  response: ModelResponse,
  cost: TurnCost,
): void {
  const { actor } = request;
  for (const warning of response.warnings) {
    run.bus.emit({ type: 'warning', actor, code: 'model.adapter', message: warning });
  }
  run.bus.emit({
    type: 'model.response',
    actor,
    requestId: sending.requestId,
    model: sending.reference,
    message: response.message,
    usage: response.usage,
    costPico: String(cost.pico),
    unpriced: cost.unpriced,
    stopReason: response.stopReason,
    ...(response.stopDetail !== undefined ? { stopDetail: response.stopDetail } : {}),
    ...(request.sampling === true ? { sampling: true as const } : {}),
    durationMs: sending.durationMs,
  });
}

/** Counts the turn toward the task's budgets; a limit reached fails the turn after the fact. */
export function recordBudget(
  run: TurnRun,
  request: ModelTurnRequest,
  response: ModelResponse,
  cost: TurnCost,
): void {
  const signals = run.budgets.record(request.task, response.usage, cost.pico);
  for (const signal of signals) emitBudgetSignal(run, request.actor, signal);
  const exceeded = signals.find((signal) => signal.type === 'budget.exceeded');
  if (exceeded !== undefined) throw budgetError(exceeded);
}

/** A refused, blocked or filtered reply is paid for and journaled, then fails the turn. */
export function failDeclined(response: ModelResponse): void {
  const declined = declinedError(response);
  if (declined !== undefined) throw declined;
}

/**
 * Actors that will not send again (the commander and agents of a settled item): what the run
 * kept of them goes, so a run's memory does not grow with its items. Their turn counts stay
 * when `keepTurns`: an actor of the same id may still come (a chained mission with a task of
 * the same name), and its turns must go on from these.
 */
export function releaseActors(
  run: TurnRun,
  actors: readonly string[],
  { keepTurns }: { keepTurns: boolean },
): void {
  for (const actor of actors) {
    run.prompts.delete(actor);
    if (!keepTurns) run.answeredTurns.delete(actor);
  }
}

/** Every scope's breach is announced once, whether found before a request or after a response. */
function emitBudgetSignal(run: TurnRun, actor: string, signal: BudgetSignal): void {
  if (signal.type === 'budget.exceeded') {
    const id = `${signal.scope}:${signal.subject}`;
    if (run.reportedBreaches.has(id)) return;
    run.reportedBreaches.add(id);
  }
  run.bus.emit({ ...signal, actor });
}
