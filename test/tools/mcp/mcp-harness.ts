/** Shared setup of the MCP tool tests: temp folders, the stdio test server, process checks. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { McpPool, type McpServerSpec } from '../../../src/tools/mcp/index.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

export const STDIO_SERVER = join(import.meta.dirname, '../../fixtures/mcp/stdio-server.mjs');

const cleanups: Array<() => Promise<void>> = [];

export async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

export function onCleanUp(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/** The stdio test server as a `command` spec (node + the fixture script). */
export function stdioSpec(name: string, env: Record<string, string> = {}): McpServerSpec {
  return { kind: 'command', name, command: process.execPath, args: [STDIO_SERVER], env };
}

/** A pool closed by `cleanUp`. */
export async function openPool(servers: McpServerSpec[]): Promise<McpPool> {
  const pool = McpPool.of(servers, await temporaryDirectory('mcp-cache'));
  onCleanUp(() => pool.close());
  return pool;
}

/**
 * True while the process exists and is not a zombie (a child that ended but was not yet
 * reaped by an init that does not reap counts as gone).
 */
export async function processAlive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The pids a test server appended to its pid file, in start order. */
export async function pidsIn(file: string): Promise<number[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}
