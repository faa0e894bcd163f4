/**
 * `sortie mcp serve`: sortie's MCP server over stdio for one client (the process its config
 * starts). Runs go through a run service of its own, so they are ordinary journaled runs. When
 * the client goes away (stdin ends) or a signal comes, running runs are cancelled: they stay
 * resumable (`sortie resume`).
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Project } from '../../run/project.ts';
import { RunService } from '../run-service.ts';
import { createMcpServer } from './mcp-server.ts';

/** How the stdio server is set up. */
export interface McpStdioOptions {
  project: Project;
  stateDir: string;
  /** The user-wide run index file (undefined: none). */
  runIndex: string | undefined;
  /** Requests one mission's queue holds at most. */
  queueLimit: number;
  version: string;
  /** Lines for the person (stderr: stdout carries only the protocol). */
  log: (line: string) => void;
  stdin: Readable;
  stdout: Writable;
  /** Resolves when the server must stop (a signal). */
  stop: Promise<void>;
}

/** Serves until stdin ends or `stop` resolves; settles once every run has ended. */
export async function serveMcpStdio(options: McpStdioOptions): Promise<void> {
  const { project, stateDir, log } = options;
  const service = new RunService({
    project,
    stateDir,
    runIndex: options.runIndex,
    queueLimit: options.queueLimit,
    log,
  });
  const server = createMcpServer({ project, stateDir, service, version: options.version, log });
  const closed = new Promise<void>((resolve) => {
    options.stdin.once('end', resolve);
    options.stdin.once('close', resolve);
    server.server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport(options.stdin, options.stdout));
  log(
    `sortie mcp serve: serving ${project.missions.length} missions of ${project.root} (state ${stateDir})`,
  );
  await Promise.race([closed, options.stop]);
  await service.shutdown(Promise.resolve());
  await server.close();
}
