/**
 * `sortie attach` in a real terminal (tmux, 80×24, NO_COLOR) on a run of `sortie serve` (the
 * built CLI, real HTTP): the TUI pauses the served run, answers its agent's question, steps
 * one held model request, and `q` detaches at once while the run stays on the server, which
 * finishes it once continued.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtBin, builtCli } from './built-cli.ts';
import { outputsOf } from './cli-human-harness.ts';
import {
  api,
  readEvents,
  serveFreshProject,
  startServedModel,
  stopServe,
} from './serve-harness.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

const cleanups: Array<() => Promise<unknown> | void> = [];
beforeAll(async () => {
  await builtCli();
}, 240_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('sortie attach in the TUI (tmux)', () => {
  it('pauses, answers and steps a served run; q detaches and the run finishes on the server', async () => {
    const model = await startServedModel();
    cleanups.push(() => model.close());
    const { served } = await serveFreshProject(model);
    cleanups.push(() => stopServe(served));
    const dir = await temporaryDirectory('attach');

    const posted = await api(served, 'POST', '/api/missions/ask/runs', { body: { inputs: {} } });
    const runId = String(posted.body.run_id);
    // The asker waits for the person: the run goes no further until the TUI answers.
    await readEvents(served, runId, (event) => event.type === 'human.asked');

    const exitFile = join(dir, 'exit-code');
    const shown = new TmuxTerminal(join(dir, 'tmux.socket'), 'attach');
    cleanups.push(() => shown.close());
    const bin = builtBin(await builtCli())[0] ?? '';
    shown.start(sortieCommand(`attach ${runId} --server ${served.url}`, exitFile, {}, bin), {
      columns: 80,
      rows: 24,
    });
    await shown.until('the question', () => shown.screen().includes('asks you a question'));
    const control = async () => (await api(served, 'GET', `/api/runs/${runId}/control`)).body;
    const heldActors = async () =>
      ((await control()).held as Array<{ kind: string; actor: string }>).map(
        (point) => `${point.kind} ${point.actor}`,
      );
    expect(shown.screen()).toContain('agent:decide/asker asks you a question: a to answer');
    expect(shown.screen()).toContain('n step  c continue  ? all keys  q detach  a answer');

    shown.press('Space');
    await shown.until('paused', () => shown.screen().includes('⏸ PAUSED'));
    expect(shown.screen()).toContain(
      'paused: every actor stops at its next model request or tool call',
    );
    expect(await control()).toMatchObject({ paused: true, held: [], breakpoints: [] });

    shown.press('a');
    await shown.until('the prompt', () => shown.screen().includes('enter sends'));
    shown.press('1', 'Enter');
    // The answer reaches the asker, whose next model request the paused gate holds.
    await shown.until('a held point', () => shown.screen().includes('⏸ PAUSED (1 held)'));
    expect(shown.screen()).toMatch(/⏸ asker/);
    expect(await heldActors()).toEqual(['model agent:decide/asker']);

    shown.press('n');
    // The asker's end and the commander's hold reach the TUI as separate updates, in any order.
    await shown.until(
      'the commander held and the asker done',
      () => /⏸ commander/.test(shown.screen()) && /✓ asker/.test(shown.screen()),
    );
    expect(shown.screen()).toContain('stepped: model agent:decide/asker');
    expect(await heldActors()).toEqual(['model commander:decide']);
    const askerRequests = model.requests.filter(
      (request) => request.actor === 'agent:decide/asker',
    );
    expect(outputsOf(askerRequests.at(-1)?.body)).toEqual(['eu']);

    shown.press('q');
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await shown.until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('0\n');
    // Detached: the run waits on the server, held, until someone continues it.
    expect((await api(served, 'GET', `/api/runs/${runId}`)).body.status).toBe('running');
    expect(await heldActors()).toEqual(['model commander:decide']);
    const continued = await api(served, 'POST', `/api/runs/${runId}/control`, {
      body: { action: 'continue' },
    });
    expect(continued.body).toMatchObject({ paused: false, breakpoints: [] });
    await served.line(new RegExp(`^run ${runId} succeeded · mission ask$`));
    expect(model.requests.map((request) => request.actor)).toEqual([
      'commander:decide',
      'commander:decide',
      'agent:decide/asker',
      'agent:decide/asker',
      'commander:decide',
      'commander:decide',
    ]);
  }, 120_000);
});
