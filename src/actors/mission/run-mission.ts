/**
 * Runs one mission of a run: the mission machine provided with task work and event effects,
 * started under a root subscription whose error handler turns a defect into a failed
 * mission instead of a crashed process. The run's signal cancels it.
 */
import type { Actor } from 'xstate';
import { runToEnd, type RunToEndOptions } from '../run-to-end.ts';
import type { MissionConfig } from '../../config/config-types.ts';
import type {
  MissionChain,
  MissionEnvironment,
  MissionTaskSpec,
} from '../../machines/mission-scheduling.ts';
import { missionMachine, type MissionMachineOutput } from '../../machines/mission.machine.ts';
import { reasonOf } from '../../base/reason.ts';
import { actorId } from '../../base/events.ts';
import {
  cancelReasonOf,
  type CreateAgentSession,
  type FinalStatus,
  type RunServices,
  type TaskResult,
} from '../contracts.ts';
import { missionEffects } from './mission-effects.ts';
import { createMissionRuntime, NO_TASK_STATES } from './mission-runtime.ts';
import { taskResults } from './task-results.ts';
import { runTaskWork } from './task-work.ts';
import type { MissionJournal } from '../../journal/mission-journal.ts';
import { restoreDatasets } from './mission-datasets.ts';
import type { QuestionStore } from '../../runtime/question-store.ts';
import { journaledRaise } from '../../runtime/budget-raises.ts';
import { INTERRUPTED_BY_RESTART } from '../resume/interrupted-calls.ts';

/** How one mission ended. */
export interface MissionRunResult {
  status: FinalStatus;
  error?: string;
  chainTo: MissionChain | null;
  tasks: TaskResult[];
}

/** What one mission run needs. */
export interface RunMissionOptions {
  services: RunServices;
  createAgentSession: CreateAgentSession;
  keepGoing?: boolean;
  chain?: boolean;
  /** The mission whose route started this one. */
  chainedFrom?: string | null;
  /** Resumed run: what this mission left in the journal. */
  restore?: MissionJournal;
  /** xstate's inspector on the mission actor: it sees every actor of the mission. */
  inspect?: RunToEndOptions<typeof missionMachine>['inspect'];
}

/** The mission's tasks as its machine schedules them. */
export function missionTaskSpecs(mission: MissionConfig): MissionTaskSpec[] {
  return [...mission.tasks.values()].map((task) => ({
    name: task.name,
    dependsOn: task.dependsOn,
    routes: (task.routes ?? []).map((route) => ({
      key: route.key,
      kind: route.target.kind,
      target: route.target.name,
    })),
    sendTo: task.sendTo,
    iterated: task.iterator !== undefined,
  }));
}

/** The error text of a failed mission: its first failed task and why. */
function missionError(output: MissionMachineOutput): string {
  if (output.failedTask === null) return output.error ?? 'the mission failed';
  return `task "${output.failedTask}" failed: ${output.error ?? 'unknown error'}`;
}

/** Runs the mission to its end; never rejects. */
export async function runMission(options: RunMissionOptions): Promise<MissionRunResult> {
  const { services } = options;
  const { bus, mission } = services;
  let missionRunning: Actor<typeof missionMachine> | undefined;
  const runtime = createMissionRuntime(
    services,
    options.createAgentSession,
    () => missionRunning?.getSnapshot().context ?? NO_TASK_STATES,
    options.keepGoing ?? false,
    options.restore,
  );
  if (options.restore !== undefined) {
    restoreDatasets(services.datasets, options.restore);
    // Limits the person raised stay raised; budgets keep counting what the run spent
    // before the restart (no signal twice).
    for (const raised of options.restore.budgetRaises)
      services.budgets.raise(journaledRaise(raised));
    for (const turn of options.restore.spending) {
      services.budgets.record(turn.task, turn.usage, turn.costPico);
    }
    restoreQuestions(services.questions, options.restore);
  }
  const missionActor = actorId.mission(mission.name);
  const started = performance.now();
  bus.emit({
    type: 'mission.started',
    actor: missionActor,
    mission: mission.name,
    inputs: services.inputs,
    chainedFrom: options.chainedFrom ?? null,
  });
  const environment: MissionEnvironment = {
    work: (task, signal, parent) => runTaskWork(runtime, task, signal, parent),
    effects: missionEffects(runtime),
  };
  const output: MissionMachineOutput | { defect: unknown } = await runToEnd(
    missionMachine,
    {
      mission: mission.name,
      tasks: missionTaskSpecs(mission),
      keepGoing: options.keepGoing ?? false,
      chain: options.chain ?? true,
      environment,
    },
    services.signal,
    'the mission was cancelled',
    {
      // Cancelling is a transition of the mission: it stops its tasks and still ends with an output.
      windDown: (actor) =>
        actor.send({ type: 'mission.cancel', reason: cancelReasonOf(services.signal) }),
      created: (actor) => {
        missionRunning = actor;
      },
      ...(options.inspect === undefined ? {} : { inspect: options.inspect }),
    },
  ).catch((defect: unknown) => ({ defect }));
  // Every task has settled: no question can reach a finished commander any more.
  runtime.commanders.dispose();
  services.knowledge.dispose();
  const durationMs = Math.round(performance.now() - started);
  if ('defect' in output) {
    const error = `the mission stopped on a defect: ${reasonOf(output.defect)}`;
    bus.emit({
      type: 'mission.failed',
      actor: missionActor,
      mission: mission.name,
      error,
      failedTask: null,
      durationMs,
    });
    return { status: 'failed', error, chainTo: null, tasks: taskResults(mission, runtime.tasks()) };
  }
  const tasks = taskResults(mission, runtime.tasks());
  if (output.status === 'succeeded') {
    bus.emit({ type: 'mission.succeeded', actor: missionActor, mission: mission.name, durationMs });
    return { status: 'succeeded', chainTo: output.chainTo, tasks };
  }
  if (output.status === 'cancelled') {
    const reason = cancelReasonOf(services.signal);
    bus.emit({
      type: 'mission.cancelled',
      actor: missionActor,
      mission: mission.name,
      reason,
      durationMs,
    });
    return { status: 'cancelled', error: reason, chainTo: null, tasks };
  }
  const error = missionError(output);
  bus.emit({
    type: 'mission.failed',
    actor: missionActor,
    mission: mission.name,
    error,
    failedTask: output.failedTask,
    durationMs,
  });
  return { status: 'failed', error, chainTo: null, tasks };
}

/**
 * Resumed run: the questions asked before the restart, for `list_commander_questions` and
 * `get_commander_answer`; one whose answer never came will not get one now.
 */
function restoreQuestions(store: QuestionStore, journal: MissionJournal): void {
  for (const [task, questions] of journal.questions) {
    for (const asked of questions) {
      const index = store.ask(task, asked);
      if (asked.answer !== undefined) store.answer(task, index, asked.answer);
      else store.fail(task, index, INTERRUPTED_BY_RESTART);
    }
  }
}
