/**
 * `sortie serve [DIR]`: checks the flags (a non-loopback address needs a token, and an enabled
 * `mcp_host` its secret), loads the project and checks every mission's variables before it
 * listens, prints its URL (and the MCP endpoint's) and a line per run, and on SIGTERM or
 * Ctrl-C stops: running runs get `--grace` seconds, then are cancelled (resumable); a second
 * signal cancels them at once. Exits 0 once down.
 */
import { resolve } from 'node:path';
import { ProjectConfigError } from '../config/load-project.ts';
import { requireVariables } from '../config/requirements.ts';
import { ConfigError, UsageError } from '../base/errors.ts';
import { ExitCode } from '../base/exit-codes.ts';
import { runIndexPath } from '../journal/run-index.ts';
import { openProject, type Project } from '../run/project.ts';
import { runTracesOpener } from '../observe/run-traces.ts';
import type { SchedulerClock } from '../serve/scheduler-clock.ts';
import type { SignalSource } from './interrupts.ts';
import type { CliIo } from './io.ts';
import type { ServeFlags } from './serve.ts';
import { checkMcpHost, mcpHostLine } from './serve-mcp-host.ts';
import { recordingStateDir } from './state-dir.ts';
import { checkDeclaredVariables, parseVarFlags } from './var-flags.ts';
import { sortieVersion } from './version.ts';

/** What `sortie serve` was given. */
export interface ServeRequest {
  directory: string;
  flags: ServeFlags;
}

/** The process around the server (tests may replace the signals and the schedules' clock). */
export interface ServeEnvironment {
  cwd: string;
  signals: SignalSource;
  clock?: SchedulerClock;
}

/** A whole number within bounds, or a usage error naming the flag. */
export function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} ${text}: expected a whole number from ${min} to ${max}`);
  }
  return value;
}

/** The project, with every error printed with its source and every mission's variables set. */
export async function loadProject(
  directory: string,
  vars: Record<string, string>,
  env: Record<string, string | undefined>,
): Promise<Project> {
  const project = await openProject(directory, { vars, env });
  const fail = (diagnostics: readonly ConfigError['diagnostics'][number][]): never => {
    throw new ProjectConfigError([...diagnostics], project.root, new Map(project.sources));
  };
  if (!project.ok) fail(project.diagnostics);
  checkDeclaredVariables(vars, project.config.variables.keys());
  // A service must not find a missing key at its first webhook: every mission is checked now.
  for (const mission of project.missions) {
    try {
      requireVariables(project.config, mission);
    } catch (error) {
      if (error instanceof ConfigError) fail(error.diagnostics);
      throw error;
    }
  }
  return project;
}

/** Serves until a signal; returns the exit code. */
export async function serveCommand(
  request: ServeRequest,
  io: CliIo,
  environment: ServeEnvironment = { cwd: process.cwd(), signals: process },
): Promise<number> {
  const { flags } = request;
  const port = wholeNumber('--port', flags.port, 0, 65535);
  const graceSeconds = wholeNumber('--grace', flags.grace, 0, 86_400);
  const queueLimit = wholeNumber('--queue-limit', flags.queueLimit, 0, 100_000);
  const mcpPort =
    flags.mcpPort === undefined ? undefined : wholeNumber('--mcp-port', flags.mcpPort, 0, 65535);
  const token = (flags.token ?? io.env.SORTIE_SERVE_TOKEN ?? '') || undefined;
  const { isLoopback, startScheduler, startServer, webhookMissions } =
    await import('../serve/index.ts');
  if (!isLoopback(flags.host) && token === undefined) {
    throw new UsageError(
      `refusing to listen on ${flags.host} without a token: anyone who can reach it could start runs`,
      'give --token TOKEN (or SORTIE_SERVE_TOKEN), or listen on 127.0.0.1',
    );
  }
  const vars = parseVarFlags(flags.var ?? []);
  const project = await loadProject(resolve(environment.cwd, request.directory), vars, io.env);
  checkMcpHost(project.config.mcpHost, flags.host, mcpPort, isLoopback);
  const stateDir = await recordingStateDir(flags.stateDir, io.env, project.root, environment.cwd);
  const log = (line: string): void => io.stdout(`${line}\n`);
  const server = await startServer({
    project,
    stateDir,
    runIndex: runIndexPath(io.env),
    host: flags.host,
    port,
    token,
    corsOrigin: flags.cors,
    queueLimit,
    resume: flags.resume,
    ...(mcpPort === undefined ? {} : { mcpPort }),
    version: sortieVersion(),
    log,
    ...(environment.clock === undefined ? {} : { clock: environment.clock }),
    // Each run's traces, as `sortie run` opens them; the exporter loads only when asked for.
    traces: runTracesOpener(
      flags.otel !== undefined ? { url: flags.otel } : undefined,
      io.env,
      (message) => log(`warning: ${message}`),
    ),
  });
  log(`sortie serve listening on ${server.url} (state ${stateDir})`);
  const mcpLine = mcpHostLine(project.config.mcpHost, server.mcpUrl);
  if (mcpLine !== undefined) log(mcpLine);
  for (const [route, mission] of webhookMissions(project.config)) {
    const off = mission.trigger?.unsetSecretVariable;
    log(
      off === undefined
        ? `webhook POST ${server.url}/webhooks/${route} starts mission ${mission.name}`
        : `webhook /webhooks/${route} is off: its secret, variable "${off}", has no value`,
    );
  }
  // Each fire is one more submission: past max_parallel it queues, past the queue it is refused.
  const scheduler = startScheduler({
    missions: project.config.missions.values(),
    log,
    ...(environment.clock === undefined ? {} : { clock: environment.clock }),
    fire: (mission, inputs) => server.service.submit(mission, inputs, 'schedule'),
  });
  await untilSignal(environment.signals);
  scheduler.stop();
  log(`stopping: running runs have ${graceSeconds}s to finish (signal again to cancel them now)`);
  await server.stop(graceOrSignal(graceSeconds, environment.signals));
  log('stopped');
  return ExitCode.ok;
}

/** Resolves at the first SIGINT or SIGTERM. */
export function untilSignal(signals: SignalSource): Promise<void> {
  return new Promise((resolve) => {
    const listener = (): void => {
      signals.off('SIGINT', listener);
      signals.off('SIGTERM', listener);
      resolve();
    };
    signals.on('SIGINT', listener);
    signals.on('SIGTERM', listener);
  });
}

/** Resolves after the grace, or at the next signal, whichever comes first. */
function graceOrSignal(seconds: number, signals: SignalSource): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, seconds * 1000);
  });
  return Promise.race([elapsed, untilSignal(signals)]).finally(() => clearTimeout(timer));
}
