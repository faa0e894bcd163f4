/**
 * `sortie run`: load the project, pick the mission, convert the inputs, choose the output,
 * attach the journal (and a cassette), start the run, handle Ctrl-C, and map its end to the
 * exit code (0 succeeded, 1 failed, 130 cancelled; usage and config errors throw → 2).
 */
import { basename, resolve } from 'node:path';
import { describeFileSystemError, isFileSystemError } from '../base/file-system-error.ts';
import { addToRunIndex, runIndexPath } from '../journal/run-index.ts';
import type { ChatRoot, RunHandle, RunResult } from '../actors/contracts.ts';
import type { Config, MissionConfig } from '../config/config-types.ts';
import type { RunJournalState } from '../journal/restore.ts';
import { runPaths } from '../journal/paths.ts';
import { formatCost } from '../present/money.ts';
import { isJournaled, type MissionEvent } from '../base/events.ts';
import { encodeEvent } from '../journal/writer.ts';
import { DebugGate, gateNoticeEvent, parseBreakpoint } from '../runtime/gate.ts';
import { holdOnBudgetWarning } from '../runtime/budget-raises.ts';
import { createEventHub } from './event-hub.ts';
import { ExitCode, exitCodeOf } from '../base/exit-codes.ts';
import { parseInputFlags } from './input-flags.ts';
import { humanOptions, type HumanOptions } from './human-flags.ts';
import { handleInterrupts, type SignalSource } from './interrupts.ts';
import { useColor, type CliIo } from './io.ts';
import { loadForRun } from './load-for-run.ts';
import { checkCassetteFlags } from '../run/run-clients.ts';
import { chooseOutputMode, type OutputMode } from './output-mode.ts';
import { pickMission, taskDependencies } from '../run/pick-mission.ts';
import { createPlainPrinter, type PlainPrinter } from './plain/index.ts';
import { TerminalAsker } from './plain/terminal-asker.ts';
import type { RunFlags } from './run.ts';
import type { TuiRun } from './run-tui.ts';
import { resumeLine, unjournaledInputs } from './resume-line.ts';
import { recordingStateDir } from './state-dir.ts';
import { forkFromTui, TuiForks, type ForkParent } from './tui-fork.ts';
import { parseVarFlags } from './var-flags.ts';
import { resolveBreakpoints } from './breakpoint-tools.ts';
import { openRunTraces } from '../observe/run-traces.ts';

/** What `sortie run` was given. */
export interface RunRequest {
  directory: string;
  mission: string | undefined;
  flags: RunFlags;
}

/** The process around a run (tests replace the signals and the hard exit). */
export interface RunEnvironment {
  cwd: string;
  signals: SignalSource;
  /** The second Ctrl-C: leave at once. */
  exitNow: (code: number) => void;
  /** Where a person types answers to agents' questions on a plain terminal. */
  stdin?: NodeJS.ReadableStream;
}

export const processEnvironment = (): RunEnvironment => ({
  cwd: process.cwd(),
  signals: process,
  exitNow: (code) => process.exit(code),
  stdin: process.stdin,
});

/** Runs a mission from the command line; returns the exit code. */
export async function runCommand(
  request: RunRequest,
  io: CliIo,
  environment: RunEnvironment = processEnvironment(),
): Promise<number> {
  const prepared = await prepareRun(request, io, environment);
  return executeRun(prepared, request.flags, io, environment);
}

/**
 * Runs a prepared run to its end through the one run wiring (run/wired-run.ts) with what is
 * the command line's own plugged in: the output (TUI, line log or JSONL), the debug gate, the
 * terminal's asker, Ctrl-C and the run index; returns the exit code. `resume` continues a
 * journaled run, whose journal `create` writes (a fork's) once the model clients are ready,
 * the last check. When the journal or the cassette cannot be written the run is stopped and a
 * RunStorageError (a usage error) says how to continue it.
 */
export async function executeRun(
  prepared: PreparedRun,
  flags: RunFlags,
  io: CliIo,
  environment: RunEnvironment,
  resume?: RunJournalState,
  create?: () => Promise<void>,
): Promise<number> {
  const { runWired } = await import('../run/wired-run.ts');
  const { newRunId } = await import('../run/start-run.ts');
  const runId = resume?.runId ?? newRunId();
  const warn = (message: string): void => io.stderr(`warning: ${message}\n`);
  const { command: resumeCommand, withheld } = resumeLine({
    runId,
    root: prepared.config.root,
    cwd: environment.cwd,
    flags,
    config: prepared.config,
    mission: prepared.mission,
  });
  // In the TUI, `f` and `e` fork the run; the fork runs once this run is closed.
  const forks =
    prepared.mode === 'tui'
      ? new TuiForks(() => Promise.resolve(prepared.config), io.env)
      : undefined;
  const hub = createEventHub();
  const output = prepared.mode === 'tui' ? undefined : headlessOutput(prepared, flags, io, resume);
  const debugging = flags.step === true || prepared.breakpoints.length > 0;
  const queueUrl = flags.queue ?? io.env.SORTIE_QUEUE;
  const queued = queueUrl !== undefined && queueUrl !== '';
  // In the TUI a budget's warning holds the run and offers to raise its limit; not with
  // --queue, whose workers count against the limits they were sent.
  const budgetHold = prepared.mode === 'tui' && !queued && hasBudgets(prepared.config);
  const gate =
    debugging || budgetHold
      ? new DebugGate({ startPaused: flags.step === true, breakpoints: prepared.breakpoints })
      : undefined;
  // On a plain terminal the person answers agents' questions on the terminal.
  const asker =
    prepared.mode === 'plain' && prepared.human.available
      ? new TerminalAsker({ input: environment.stdin ?? process.stdin, write: io.stderr })
      : undefined;
  const follow = async (handle: RunHandle): Promise<RunResult> => {
    const indexed = indexRun(prepared, handle.runId, io);
    asker?.attach(handle.human);
    // The gate's pauses become events (journal, TUI); no point is held before startRun returns.
    gate?.onNotice((notice) => handle.bus.emit(gateNoticeEvent(notice)));
    const interrupts = handleInterrupts(
      () => handle.cancel(),
      () => environment.exitNow(ExitCode.cancelled),
      environment.signals,
    );
    try {
      const result =
        output === undefined
          ? await showInTui({
              handle,
              subscribe: hub.subscribe,
              gate,
              title: `sortie · ${basename(prepared.config.root)}`,
              interrupts,
              stderr: io.stderr,
              color: useColor(io, 'stdout'),
              forker: forks,
              budgets: budgetHold,
            })
          : await handle.done;
      output?.finish(result);
      return result;
    } finally {
      interrupts.dispose();
      asker?.dispose();
      await indexed;
    }
  };
  const result = await runWired({
    config: prepared.config,
    stateDir: prepared.stateDir,
    runId,
    start: { mission: prepared.mission, inputs: prepared.inputs, resume },
    cassettes: flags,
    gate,
    keepGoing: flags.keepGoing === true,
    chain: flags.chain,
    ...(prepared.chat !== undefined ? { chat: prepared.chat } : {}),
    human: prepared.human,
    listeners: [
      output?.subscriber ?? hub.publish,
      ...(forks === undefined ? [] : [forks.record]),
      ...(asker === undefined ? [] : [(event: MissionEvent) => asker.onEvent(event)]),
      ...(budgetHold && gate !== undefined ? [holdOnBudgetWarning(gate)] : []),
    ],
    traces: (stateDir, resumed) =>
      openRunTraces({
        env: io.env,
        ...(flags.otel !== undefined ? { url: flags.otel } : {}),
        warn,
        stateDir,
        ...(resumed !== undefined ? { resume: resumed } : {}),
      }),
    ...(queued ? { queue: { url: queueUrl, debugging } } : {}),
    warn,
    create,
    follow,
    resumeCommand: withheld === undefined ? resumeCommand : `${resumeCommand}\n${withheld}`,
  });
  // A run that did not succeed ends with where its journal is and how to go on (not in
  // --json, whose stdout is events only; stderr, so the line log's summary stays the end);
  // the TUI leaves the screen, so after it every run says where it is and what it cost.
  const failed = result.status !== 'succeeded';
  if (prepared.mode === 'tui' || (prepared.mode !== 'json' && failed)) {
    io.stderr(
      [
        `run ${result.runId} ${result.status} · ${formatCost(result.costPico, result.unpriced)} · journal ${runPaths(prepared.stateDir, result.runId).journal}`,
        ...(failed ? [`continue it with: ${resumeCommand}`] : []),
        ...(failed && withheld !== undefined ? [withheld] : []),
        '',
      ].join('\n'),
    );
  }
  const chosen = forks?.chosen;
  if (chosen === undefined) return exitCodeOf(result.status);
  // The fork's exit code is the command's: it is the run the person ends with.
  return forkFromTui(chosen, forkParent(prepared, flags, runId), io, environment);
}

/** Whether any mission or task of the project has a budget (the TUI holds at their warnings). */
function hasBudgets(config: Config): boolean {
  return [...config.missions.values()].some(
    (mission) =>
      mission.budget !== undefined ||
      [...mission.tasks.values()].some((task) => task.budget !== undefined),
  );
}

/** The run a fork from its TUI starts from: `--input` only for what the journal does not keep. */
function forkParent(prepared: PreparedRun, flags: RunFlags, runId: string): ForkParent {
  const unjournaled = unjournaledInputs(prepared.mission);
  const input = (flags.input ?? []).filter((spec) => unjournaled.has(spec.split('=')[0] ?? ''));
  return {
    runId,
    project: prepared.project,
    flags: { ...flags, input, stateDir: prepared.stateDir },
  };
}

/**
 * Adds the run to the user-wide run index so that its id is found from any folder; a run
 * that cannot be indexed still runs (its id works from its project) and says why.
 */
async function indexRun(prepared: PreparedRun, runId: string, io: CliIo): Promise<void> {
  const path = runIndexPath(io.env);
  if (path === undefined) return;
  const entry = {
    runId,
    stateDir: prepared.stateDir,
    project: prepared.project,
    mission: prepared.mission.name,
    startedAt: new Date().toISOString(),
    ...(prepared.chat !== undefined ? { kind: 'chat' as const } : {}),
  };
  try {
    await addToRunIndex(path, entry);
  } catch (error) {
    const why = isFileSystemError(error) ? describeFileSystemError(error, path) : String(error);
    io.stderr(`warning: run ${runId} is not in the run index (${why}); find it from its project\n`);
  }
}

/** Everything checked before a run starts. */
export interface PreparedRun {
  mode: OutputMode;
  breakpoints: string[];
  config: Config;
  mission: MissionConfig;
  inputs: Record<string, unknown>;
  stateDir: string;
  /** The project directory or .hcl file as an absolute path. */
  project: string;
  /** Who answers the agents' questions to the person. */
  human: HumanOptions;
  /** `sortie chat`: the run is a conversation with one agent. */
  chat?: ChatRoot;
}

/**
 * Which mission a run starts with and its inputs (`run` parses them; `resume` reads the
 * journal); a chat also gives the config holding its mission and its root.
 */
export type MissionChoice = (
  config: Config,
  stateDir: string,
) => Promise<{
  mission: MissionConfig;
  inputs: Record<string, unknown>;
  config?: Config;
  chat?: ChatRoot;
}>;

/**
 * Flags, project, mission, inputs and variables, checked in the order a person fixes them;
 * every problem is a usage or configuration error (exit 2) before anything starts.
 */
export async function prepareRun(
  request: RunRequest,
  io: CliIo,
  environment: RunEnvironment,
  choose: MissionChoice = async (config) => {
    const mission = pickMission(config, request.mission);
    const flags = request.flags.input ?? [];
    return {
      mission,
      inputs: parseInputFlags(flags, mission.inputs, mission.name, environment.cwd),
    };
  },
): Promise<PreparedRun> {
  const { flags } = request;
  // Their form is checked at once; the tools they name once the project is loaded.
  for (const spec of flags.break ?? []) parseBreakpoint(spec);
  const mode = chooseOutputMode(flags, io);
  checkCassetteFlags(flags);
  const human = await humanOptions(flags, mode, io, environment.cwd);
  const { config, checkVariables } = await loadForRun(
    request.directory,
    parseVarFlags(flags.var ?? []),
    io.env,
  );
  const breakpoints = resolveBreakpoints(flags.break ?? [], config);
  const stateDir = await recordingStateDir(flags.stateDir, io.env, config.root, environment.cwd);
  const chosen = await choose(config, stateDir);
  const { mission, inputs, chat } = chosen;
  const runConfig = chosen.config ?? config;
  // Every run needs its variables before anything starts; a replayed or mocked run needs no
  // credentials.
  const credentials = flags.replayModel === undefined && flags.mockModel === undefined;
  checkVariables(mission.name, { credentials }, runConfig);
  const project = resolve(environment.cwd, request.directory);
  return {
    mode,
    breakpoints,
    config: runConfig,
    mission,
    inputs,
    stateDir,
    project,
    human,
    ...(chat !== undefined ? { chat } : {}),
  };
}

interface HeadlessOutput {
  subscriber: (event: MissionEvent) => void;
  finish(result: RunResult): void;
}

function headlessOutput(
  prepared: PreparedRun,
  flags: RunFlags,
  io: CliIo,
  resume: RunJournalState | undefined,
): HeadlessOutput {
  if (prepared.mode === 'json') {
    // One event per line, encoded exactly as the journal writes it (every event but the
    // display-only deltas), so `sortie run --json` and `journal.jsonl` are read by one parser.
    const subscriber = (event: MissionEvent): void => {
      if (isJournaled(event)) io.stdout(encodeEvent(event));
    };
    return { subscriber, finish: () => undefined };
  }
  const printer: PlainPrinter = createPlainPrinter({
    write: io.stdout,
    color: useColor(io, 'stdout'),
    quiet: flags.quiet === true,
    dependencies: taskDependencies(prepared.config),
    journalOf: (runId) => runPaths(prepared.stateDir, runId).journal,
    ...(resume !== undefined ? { resumed: resume } : {}),
    // Only on a terminal: a pipe or a file gets the log alone.
    ...(io.stdoutIsTty ? { status: { columns: () => process.stdout.columns || 80 } } : {}),
  });
  return { subscriber: (event) => printer.onEvent(event), finish: () => printer.printSummary() };
}

async function showInTui(run: TuiRun): Promise<RunResult> {
  const { runInTui } = await import('./run-tui.ts');
  return runInTui(run);
}
