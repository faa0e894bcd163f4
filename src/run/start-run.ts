/**
 * `startRun`: checks everything a run needs before any model call (mission, inputs, variables),
 * then runs the mission and the missions its routes chain to, on one bus and one cost ledger.
 * `done` never rejects; it settles after every subscriber has received `run.finished`.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { MissionConfig } from '../config/config-types.ts';
import { addRunTotals } from '../journal/run-totals.ts';
import { CostLedger } from '../models/cost-ledger.ts';
import type { Redactor } from '../base/redact.ts';
import { emptyUsage, totalTokens } from '../models/usage.ts';
import { reasonOf } from '../base/reason.ts';
import { EventBus } from '../runtime/event-bus.ts';
import { HumanDesk } from '../runtime/human-desk.ts';
import { BudgetRaiser } from '../runtime/budget-raises.ts';
import { createSignalWatch, DEFAULT_STALL_TURNS } from '../runtime/signal-watch.ts';
import { actorId } from '../base/events.ts';
import { followSignal } from '../base/abort.ts';
import { exitCodeOf } from '../base/exit-codes.ts';
import { createAgentSession as defaultAgentSession } from '../actors/agent/index.ts';
import {
  CANCELLED_BY_USER,
  cancelReasonOf,
  type CreateAgentSession,
  type FinalStatus,
  type RunHandle,
  type RunOptions,
  type RunResult,
  type TaskResult,
} from '../actors/contracts.ts';
import { checkedInputs, checkVariables, missionOf } from '../actors/mission/run-checks.ts';
import { runMission } from '../actors/mission/run-mission.ts';
import { chatStart, runChat } from '../actors/chat/index.ts';
import { createRunRedactor, eventRedactor } from './run-redactor.ts';
import { createRunMcpPool } from './run-mcp.ts';
import { createRunServices } from './run-services.ts';
import { runPaths } from '../journal/paths.ts';
import { removeLeftAppendFolders } from '../base/append-file.ts';
import { FINISHED_COMMANDERS_PREFIX } from '../actors/commander/commander-registry.ts';
import { KNOWLEDGE_PREFIX } from '../runtime/knowledge-store.ts';
import { withPinnedResponse } from './pinned-turn.ts';
import { createRunResult } from './run-result.ts';

/** What tests and the resume path may replace. */
export interface StartRunDependencies {
  createAgentSession?: CreateAgentSession;
}

/** A new run id: UTC time to the millisecond, then random hex, so ids sort by start time. */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '');
  // A v4 UUID's first 6 hex digits are random; randomUUID draws from a cached pool, where
  // randomBytes asked the system for 3 bytes on every run.
  return `${stamp}-${randomUUID().slice(0, 6)}`;
}

/** Starts a run; throws UsageError (before any model call) when it cannot start. */
export function startRun(options: RunOptions, dependencies: StartRunDependencies = {}): RunHandle {
  const mission = missionOf(options);
  const inputs = checkedInputs(mission, options.inputs);
  checkVariables(options);
  const runId = options.resume?.runId ?? options.runId ?? newRunId();
  const redact = createRunRedactor(options.config, [{ mission, inputs }]);
  // A chained mission may bring protected inputs of its own: the bus reads the current redactor.
  const redactor: { current: Redactor } = { current: redact };
  const bus = new EventBus({
    runId,
    redact: eventRedactor(redactor),
    ...(options.resume !== undefined ? { lastSeq: options.resume.lastSeq } : {}),
  });
  for (const subscriber of options.subscribers ?? []) bus.subscribe(subscriber);
  const gate = options.gate;
  if (gate?.observe !== undefined) bus.subscribe((event) => gate.observe?.(event));
  // Each mission's `commander { stall_turns }` is the stall threshold of its commanders.
  const stallTurnsOf = (name: string): number =>
    options.config.missions.get(name)?.commander.stallTurns ?? DEFAULT_STALL_TURNS;
  bus.subscribe(createSignalWatch({ stallTurnsOf }, (event) => bus.emit(event)));
  const controller = new AbortController();
  // Every running task, commander and agent listens on the run's signal and stops listening
  // when it ends; many at once is normal, so no "possible memory leak" warning past 10.
  setMaxListeners(0, controller.signal);
  const human = new HumanDesk({ available: false, ...options.human, bus });
  const budgets = new BudgetRaiser((event) => bus.emit(event));
  // A caller's signal may outlive many runs: each lets go of it when it ends.
  const release = followSignal(options.signal, controller, cancelReasonOf);
  const done = runMissionsSafely({
    options,
    inputs,
    runId,
    bus,
    redactor,
    signal: controller.signal,
    human,
    budgets,
    createAgentSession: dependencies.createAgentSession ?? defaultAgentSession,
  });
  void done.then(release);
  return {
    runId,
    bus,
    done,
    human,
    budgets,
    // A second cancel is a no-op: an aborted signal keeps its first reason.
    cancel: (reason = CANCELLED_BY_USER) => controller.abort(reason),
  };
}

/** `done` never rejects: a defect outside every mission still ends the run, failed. */
async function runMissionsSafely(context: RunContext): Promise<RunResult> {
  try {
    return await runMissions(context);
  } catch (error) {
    context.bus.emit({
      type: 'warning',
      actor: 'run',
      code: 'run.defect',
      message: `the run stopped on a defect: ${reasonOf(error)}`,
    });
    // What the run had spent before it is still its figures (not 0).
    const totals = addRunTotals(context.options.resume?.totals, {
      usage: emptyUsage(),
      costPico: '0',
      unpriced: false,
      durationMs: 0,
    });
    context.bus.emit({
      type: 'run.finished',
      actor: 'run',
      outcome: 'failed',
      exitCode: exitCodeOf('failed'),
      ...totals,
    });
    return createRunResult({
      runId: context.runId,
      status: 'failed',
      missions: [{ name: context.options.mission, status: 'failed', error: reasonOf(error) }],
      tasks: [],
      tokens: totalTokens(totals.usage),
      costPico: BigInt(totals.costPico),
      unpriced: totals.unpriced,
    });
  }
}

/** A mission about to run: its inputs and the mission whose route chose it. */
interface MissionStart {
  mission: string;
  inputs: Record<string, unknown>;
  from: string | null;
}

interface RunContext {
  options: RunOptions;
  inputs: Record<string, unknown>;
  runId: string;
  bus: EventBus;
  /** The bus's redactor; widened to each chained mission's protected inputs. */
  redactor: { current: Redactor };
  signal: AbortSignal;
  human: HumanDesk;
  /** Raises of the person go to the budgets of the mission running now. */
  budgets: BudgetRaiser;
  createAgentSession: CreateAgentSession;
}

async function runMissions(context: RunContext): Promise<RunResult> {
  const { options, bus, runId } = context;
  const started = performance.now();
  const costs = new CostLedger();
  // Turn numbers go on across chained missions and resumes: they key the run's cassette.
  const answeredTurns = new Map(options.resume?.answeredTurns ?? []);
  const missions: RunResult['missions'] = [];
  const tasks: TaskResult[] = [];
  bus.emit({
    type: 'run.started',
    actor: 'run',
    mission: options.mission,
    resumed: options.resume !== undefined,
    ...(options.resume !== undefined ? { before: options.resume.totals } : {}),
    ...(options.chat !== undefined ? { chat: chatStart(options.chat) } : {}),
  });
  // Load-time warnings (e.g. reasoning on a model that cannot reason) belong to the run's record.
  for (const warning of options.config.warnings) {
    bus.emit({ type: 'warning', actor: 'run', code: 'config', message: warning.message });
  }
  const resumedFrom = options.resume?.missions.find((mission) => mission.name === options.mission);
  let next: MissionStart | null = {
    mission: options.mission,
    inputs: context.inputs,
    from: resumedFrom?.chainedFrom ?? null,
  };
  // A fork's kept reply answers its actor's next request, whichever mission asks it.
  const clients = withPinnedResponse(options.clients, options.resume?.pinned);
  // Only the mission the resumed run continues has journaled state; chained ones start fresh.
  let restore = options.resume?.journals.get(options.mission);
  // Protected inputs of every mission run so far stay masked in the later ones.
  const earlierMissions: Array<{ mission: MissionConfig; inputs: Record<string, unknown> }> = [];
  if (options.resume !== undefined) {
    const runDir = runPaths(options.stateDir, runId).dir;
    await removeLeftAppendFolders(runDir, [FINISHED_COMMANDERS_PREFIX, KNOWLEDGE_PREFIX]);
  }
  // One set of MCP servers for the whole run, stopped before the run reports its end.
  const mcp = createRunMcpPool(options.config, options.stateDir);
  try {
    while (next !== null) {
      const current: MissionStart = next;
      next = null;
      try {
        const services = await createRunServices({
          config: options.config,
          mission: current.mission,
          inputs: current.inputs,
          stateDir: options.stateDir,
          runId,
          bus,
          signal: context.signal,
          human: context.human,
          costs,
          answeredTurns,
          earlierMissions: [...earlierMissions],
          newRun: options.resume === undefined && missions.length === 0,
          mcp,
          ...(options.gate !== undefined ? { gate: options.gate } : {}),
          ...(clients !== undefined ? { clients } : {}),
          ...(options.functionTools !== undefined ? { functionTools: options.functionTools } : {}),
          ...(options.itemQueue !== undefined ? { itemQueue: options.itemQueue } : {}),
        });
        context.redactor.current = services.redact;
        context.budgets.follow(services.budgets);
        earlierMissions.push({ mission: services.mission, inputs: services.inputs });
        const { chat } = options;
        const result =
          chat !== undefined
            ? await runChat({
                services,
                createAgentSession: context.createAgentSession,
                chat,
                ...(restore !== undefined ? { restore } : {}),
              })
            : await runMission({
                services,
                createAgentSession: context.createAgentSession,
                keepGoing: options.keepGoing ?? false,
                chain: options.chain ?? true,
                chainedFrom: current.from,
                ...(restore !== undefined ? { restore } : {}),
              });
        restore = undefined;
        missions.push({
          name: current.mission,
          status: result.status,
          ...(result.error !== undefined ? { error: result.error } : {}),
        });
        tasks.push(...result.tasks);
        if (result.status === 'succeeded' && result.chainTo !== null) {
          next = {
            mission: result.chainTo.mission,
            inputs: result.chainTo.inputs,
            from: current.mission,
          };
        }
      } catch (error) {
        // Services could not be built (e.g. a chained mission's inputs): that mission fails.
        const status: FinalStatus = context.signal.aborted ? 'cancelled' : 'failed';
        const message = reasonOf(error);
        missions.push({ name: current.mission, status, error: message });
        const actor = actorId.mission(current.mission);
        if (status === 'cancelled') {
          bus.emit({
            type: 'mission.cancelled',
            actor,
            mission: current.mission,
            reason: message,
            durationMs: 0,
          });
        } else {
          bus.emit({
            type: 'mission.failed',
            actor,
            mission: current.mission,
            error: message,
            failedTask: null,
            durationMs: 0,
          });
        }
      }
    }
  } finally {
    await mcp.close();
  }
  const status: FinalStatus = context.signal.aborted
    ? 'cancelled'
    : missions.every((mission) => mission.status === 'succeeded')
      ? 'succeeded'
      : (missions.find((mission) => mission.status !== 'succeeded')?.status ?? 'failed');
  const session = costs.run();
  // A resumed run reports the whole run: its earlier sessions as the journal counted them.
  const totals = addRunTotals(options.resume?.totals, {
    usage: session.usage,
    costPico: String(session.pico),
    unpriced: session.unpriced,
    durationMs: Math.round(performance.now() - started),
  });
  bus.emit({
    type: 'run.finished',
    actor: 'run',
    outcome: status,
    exitCode: exitCodeOf(status),
    ...totals,
  });
  return createRunResult({
    runId,
    status,
    missions,
    tasks,
    tokens: totalTokens(totals.usage),
    costPico: BigInt(totals.costPico),
    unpriced: totals.unpriced,
  });
}
