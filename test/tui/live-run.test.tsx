/**
 * The App fed by a real run: startRun with the real OpenAI SDK against the scripted model
 * server, held and stepped through a real DebugGate by key presses.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunHandle, RunResult } from '../../src/actors/contracts.ts';
import { startRun } from '../../src/run/start-run.ts';
import { loadProject } from '../../src/config/index.ts';
import { DebugGate, gateNoticeEvent } from '../../src/runtime/gate.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { plainTask } from '../e2e/engine-harness.ts';
import { projectText } from '../helpers/model-preamble.ts';
import { mountApp, type Mounted } from './app-harness.tsx';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { until } from '../helpers/until.ts';

const HELLO = `
agent "greeter" {
  model = MODEL
  personality = "You write short greetings."
}
mission "hello" {
  commander {
    model = MODEL
  }
  agents = [agents.greeter]
  task "greet" {
    objective = "Write a greeting"
  }
}
`;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `until` that publishes the store's queued events before each check. */
function untilShown(app: Mounted, check: () => boolean, what: string): Promise<void> {
  const synced = async (): Promise<boolean> => {
    await app.sync();
    return check();
  };
  return until(what, synced, { lastSeen: () => app.frame() });
}

describe('the TUI on a live run', () => {
  it('holds the first request, steps one gate with n, continues with c, and totals its costs', async () => {
    const server = await ScriptedModelServer.start({
      turns: plainTask('greet', 'greeter', 'Greeted'),
    });
    const dir = await temporaryDirectory('tui-live');
    cleanups.push(() => server.close());
    await writeFile(join(dir, 'main.hcl'), projectText(HELLO));
    const config = await loadProject(dir, {
      vars: { api_key: 'test-key', base_url: server.baseUrl('openai') },
      env: {},
    });

    const listeners = new Set<(event: MissionEvent) => void>();
    // The gate exists before the run; its notices become the run's events, as the CLI does.
    const run: { handle?: RunHandle } = {};
    const gate = new DebugGate({
      startPaused: true,
      onNotice: (notice) => run.handle?.bus.emit(gateNoticeEvent(notice)),
    });
    const app = await mountApp({
      gate,
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    });
    cleanups.push(() => app.unmount());
    const handle = startRun({
      config,
      mission: 'hello',
      inputs: {},
      stateDir: join(dir, '.sortie'),
      gate,
      subscribers: [(event) => listeners.forEach((listener) => listener(event))],
    });
    run.handle = handle;
    let result: RunResult | undefined;
    const done = handle.done.then((finished) => (result = finished));

    await untilShown(app, () => gate.held().length === 1, 'the first held request');
    expect(gate.held()[0]).toMatchObject({ kind: 'model', actor: 'commander:greet' });
    expect(server.requests).toHaveLength(0);
    expect(app.frame()).toContain('PAUSED (1 held)');
    expect(app.frame()).toContain('greet');
    // The commander's first request, held: the detail pane shows what is about to be sent,
    // the system prompt included (no model.request has carried it yet).
    await app.press('j', 'j');
    const held = app.frame();
    expect(held).toContain('▸ ⏸ held before model request: 1 message');
    expect(held).toContain('system: You are the commander of task "greet". You');
    expect(held).toContain('- greeter: You write short greetings.');

    await app.press('n');
    await untilShown(
      app,
      () => gate.held().length === 1 && gate.held()[0]?.kind === 'tool',
      'the next gate after one step',
    );
    // Exactly one gate passed: the commander's first request went out, and its first tool
    // call (set_subtasks) now waits.
    expect(server.requests).toHaveLength(1);
    expect(gate.held()[0]).toMatchObject({ tool: 'set_subtasks' });

    await app.press('c');
    await done;
    expect(result?.status).toBe('succeeded');
    server.assertDone();

    await app.press('2');
    await untilShown(app, () => app.frame().includes('total'), 'the Costs tab');
    const totalRow = app
      .frame()
      .split('\n')
      .find((row) => row.trimStart().startsWith('total'));
    expect(totalRow).toContain(result!.tokens.toLocaleString('en-US'));
  });
});
