/**
 * `sortie run`: load the project, pick the mission, convert the inputs, choose the output,
 * attach the journal (and a cassette), start the run, handle Ctrl-C, and map its end to the
 * exit code (0 succeeded, 1 failed, 130 cancelled; usage and config errors throw → 2).
 */
import { basename } from 'node:path';
import type { RunResult } from '../actors/contracts.ts';
import type { Config, MissionConfig } from '../config/types.ts';
import type { RunJournalState } from '../journal/restore.ts';
import { createRunRedactor } from '../actors/run-redactor.ts';
import { resolveStateDir } from '../journal/paths.ts';
import type { MissionEvent } from '../runtime/events.ts';
import { DebugGate, parseBreakpoint } from '../runtime/gate.ts';
import { createEventHub } from './event-hub.ts';
import { ExitCode } from './exit-codes.ts';
import { parseInputFlags } from './input-flags.ts';
import { handleInterrupts, type SignalSource } from './interrupts.ts';
import { useColor, type CliIo } from './io.ts';
import { createJsonPrinter } from './json-printer.ts';
import { lazyJournal } from './lazy-journal.ts';
import { loadForRun } from './load-for-run.ts';
import { checkCassetteFlags, runClients } from './model-clients.ts';
import { chooseOutputMode, type OutputMode } from './output-mode.ts';
import { pickMission, taskDependencies } from './pick-mission.ts';
import { createPlainPrinter, type PlainPrinter } from './plain/index.ts';
import type { RunFlags } from './run.ts';
import type { TuiRun } from './run-tui.ts';
import { parseVarFlags } from './var-flags.ts';

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
}

export const processEnvironment = (): RunEnvironment => ({
  cwd: process.cwd(),
  signals: process,
  exitNow: (code) => process.exit(code),
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
 * Runs a prepared run to its end with its output (TUI, line log or JSONL), journal, cassette,
 * gate and Ctrl-C handling; returns the exit code. `resume` continues a journaled run.
 */
export async function executeRun(
  prepared: PreparedRun,
  flags: RunFlags,
  io: CliIo,
  environment: RunEnvironment,
  resume?: RunJournalState,
): Promise<number> {
  const redact = createRunRedactor(prepared.config, [prepared]);
  const clients = await runClients(flags, redact, (message) => io.stderr(`warning: ${message}\n`));
  const journal = lazyJournal(prepared.stateDir);
  try {
    const hub = createEventHub();
    const output =
      prepared.mode === 'tui'
        ? undefined
        : headlessOutput(prepared.mode, flags, io, taskDependencies(prepared.config));
    const gate =
      flags.step === true || prepared.breakpoints.length > 0
        ? new DebugGate({ startPaused: flags.step === true, breakpoints: prepared.breakpoints })
        : undefined;
    const { startRun } = await import('../actors/start-run.ts');
    const handle = startRun({
      config: prepared.config,
      mission: prepared.mission.name,
      inputs: prepared.inputs,
      stateDir: prepared.stateDir,
      gate,
      keepGoing: flags.keepGoing === true,
      chain: flags.chain,
      clients: clients.clients,
      ...(resume !== undefined ? { resume } : {}),
      subscribers: [journal.subscriber, output?.subscriber ?? hub.publish],
    });
    // The gate's pauses become events (journal, TUI); no point is held before startRun returns.
    gate?.onNotice((notice) => handle.bus.emit({ ...notice, actor: notice.point.actor }));
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
            })
          : await handle.done;
      output?.finish(result);
      return exitCodeOf(result);
    } finally {
      interrupts.dispose();
    }
  } finally {
    await Promise.all([journal.close(), clients.close()]);
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
}

/** Which mission a run starts with and its inputs (`run` parses them; `resume` reads the journal). */
export type MissionChoice = (
  config: Config,
  stateDir: string,
) => Promise<{ mission: MissionConfig; inputs: Record<string, unknown> }>;

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
  const breakpoints = flags.break ?? [];
  for (const spec of breakpoints) parseBreakpoint(spec);
  const mode = chooseOutputMode(flags, io);
  checkCassetteFlags(flags);
  const { config, checkVariables } = await loadForRun(
    request.directory,
    parseVarFlags(flags.var ?? []),
    io.env,
  );
  const stateDir = resolveStateDir({
    stateDir: flags.stateDir,
    env: io.env,
    projectRoot: config.root,
    cwd: environment.cwd,
  });
  const { mission, inputs } = await choose(config, stateDir);
  // Every run needs its variables before anything starts; a replayed run needs no credentials.
  checkVariables(mission.name, { credentials: flags.replayModel === undefined });
  return { mode, breakpoints, config, mission, inputs, stateDir };
}

/** The exit code of a finished run. */
export function exitCodeOf(result: RunResult): number {
  if (result.status === 'succeeded') return ExitCode.ok;
  return result.status === 'cancelled' ? ExitCode.cancelled : ExitCode.missionFailed;
}

interface HeadlessOutput {
  subscriber: (event: MissionEvent) => void;
  finish(result: RunResult): void;
}

function headlessOutput(
  mode: Exclude<OutputMode, 'tui'>,
  flags: RunFlags,
  io: CliIo,
  dependencies: ReadonlyMap<string, readonly string[]>,
): HeadlessOutput {
  if (mode === 'json') return { subscriber: createJsonPrinter(io.stdout), finish: () => undefined };
  const printer: PlainPrinter = createPlainPrinter({
    write: io.stdout,
    color: useColor(io, 'stdout'),
    quiet: flags.quiet === true,
    dependencies,
  });
  return { subscriber: (event) => printer.onEvent(event), finish: () => printer.printSummary() };
}

async function showInTui(run: TuiRun): Promise<RunResult> {
  const { runInTui } = await import('./run-tui.ts');
  return runInTui(run);
}
