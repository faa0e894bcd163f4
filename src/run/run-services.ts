/**
 * Assembles the services every actor of one mission shares: directories, slots, datasets,
 * stores, budgets, costs, secrets, the redactor and the run's model turn.
 */
import { join } from 'node:path';
import type { Config, MissionConfig } from '../config/config-types.ts';
import { UsageError } from '../base/errors.ts';
import { createModelClient } from '../models/create-client.ts';
import { CostLedger } from '../models/cost-ledger.ts';
import { BudgetTracker, type BudgetLimits } from '../runtime/budget.ts';
import type { EventBus } from '../runtime/event-bus.ts';
import { openGate, type StepGate } from '../runtime/gate.ts';
import { KnowledgeStore } from '../runtime/knowledge-store.ts';
import { QuestionStore } from '../runtime/question-store.ts';
import { HumanDesk, type HumanAskers } from '../runtime/human-desk.ts';
import { SlotSet, sweepScratchpadsDaily, type SlotSources } from '../tools/files/index.ts';
import { ResultStore } from '../tools/results/index.ts';
import { mcpReferencesOfMission, type McpPool } from '../tools/mcp/index.ts';
import type { AgentTool } from '../tools/builtins/agent-tool.ts';
import type { ItemQueue, RunServices } from '../actors/contracts.ts';
import type { ModelClientFactory } from '../models/create-client.ts';
import { createRunModelTurn } from '../actors/model-turn.ts';
import { EventedDatasetStore, datasetDeclarations } from '../actors/mission/mission-datasets.ts';
import { configuredInputValues } from '../config/input-values.ts';
import { prepareMissionInputs } from './run-inputs.ts';
import { createRunMcpPool } from './run-mcp.ts';
import { createRunRedactor } from './run-redactor.ts';
import { makeDirectory, makeNewDirectory } from '../base/make-directory.ts';
import { runPaths } from '../journal/paths.ts';

/** What `createRunServices` needs for one mission of a run. */
export interface RunServicesOptions {
  config: Config;
  mission: string;
  /** The mission's inputs, converted to their types (validated and defaulted here). */
  inputs: Record<string, unknown>;
  /** Absolute state directory. */
  stateDir: string;
  runId: string;
  bus: EventBus;
  /** Aborts the whole run. */
  signal: AbortSignal;
  gate?: StepGate;
  /** Defaults to the real providers. */
  clients?: ModelClientFactory;
  /** The run's ledger, shared by chained missions; a new one by default. */
  costs?: CostLedger;
  /** Answered model turns per actor, shared by chained missions (see RunModelTurnServices). */
  answeredTurns?: Map<string, number>;
  /**
   * Missions that ran before this one in the run (chained missions): their protected inputs
   * stay masked too. One redactor covers all, so each text gets one pass.
   */
  earlierMissions?: ReadonlyArray<{ mission: MissionConfig; inputs: Record<string, unknown> }>;
  /** Resolves relative `{path}` file inputs (default: the working directory). */
  cwd?: string;
  /** The time scratchpad retention is measured from (default: now). */
  now?: Date;
  /**
   * The run's MCP servers (start-run passes one pool for the whole run and closes it). By
   * default a new pool of the project's servers, which the caller closes (`services.mcp`).
   */
  mcp?: McpPool;
  /** Tools registered as TypeScript functions (none by default). */
  functionTools?: ReadonlyMap<string, AgentTool>;
  /** The run's desk for questions to the person; default: nobody answers. */
  human?: HumanAskers;
  /** On a worker of a distributed run: the run process answers the question tools. */
  remoteQuestions?: RunServices['remoteQuestions'];
  /** The run's budgets; by default the mission's and its tasks' limits, counted here. */
  budgets?: BudgetTracker;
  /** `--queue`: where parallel items run; default: here. */
  itemQueue?: ItemQueue;
  /**
   * The run is new and this is its first mission: no file of it exists yet, so its results
   * folder is not read for earlier results.
   */
  newRun?: boolean;
}

/** The real providers, with sortie's retry policy reporting through `onRetry`. */
export const defaultModelClients: ModelClientFactory = (model, hooks) =>
  createModelClient(model, { onRetry: hooks.onRetry });

/**
 * Builds the RunServices of one mission; sweeps scratchpads of old runs first (once a day). Starts the MCP
 * servers whose specific tools the mission's agents reference and checks those tools exist:
 * a problem throws here, before any model request, and fails the mission.
 */
export async function createRunServices(options: RunServicesOptions): Promise<RunServices> {
  const { config, stateDir, runId, bus } = options;
  const mission = config.missions.get(options.mission);
  if (mission === undefined) {
    const known = [...config.missions.keys()].join(', ');
    throw new UsageError(`mission "${options.mission}" does not exist; missions: ${known}`);
  }
  const runDir = runPaths(stateDir, runId).dir;
  await makeNewDirectory(runDir);
  await sweepScratchpadsDaily(stateDir, options.now ?? new Date(), runId);
  // Protected inputs with a configured value (`value = vars.x`) take it unless the run gives one.
  const inputs = { ...configuredInputValues(config, mission), ...options.inputs };
  const prepared = await prepareMissionInputs(mission, inputs, runDir, options.cwd);
  const redact = createRunRedactor(config, [
    ...(options.earlierMissions ?? []),
    { mission, inputs: prepared.inputs },
  ]);
  const gate = options.gate ?? openGate;
  const costs = options.costs ?? new CostLedger();
  const budgets = options.budgets ?? budgetTracker(mission);
  const slots = new SlotSet(await slotSources(config, mission, stateDir, runDir, prepared.files));
  const mcp = options.mcp ?? createRunMcpPool(config, stateDir);
  await mcp.checkReferences(mcpReferencesOfMission(config, mission), options.signal);
  return {
    runId,
    config,
    mission,
    bus,
    gate,
    budgets,
    costs,
    knowledge: new KnowledgeStore(runDir),
    questions: new QuestionStore(),
    human: options.human ?? new HumanDesk({ bus, available: false }),
    datasets: new EventedDatasetStore(datasetDeclarations(mission, prepared.inputs), bus, mission),
    results:
      options.newRun === true
        ? ResultStore.empty(join(runDir, 'results'))
        : await ResultStore.open(join(runDir, 'results')),
    slots,
    mcp,
    secrets: prepared.secrets,
    functionTools: options.functionTools ?? new Map(),
    redact,
    inputs: prepared.inputs,
    stateDir,
    runDir,
    runModelTurn: createRunModelTurn({
      bus,
      gate,
      budgets,
      costs,
      clients: options.clients ?? defaultModelClients,
      redact,
      ...(options.answeredTurns !== undefined ? { answeredTurns: options.answeredTurns } : {}),
    }),
    signal: options.signal,
    ...(options.itemQueue !== undefined ? { itemQueue: options.itemQueue } : {}),
    ...(options.remoteQuestions !== undefined ? { remoteQuestions: options.remoteQuestions } : {}),
  };
}

/** The mission's and its tasks' budget limits. */
export function budgetTracker(mission: MissionConfig): BudgetTracker {
  const taskLimits: Record<string, BudgetLimits | undefined> = {};
  for (const task of mission.tasks.values()) taskLimits[task.name] = task.budget;
  return new BudgetTracker({
    mission: mission.name,
    ...(mission.budget !== undefined ? { missionLimits: mission.budget } : {}),
    taskLimits,
  });
}

/**
 * Memory, scratchpad, shared memories, file inputs and packets (folders of the project, read
 * in place); writable roots exist from the start.
 */
async function slotSources(
  config: Config,
  mission: MissionConfig,
  stateDir: string,
  runDir: string,
  files: Record<string, { path: string }>,
): Promise<SlotSources> {
  const sources: SlotSources = { shared: {}, inputs: files, packets: {} };
  if (mission.memory !== undefined) {
    sources.memory = join(stateDir, 'missions', mission.name, 'memory');
  }
  if (mission.scratchpad) sources.scratchpad = join(runDir, 'scratchpad');
  for (const name of mission.memories) {
    if (config.memories.has(name)) sources.shared![name] = join(stateDir, 'memories', name);
  }
  for (const name of mission.packets) {
    const packet = config.packets.get(name);
    if (packet !== undefined) sources.packets![name] = join(config.root, packet.path);
  }
  const writable = [sources.memory, sources.scratchpad, ...Object.values(sources.shared!)];
  for (const root of writable) if (root !== undefined) await makeDirectory(root);
  return sources;
}
