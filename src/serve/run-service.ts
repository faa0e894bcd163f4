/**
 * The runs of one server: submitted through the run manager (`max_parallel`, the queue),
 * launched as served runs, found by id, cancelled, resumed — those left in flight by a server
 * that was killed, at start, and any interrupted run on request.
 */
import { newRunId } from '../run/start-run.ts';
import { readRunState } from '../run/resume-state.ts';
import { missionToResume } from '../journal/restore.ts';
import { runPaths } from '../journal/paths.ts';
import { journalWriterAlive } from '../journal/runs.ts';
import { InFlightRuns } from './in-flight.ts';
import { QuestionInbox } from './question-inbox.ts';
import { RunManager, type Admission, type RunSource } from './run-manager.ts';
import {
  SERVER_STOPPING,
  ServedRun,
  type ServeContext,
  type ServeRunRequest,
} from './served-run.ts';
import type { Project } from '../run/project.ts';
import type { RunTracesOpener } from '../run/execute-mission-run.ts';
import { reasonOf } from '../base/reason.ts';

/** How the runs of a server are kept. */
export interface RunServiceOptions {
  project: Project;
  stateDir: string;
  runIndex: string | undefined;
  /** Requests one mission's queue holds at most. */
  queueLimit: number;
  log: (line: string) => void;
  /** Opens each run's trace export. */
  traces?: RunTracesOpener;
}

/** What a submission came to, with the run's id when it was accepted. */
export interface Submission {
  admission: Admission;
  runId: string;
}

/** Why `resume` refused. */
export type ResumeRefusal = { refused: string };

/** The runs of one server. */
export class RunService {
  readonly inbox = new QuestionInbox();
  private readonly runs = new Map<string, ServedRun>();
  /** Who waits for a queued run to start (its event stream). */
  private readonly starting = new Map<string, Array<(run: ServedRun | undefined) => void>>();
  private readonly manager: RunManager<ServeRunRequest>;
  private readonly context: ServeContext;

  constructor(private readonly options: RunServiceOptions) {
    this.context = {
      project: options.project,
      stateDir: options.stateDir,
      runIndex: options.runIndex,
      inFlight: new InFlightRuns(options.stateDir),
      inbox: this.inbox,
      log: options.log,
      ...(options.traces !== undefined ? { traces: options.traces } : {}),
    };
    this.manager = new RunManager<ServeRunRequest>({
      limitOf: (mission) => options.project.config.missions.get(mission)?.maxParallel ?? 1,
      queueLimit: options.queueLimit,
      launch: (request) => {
        const run = new ServedRun(request, this.context);
        this.runs.set(request.runId, run);
        // Once ended, its journal tells the run: the server keeps nothing of it.
        const ended = run.run().then(() => {
          this.runs.delete(request.runId);
        });
        for (const waiter of this.starting.get(request.runId) ?? []) waiter(run);
        this.starting.delete(request.runId);
        return ended;
      },
    });
  }

  /**
   * Submits a fresh run of `mission` with checked inputs; `human` answers its questions to the
   * person instead of the inbox.
   */
  submit(
    mission: string,
    inputs: Record<string, unknown>,
    source: RunSource,
    human?: ServeRunRequest['human'],
  ): Submission {
    const runId = newRunId();
    const request: ServeRunRequest = { runId, mission, source, inputs };
    if (human !== undefined) request.human = human;
    const admission = this.manager.submit(request);
    if (admission === 'full') this.options.log(`run of ${mission} refused: its queue is full`);
    return { admission, runId };
  }

  /** The run of this server with this id (running or ended since the server started). */
  find(runId: string): ServedRun | undefined {
    return this.runs.get(runId);
  }

  /**
   * The run with this id once it has started: at once when it has, later when it is queued,
   * undefined when this server has no such run (or it was dropped from its queue).
   */
  started(runId: string): Promise<ServedRun | undefined> {
    const run = this.runs.get(runId);
    if (run !== undefined || this.queued(runId) === undefined) return Promise.resolve(run);
    return new Promise((resolve) => {
      const waiters = this.starting.get(runId) ?? [];
      waiters.push(resolve);
      this.starting.set(runId, waiters);
    });
  }

  /** The runs of this server still running, oldest first. */
  running(): ServedRun[] {
    return [...this.runs.values()].filter((run) => run.live);
  }

  /** The request of a run still waiting in a queue. */
  queued(runId: string): ServeRunRequest | undefined {
    return this.manager.queued(runId);
  }

  /** Every run waiting in a queue. */
  allQueued(): ServeRunRequest[] {
    return this.manager.allQueued();
  }

  /** Cancels a running or queued run; false when this server has no such live run. */
  cancel(runId: string): boolean {
    if (this.manager.dequeue(runId)) {
      this.release(runId);
      this.options.log(`run ${runId} cancelled before it started`);
      return true;
    }
    const run = this.runs.get(runId);
    if (run === undefined || !run.live) return false;
    run.cancel('cancelled through the API');
    return true;
  }

  /** Resumes an interrupted, failed or cancelled run of the state directory. */
  async resume(runId: string, source: RunSource): Promise<Submission | ResumeRefusal> {
    if (this.runs.get(runId)?.live === true || this.queued(runId) !== undefined) {
      return { refused: `run ${runId} is running on this server` };
    }
    let mission: string;
    try {
      const state = await readRunState(this.options.stateDir, runId);
      mission = missionToResume(state)?.name ?? '';
    } catch (error) {
      return { refused: reasonOf(error) };
    }
    // Resumes were accepted once already: they may wait beyond the queue's limit.
    const admission = this.manager.submit({ runId, mission, source }, source === 'resume');
    return { admission, runId };
  }

  /** Resumes the runs a previous server left in flight (killed, or stopped mid-run). */
  async resumeInFlight(): Promise<void> {
    const { inFlight } = this.context;
    for (const runId of await inFlight.list()) {
      // Another server on the same state directory runs it: its marker is that server's.
      if (await journalWriterAlive(runPaths(this.options.stateDir, runId).dir)) continue;
      const outcome = await this.resume(runId, 'resume');
      if ('refused' in outcome) {
        this.options.log(`run ${runId} not resumed: ${outcome.refused}`);
        await inFlight.remove(runId);
      }
    }
  }

  /**
   * Stops accepting runs, drops the queued ones, lets running ones go on until `grace`
   * resolves, then cancels them (they stay resumable) and waits for their ends.
   */
  async shutdown(grace: Promise<void>): Promise<void> {
    for (const dropped of this.manager.stop()) {
      this.release(dropped.runId);
      this.options.log(`run ${dropped.runId} dropped: the server stopped before it started`);
    }
    const idle = this.manager.idle();
    await Promise.race([idle, grace]);
    for (const run of this.runs.values()) run.cancel(SERVER_STOPPING);
    await idle;
  }

  /** A queued run that will never start: its waiters get undefined. */
  private release(runId: string): void {
    for (const waiter of this.starting.get(runId) ?? []) waiter(undefined);
    this.starting.delete(runId);
  }
}
