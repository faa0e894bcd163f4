/**
 * `sortie mcp serve [DIR]`: the project's missions served to one MCP client over stdio (the
 * command its config starts: `claude mcp add sortie -- sortie mcp serve DIR`). The project is
 * loaded and every mission's variables checked first, as `sortie serve` does; stdout carries
 * only the protocol, everything for the person goes to stderr.
 */
import { resolve } from 'node:path';
import { ExitCode } from '../base/exit-codes.ts';
import { runIndexPath } from '../journal/run-index.ts';
import type { SignalSource } from './interrupts.ts';
import type { CliIo } from './io.ts';
import { loadProject, untilSignal, wholeNumber } from './serve-command.ts';
import { recordingStateDir } from './state-dir.ts';
import { parseVarFlags } from './var-flags.ts';
import { sortieVersion } from './version.ts';

/** The flags of `sortie mcp serve`. */
export interface McpServeFlags {
  stateDir?: string;
  var?: string[];
  queueLimit: string;
}

/** Serves until the client leaves or a signal comes; returns the exit code. */
export async function mcpServeCommand(
  directory: string,
  flags: McpServeFlags,
  io: CliIo,
  environment: { cwd: string; signals: SignalSource } = { cwd: process.cwd(), signals: process },
): Promise<number> {
  const queueLimit = wholeNumber('--queue-limit', flags.queueLimit, 0, 100_000);
  const vars = parseVarFlags(flags.var ?? []);
  const project = await loadProject(resolve(environment.cwd, directory), vars, io.env);
  const stateDir = await recordingStateDir(flags.stateDir, io.env, project.root, environment.cwd);
  const { serveMcpStdio } = await import('../serve/mcp-host/index.ts');
  await serveMcpStdio({
    project,
    stateDir,
    runIndex: runIndexPath(io.env),
    queueLimit,
    version: sortieVersion(),
    log: (line) => io.stderr(`${line}\n`),
    stdin: process.stdin,
    stdout: process.stdout,
    stop: untilSignal(environment.signals),
  });
  return ExitCode.ok;
}
