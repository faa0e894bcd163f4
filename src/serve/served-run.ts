/**
 * One run the server started: an ordinary journaled run (the library's wiring, so `sortie runs`,
 * `show`, `resume` and `fork` work on it), listed in the run index, marked in flight while it
 * runs, with its events kept in memory while it runs so event streams start from its first.
 */
import type { RunResult } from '../actors/contracts.ts';
import { isJournaled, type MissionEvent } from '../base/events.ts';
import { encodeEvent } from '../journal/writer.ts';
import { addToRunIndex } from '../journal/run-index.ts';
import type { Redactor } from '../base/redact.ts';
import { DebugGate, gateNoticeEvent } from '../runtime/gate.ts';
import type { MissionConfig } from '../config/config-types.ts';
import {
  executeMissionRun,
  type MissionStart,
  type RunTracesOpener,
} from '../run/execute-mission-run.ts';
import type { Project } from '../run/project.ts';
import type { HumanAnswerer } from '../runtime/human-desk.ts';
import { createRunRedactor } from '../run/run-redactor.ts';
import { missionToContinue, readRunState, resumedInputs } from '../run/resume-state.ts';
import type { InFlightRuns } from './in-flight.ts';
import type { QuestionInbox } from './question-inbox.ts';
import type { RunRequest } from './run-manager.ts';
import { reasonOf } from '../base/reason.ts';

/** A run request as the server makes it: fresh inputs, or the journal to continue. */
export interface ServeRunRequest extends RunRequest {
  /** Fresh runs only: checked inputs. */
  inputs?: Record<string, unknown>;
  /**
   * Who answers the run's questions to the person (an MCP client's elicitation; `[]`: nobody,
   * as in a headless run). Without it they wait in the server's inbox.
   */
  human?: HumanAnswerer | readonly [];
}

/** One journaled event of a run in its `--json` form. */
export interface EncodedEvent {
  seq: number;
  json: string;
}

/** What every served run shares. */
export interface ServeContext {
  project: Project;
  stateDir: string;
  /** The user-wide run index file (undefined: none). */
  runIndex: string | undefined;
  inFlight: InFlightRuns;
  inbox: QuestionInbox;
  /** One line for the server's log. */
  log: (line: string) => void;
  /** Opens each run's trace export (the same as `sortie run`'s). */
  traces?: RunTracesOpener;
}

/** Why the server cancels its runs on its way down (journaled; the run stays resumable). */
export const SERVER_STOPPING = 'cancelled: the server stopped';

/** A run of this server process. */
export class ServedRun {
  readonly events: MissionEvent[] = [];
  /**
   * The run's debugger gate: open until someone pauses it or sets a breakpoint through the
   * API (`sortie attach`); its holds and releases are journaled events.
   */
  readonly gate = new DebugGate();
  readonly encoded: EncodedEvent[] = [];
  result: RunResult | undefined;
  /** The run could not start or its files failed: the message. */
  failure: string | undefined;
  private readonly listeners = new Set<(event: EncodedEvent | 'end') => void>();
  private readonly controller = new AbortController();
  private redactor: Redactor;

  constructor(
    readonly request: ServeRunRequest,
    private readonly context: ServeContext,
  ) {
    this.redactor = createRunRedactor(context.project.config, []);
  }

  get runId(): string {
    return this.request.runId;
  }

  /** True until the run has ended and its journal is written. */
  get live(): boolean {
    return this.result === undefined && this.failure === undefined;
  }

  /** The run's redactor (protected inputs once they are known). */
  redact(): Redactor {
    return this.redactor;
  }

  /** Adds a listener for the run's next events and its end; returns its remover. */
  listen(listener: (event: EncodedEvent | 'end') => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Cancels the run with `reason` (journaled). */
  cancel(reason: string): void {
    this.controller.abort(reason);
  }

  /** Whether the server's shutdown cancelled it (it stays in flight, to resume at next start). */
  private stoppedByServer(): boolean {
    return this.controller.signal.reason === SERVER_STOPPING;
  }

  /** Runs to the end; never rejects. */
  async run(): Promise<void> {
    const { context, request } = this;
    await context.inFlight.add(request.runId);
    await this.index();
    context.log(`run ${request.runId} started · mission ${request.mission} · ${request.source}`);
    try {
      this.result = await executeMissionRun(
        context.project,
        {
          stateDir: context.stateDir,
          gate: this.gate,
          human:
            request.human ??
            context.inbox.answererFor({
              runId: request.runId,
              mission: request.mission,
              redact: () => this.redactor,
            }),
        },
        {
          runId: request.runId,
          publish: (event) => this.publish(event),
          signal: this.controller.signal,
          choose: () => this.choose(),
          ...(context.traces !== undefined ? { traces: context.traces } : {}),
          started: (handle) =>
            this.gate.onNotice((notice) => handle.bus.emit(gateNoticeEvent(notice))),
        },
      );
      const { status } = this.result;
      context.log(`run ${request.runId} ${status} · mission ${request.mission}`);
      if (!(status === 'cancelled' && this.stoppedByServer())) {
        await context.inFlight.remove(request.runId);
      }
    } catch (error) {
      this.failure = this.redactor(reasonOf(error));
      context.log(`run ${request.runId} could not run: ${this.failure}`);
      await context.inFlight.remove(request.runId);
    } finally {
      for (const listener of this.listeners) listener('end');
      this.listeners.clear();
      // From now on the journal, written and closed, tells the run: memory goes back.
      this.events.length = 0;
      this.encoded.length = 0;
    }
  }

  private async choose(): Promise<MissionStart> {
    const { config } = this.context.project;
    const { inputs } = this.request;
    const start: MissionStart =
      inputs !== undefined
        ? { mission: this.missionNamed(this.request.mission), inputs }
        : await this.resumed();
    this.redactor = createRunRedactor(config, [start]);
    return start;
  }

  private missionNamed(name: string): MissionConfig {
    const mission = this.context.project.config.missions.get(name);
    if (mission === undefined) throw new Error(`mission "${name}" does not exist`);
    return mission;
  }

  /** The journal to continue; protected and file inputs take their defaults (none are kept). */
  private async resumed(): Promise<MissionStart> {
    const resume = await readRunState(this.context.stateDir, this.request.runId);
    const mission = missionToContinue(this.context.project.config, resume);
    return { mission, inputs: resumedInputs(mission, resume, {}), resume };
  }

  private publish(event: MissionEvent): void {
    if (!isJournaled(event)) return;
    this.events.push(event);
    const encoded = { seq: event.seq, json: encodeEvent(event).trimEnd() };
    this.encoded.push(encoded);
    for (const listener of this.listeners) listener(encoded);
  }

  /** Lists the run in the run index, so its id is found from any folder. */
  private async index(): Promise<void> {
    const { runIndex, project, stateDir, log } = this.context;
    if (runIndex === undefined) return;
    try {
      await addToRunIndex(runIndex, {
        runId: this.runId,
        stateDir,
        project: project.root,
        mission: this.request.mission,
        startedAt: new Date().toISOString(),
      });
    } catch (error) {
      log(`warning: run ${this.runId} is not in the run index (${String(error)})`);
    }
  }
}
