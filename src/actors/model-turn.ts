/**
 * The one door every model request of a run goes through: step gate, budget check, events,
 * the (cached, retry-wrapped) client, cost and budget bookkeeping — each a step of
 * `model-turn-steps.ts`, composed here once per run.
 */
import type { CostLedger } from '../models/cost-ledger.ts';
import type { ModelClientFactory } from '../models/create-client.ts';
import type { BudgetTracker } from '../runtime/budget.ts';
import type { EventBus } from '../runtime/event-bus.ts';
import type { StepGate } from '../runtime/gate.ts';
import type { ModelTurnRequest, RunModelTurn } from './contracts.ts';
import { RunClients } from './model-clients.ts';
import {
  announceRequest,
  announceResponse,
  callModel,
  checkBudget,
  failDeclined,
  passGate,
  recordBudget,
  recordCost,
  releaseActors,
  type TurnRun,
} from './model-turn-steps.ts';

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

/** Builds the run's `RunModelTurn`: the steps of a turn over one shared state. */
export function createRunModelTurn(services: RunModelTurnServices): RunModelTurn {
  const run: TurnRun = {
    bus: services.bus,
    gate: services.gate,
    budgets: services.budgets,
    costs: services.costs,
    redact: services.redact ?? ((text: string) => text),
    clients: new RunClients(services.bus, services.clients),
    reportedBreaches: new Set(),
    prompts: new Map(),
    answeredTurns: services.answeredTurns ?? new Map(),
    requestCount: 0,
  };
  const runModelTurn = async (request: ModelTurnRequest) => {
    const held = passGate(run, request);
    if (held !== undefined) await held;
    checkBudget(run, request);
    const sending = announceRequest(run, request);
    const response = await callModel(run, request, sending);
    const cost = recordCost(run, request, response);
    announceResponse(run, request, sending, response, cost);
    recordBudget(run, request, response, cost);
    failDeclined(response);
    return { response, costPico: cost.pico, unpriced: cost.unpriced };
  };
  return Object.assign(runModelTurn, {
    release: (actors: readonly string[], options: { keepTurns: boolean }) =>
      releaseActors(run, actors, options),
  });
}
