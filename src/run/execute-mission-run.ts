/**
 * A library run (`runMission`, `resumeMission`) and a served one: the state directory, the
 * settings turned into the one run wiring (wired-run.ts) that `sortie run` uses too.
 */
import type { RunHandle, RunOptions, RunResult } from '../actors/contracts.ts';
import type { MissionEvent } from '../base/events.ts';
import { makeDirectory } from '../base/make-directory.ts';
import type { ModelClientFactory } from '../models/create-client.ts';
import type { StepGate } from '../runtime/gate.ts';
import { AnswerScript, type ScriptedAnswer } from '../runtime/answer-script.ts';
import type { HumanAnswerer, HumanReply } from '../runtime/human-desk.ts';
import { ProjectConfigError } from '../config/load-project.ts';
import { resolveStateDir, runsDirectory } from '../journal/paths.ts';
import { checkCassetteFlags } from './run-clients.ts';
import type { Project } from './project.ts';
import { runWired, type MissionStart, type RunTracesOpener } from './wired-run.ts';

export type { MissionStart, RunTraceSink, RunTracesOpener } from './wired-run.ts';

/** What a fresh run and a resumed run are both given. */
export interface RunSettings {
  /** Where runs are journaled (default: `SORTIE_HOME`, else `.sortie/` in the project). */
  stateDir?: string;
  /** Aborting it cancels the run, like `cancel()`. */
  signal?: AbortSignal;
  /** Awaited before every model request and tool call (default: never holds). */
  gate?: StepGate;
  /** Model clients replacing the real providers (when given, no API key is needed). */
  clients?: ModelClientFactory;
  /** Answer every model request from this cassette file (no network, no API key). */
  replayModel?: string;
  /** Record every model turn into this cassette file (secrets redacted). */
  record?: string;
  /** Answer every model request from this mock-model YAML file (docs/testing.md). */
  mockModel?: string;
  /** Keep running unrelated tasks after a failure (`--keep-going`). */
  keepGoing?: boolean;
  /** Follow routes to other missions (default true). */
  chain?: boolean;
  /** Write the run's journal (default true), so `sortie show` and `sortie resume` find it. */
  journal?: boolean;
  /** Receives every event from the first; like `subscribe` before anything happened. */
  onEvent?: (event: MissionEvent) => void;
  /**
   * Who answers the questions agents ask the person (`builtins.human.ask`): a function called
   * with each question (the run goes on while it waits), or a list of answers (like
   * `--answers`: in order, or `{ answer, actor, question }` for the questions an entry
   * matches). Without it, or once the list is used up, the agent gets `[no human available]`.
   */
  human?: HumanAnswerer | readonly HumanListAnswer[];
  /** The longest a question waits for `human`, in seconds (`--human-timeout`). */
  humanTimeoutSeconds?: number;
  /**
   * OpenTelemetry traces (docs/observability.md): `{ url }` sends them to this OTLP endpoint,
   * `true` to the one the OTEL_EXPORTER_OTLP_* variables name (else http://localhost:4318),
   * `false` never; left out, the variables decide, as for `sortie run`.
   */
  otel?: boolean | { url: string };
}

/** An entry of a `human` answer list: a reply, or a reply for the questions it matches. */
export type HumanListAnswer = HumanReply | ScriptedAnswer;

/** What the public handle gives the run. */
export interface RunWiring {
  runId: string;
  publish: (event: MissionEvent) => void;
  signal: AbortSignal;
  /** Picks the mission once the project is known to be runnable. */
  choose: () => Promise<MissionStart>;
  /** The run's trace export, when the caller can open one. */
  traces?: RunTracesOpener;
  /** Told the run's handle once it has started (before it can reach a gate point). */
  started?: (handle: RunHandle) => void;
}

/** The absolute state directory of a library run; a project with errors is refused first. */
export async function stateDirectoryOf(project: Project, settings: RunSettings): Promise<string> {
  if (!project.ok) {
    throw new ProjectConfigError([...project.diagnostics], project.root, new Map(project.sources));
  }
  const stateDir = resolveStateDir({
    ...(settings.stateDir !== undefined ? { stateDir: settings.stateDir } : {}),
    env: process.env,
    projectRoot: project.root,
  });
  if (!madeStateDirectories.has(stateDir)) {
    await makeDirectory(runsDirectory(stateDir));
    madeStateDirectories.add(stateDir);
  }
  return stateDir;
}

/**
 * State directories whose `runs/` folder this process made or found: checked once, not on
 * every run (a run's own folder is made below it with one `mkdir`, which walks up again if
 * the state directory went away since).
 */
const madeStateDirectories = new Set<string>();

/** Runs to the end; rejects when the run cannot start or its files could not be written. */
export async function executeMissionRun(
  project: Project,
  settings: RunSettings,
  wiring: RunWiring,
): Promise<RunResult> {
  checkCassetteFlags(settings);
  const stateDir = await stateDirectoryOf(project, settings);
  const start = await wiring.choose();
  const { started } = wiring;
  return runWired({
    config: project.config,
    functionTools: project.functionTools,
    stateDir,
    runId: wiring.runId,
    start,
    signal: wiring.signal,
    cassettes: settings,
    clients: settings.clients,
    journal: settings.journal,
    gate: settings.gate,
    keepGoing: settings.keepGoing,
    chain: settings.chain,
    human: humanOptionsOf(settings),
    listeners: [wiring.publish],
    traces: wiring.traces,
    ...(started !== undefined ? { follow: (handle) => (started(handle), handle.done) } : {}),
    resumeCommand: `resumeMission(project, ${JSON.stringify(wiring.runId)})`,
  });
}

/** The run's desk options from `human` and `humanTimeoutSeconds`. */
function humanOptionsOf(settings: RunSettings): NonNullable<RunOptions['human']> {
  const { human, humanTimeoutSeconds } = settings;
  const timeout = humanTimeoutSeconds !== undefined ? { timeoutSeconds: humanTimeoutSeconds } : {};
  if (typeof human === 'function') return { available: false, answerer: human, ...timeout };
  if (human === undefined) return { available: false, ...timeout };
  const entries = human.map((entry): ScriptedAnswer =>
    typeof entry === 'string' || Array.isArray(entry)
      ? { answer: entry as HumanReply }
      : (entry as ScriptedAnswer),
  );
  return { available: false, script: new AnswerScript(entries), ...timeout };
}
