/**
 * Breakpoints of a served run reach every attached client at once: two `sortie attach --json`
 * clients (the built CLI, real HTTP) follow a run waiting for its person; the debugger route
 * the TUI drives sets and removes breakpoints, and both clients print each change as it
 * happens, without asking the server for anything.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { builtBin, builtCli } from './built-cli.ts';
import { CLI_ENV, ROOT } from './cli-child.ts';
import {
  api,
  readEvents,
  serveFreshProject,
  startServedModel,
  stopServe,
  type Served,
} from './serve-harness.ts';

let model: ScriptedModelServer;
let served: Served;

beforeAll(async () => {
  await builtCli();
  model = await startServedModel();
  ({ served } = await serveFreshProject(model));
}, 240_000);

afterAll(async () => {
  if (served !== undefined) await stopServe(served);
  await model?.close();
});

/** A running `sortie attach RUN_ID --json`: the events printed so far, and its exit. */
interface AttachedClient {
  events: () => Array<Record<string, unknown>>;
  /** Resolves once an event printed so far or to come satisfies `accept`. */
  until: (accept: (event: Record<string, unknown>) => boolean) => Promise<void>;
  exited: Promise<number | null>;
}

async function attachJson(runId: string): Promise<AttachedClient> {
  const args = [...builtBin(await builtCli()), 'attach', runId, '--server', served.url, '--json'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...CLI_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const events = () =>
    stdout
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const waiter of [...waiters]) waiter();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const until = (accept: (event: Record<string, unknown>) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!events().some(accept)) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
      void exited.then((code) =>
        reject(new Error(`attach exited (${code}) first: ${stderr}${stdout}`)),
      );
    });
  return { events, until, exited };
}

/** The breakpoint changes among a client's events, without their envelope. */
function breakpointChanges(events: Array<Record<string, unknown>>): unknown[] {
  return events
    .filter((event) => event.type === 'breakpoints.changed')
    .map(({ actor, breakpoint, set, breakpoints }) => ({ actor, breakpoint, set, breakpoints }));
}

describe('breakpoints of a served run', () => {
  it('reach every attached client as they are set and removed', async () => {
    const posted = await api(served, 'POST', '/api/missions/ask/runs', { body: {} });
    const runId = String(posted.body.run_id);
    // The asker waits for the person: the run stays live while the breakpoints change.
    await readEvents(served, runId, (event) => event.type === 'human.asked');
    const first = await attachJson(runId);
    const second = await attachJson(runId);
    const asked = (event: Record<string, unknown>) => event.type === 'human.asked';
    await Promise.all([first.until(asked), second.until(asked)]);

    const control = (body: unknown) => api(served, 'POST', `/api/runs/${runId}/control`, { body });
    await control({ action: 'break', breakpoint: 'tool:call_agent' });
    await control({ action: 'break', breakpoint: 'cost:0.5' });
    await control({ action: 'unbreak', breakpoint: 'tool:call_agent' });
    const cancelled = await api(served, 'POST', `/api/runs/${runId}/cancel`);
    expect(cancelled.status).toBe(202);
    expect(await first.exited).toBe(130);
    expect(await second.exited).toBe(130);

    const expected = [
      { actor: 'run', breakpoint: 'tool:call_agent', set: true, breakpoints: ['tool:call_agent'] },
      {
        actor: 'run',
        breakpoint: 'cost:0.50',
        set: true,
        breakpoints: ['tool:call_agent', 'cost:0.50'],
      },
      { actor: 'run', breakpoint: 'tool:call_agent', set: false, breakpoints: ['cost:0.50'] },
    ];
    expect(breakpointChanges(first.events())).toEqual(expected);
    expect(breakpointChanges(second.events())).toEqual(expected);
    // Both clients got each change while the run still waited for its person, before its end.
    const moments = (events: Array<Record<string, unknown>>) =>
      events
        .map((event) => String(event.type))
        .filter((type) => ['human.asked', 'breakpoints.changed', 'run.finished'].includes(type));
    const order = ['human.asked', ...expected.map(() => 'breakpoints.changed'), 'run.finished'];
    expect(moments(first.events())).toEqual(order);
    expect(moments(second.events())).toEqual(order);
  }, 120_000);
});
