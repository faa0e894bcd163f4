import { afterEach, describe, expect, it } from 'vitest';
import type { EventBus } from '../../src/runtime/event-bus.ts';
import { DebugGate, gateNoticeEvent, type GatePoint } from '../../src/runtime/gate.ts';
import { KEYS, mountApp, settle, type Mounted } from './app-harness.tsx';
import { emitAnalyzeTask, emitFetchTask, testBus } from './fixture.ts';

const QUERY_ARGUMENTS =
  '{"task":"fetch","filters":[{"field":"forecast","op":"eq","value":"sunny"}]}';
const modelPoint: GatePoint = {
  kind: 'model',
  actor: 'commander:analyze[7]',
  detail: 'custom.mystery',
};
const toolPoint: GatePoint = {
  kind: 'tool',
  actor: 'commander:analyze[8]',
  tool: 'query_task_output',
  detail: QUERY_ARGUMENTS.slice(0, 40),
};

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

/** A live run whose gate notices become events, as the run wiring does. */
async function liveRun(): Promise<{ app: Mounted; gate: DebugGate; bus: EventBus }> {
  const bus = testBus();
  const gate = new DebugGate({
    onNotice: (notice) => bus.emit(gateNoticeEvent(notice)),
  });
  const app = await mountApp({ bus, gate });
  mounted = app;
  emitFetchTask(bus);
  emitAnalyzeTask(bus);
  bus.emit({
    type: 'message.appended',
    actor: 'commander:analyze[8]',
    conversation: 'commander:analyze[8]',
    message: {
      role: 'assistant',
      parts: [
        { type: 'tool_call', id: 't1', name: 'query_task_output', arguments: QUERY_ARGUMENTS },
      ],
    },
  });
  await app.sync();
  return { app, gate, bus };
}

/** Holds both points at the gate; returns the order in which they were let go. */
function holdTwo(gate: DebugGate): string[] {
  const released: string[] = [];
  void gate.before(modelPoint).then(() => released.push('model'));
  void gate.before(toolPoint).then(() => released.push('tool'));
  return released;
}

function headerOf(app: Mounted): string {
  return app.frame().split('\n')[0] ?? '';
}

describe('App: step debugging against a DebugGate', () => {
  it('pauses with space, steps exactly one held point with n, continues with c', async () => {
    const { app, gate } = await liveRun();
    await app.press(' ');
    expect(gate.isPaused).toBe(true);
    expect(headerOf(app)).toContain('⏸ PAUSED');
    const released = holdTwo(gate);
    await app.sync();
    expect(headerOf(app)).toContain('⏸ PAUSED (2 held)');
    expect(app.frame()).toContain('⏸ commander[7] · hel… 110');
    expect(app.frame()).toContain('⏸ commander[8] · hel… 110');

    await app.press('n');
    expect(released).toEqual(['model']);
    expect(gate.held()).toEqual([toolPoint]);
    await app.sync();
    expect(headerOf(app)).toContain('⏸ PAUSED (1 held)');
    expect(app.frame()).toContain('stepped: model commander:analyze[7]');

    await app.press('c');
    expect(released).toEqual(['model', 'tool']);
    expect(gate.isPaused).toBe(false);
    await app.sync();
    expect(headerOf(app)).not.toContain('PAUSED');
  });

  it('drops the "continuing" notice once the run has finished', async () => {
    const { app, gate, bus } = await liveRun();
    await app.press(' ');
    holdTwo(gate);
    await app.press('c');
    expect(app.frame()).toContain('continuing');
    bus.emit({
      type: 'run.finished',
      actor: 'run',
      outcome: 'succeeded',
      exitCode: 0,
      durationMs: 900,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      costPico: '0',
    });
    await app.sync();
    expect(app.frame()).not.toContain('continuing');
    expect(app.frame()).toContain('run finished — q to quit');
  });

  it('resumes with a second space', async () => {
    const { app, gate } = await liveRun();
    await app.press(' ');
    const released = holdTwo(gate);
    await app.press(' ');
    await settle();
    expect(released).toEqual(['model', 'tool']);
    expect(gate.isPaused).toBe(false);
    expect(app.frame()).toContain('resumed');
  });

  it("shows a held tool call's arguments in full in the detail pane", async () => {
    const { app, gate } = await liveRun();
    await app.press(' ');
    holdTwo(gate);
    await app.sync();
    await app.press(...Array.from({ length: 14 }, () => 'j'));
    const frame = app.frame();
    expect(frame).toContain('▸ ⏸ held before tool query_task_output: arguments');
    for (const line of [
      '"task": "fetch",',
      '"field": "forecast",',
      '"op": "eq",',
      '"value": "sunny"',
    ]) {
      expect(frame).toContain(line);
    }
  });

  it("shows a held model request's pending messages", async () => {
    const { app, gate } = await liveRun();
    await app.press(' ');
    holdTwo(gate);
    await app.sync();
    await app.press(...Array.from({ length: 2 }, () => 'j'));
    expect(app.frame()).not.toContain('held before model request');
    await app.press(...Array.from({ length: 11 }, () => 'j'));
    const frame = app.frame();
    expect(frame).toContain('▸ ⏸ held before model request: 0 messages');
    expect(frame).toContain('  model: custom.mystery');
    expect(frame).toContain('  system: (not sent yet)');
    expect(frame).toContain('  running · held before model request · 110 tokens');
  });

  it('toggles breakpoints on the selected actor and on the tool under the cursor, and lists them', async () => {
    const { app, gate } = await liveRun();
    await app.press(...Array.from({ length: 14 }, () => 'j'), 'b');
    expect(gate.list()).toEqual(['actor:commander:analyze[8]']);
    expect(app.frame()).toContain('breakpoint actor:commander:analyze[8] set');

    await app.press(...Array.from({ length: 12 }, () => 'k'), KEYS.tab, 'j', 'j', 'j', 'j');
    expect(app.frame()).toContain('▸ tool call_agent (ok in 80ms)');
    await app.press('b');
    expect(gate.list()).toEqual(['actor:commander:analyze[8]', 'tool:call_agent']);

    await app.press('B');
    expect(app.frame()).toContain('Breakpoints — space/enter/b toggles, a adds, esc closes');
    expect(app.frame()).toContain('▸ [ ] stall   a commander');
    expect(app.frame()).toContain('  [x] actor:commander:analyze[8]');
    await app.press('j', 'j', 'j', 'j', 'j', 'b');
    expect(gate.list()).toEqual(['actor:commander:analyze[8]']);
    expect(app.frame()).toContain('breakpoint tool:call_agent removed');
    await app.press(KEYS.escape);
    expect(app.frame()).not.toContain('Breakpoints —');
  });

  it('turns stall, loop, route and error on and off in the breakpoint list', async () => {
    const { app, gate } = await liveRun();
    await app.press('B');
    const lines = app
      .frame()
      .split('\n')
      .filter((line) => /\[[ x]\]/.test(line))
      .map((line) => line.trimEnd());
    expect(lines).toEqual([
      "▸ [ ] stall   a commander's next step after it stalls",
      "  [ ] loop    an actor's next step after it loops",
      '  [ ] route   before a chosen route takes effect',
      '  [ ] error   before a failed tool result reaches the model',
    ]);
    await app.press(' ', 'j', 'j', KEYS.enter, 'j', 'b');
    expect(gate.list()).toEqual(['stall', 'route', 'error']);
    expect(app.frame()).toContain('  [x] route   before a chosen route takes effect');
    await app.press('k', 'k', 'k', ' ');
    expect(gate.list()).toEqual(['route', 'error']);
    expect(app.frame()).toContain("▸ [ ] stall   a commander's next step after it stalls");
  });

  it('adds cost:, tokens: and tool: breakpoints typed in the list, names a bad one inline, and removes them like the others', async () => {
    const { app, gate } = await liveRun();
    const typedLines = (): string[] => {
      const lines = app.frame().split('\n');
      const at = lines.findIndex((line) => line.startsWith('add: '));
      return lines.slice(at, at + 4).map((line) => line.trimEnd());
    };
    await app.press('B', 'a');
    expect(typedLines().slice(0, 2)).toEqual([
      'add: ▌',
      '  as for --break: cost:0.50, tokens:20000, tool:NAME, actor:ID, model',
    ]);
    await app.press('cost:abc', KEYS.enter);
    expect(gate.list()).toEqual([]);
    expect(typedLines()).toEqual([
      'add: cost:abc▌',
      '✗ bad breakpoint "cost:abc": use tool:NAME (e.g. tool:call_agent), actor:ID (e.g.',
      'actor:commander:analyze), model, route, error, stall, loop, cost:USD (e.g. cost:0.50) or tokens:N',
      '(e.g. tokens:100000)',
    ]);
    await app.press(KEYS.backspace, KEYS.backspace, KEYS.backspace, '0.20', KEYS.enter);
    expect(gate.list()).toEqual(['cost:0.20']);
    expect(app.frame()).toContain('▸ [x] cost:0.20');
    expect(app.frame()).toContain('breakpoint cost:0.20 set');
    expect(app.frame()).not.toContain('add: ');

    await app.press('a', 'tokens:20000', KEYS.enter, 'a', 'tool:web_get', KEYS.enter);
    expect(gate.list()).toEqual(['cost:0.20', 'tokens:20000', 'tool:web_get']);
    expect(app.frame()).toContain('▸ [x] tool:web_get');
    await app.press('a', ' cost:0.20 ', KEYS.enter);
    expect(typedLines()[1]).toBe('✗ cost:0.20 is already set (space on its row removes it)');
    expect(gate.list()).toEqual(['cost:0.20', 'tokens:20000', 'tool:web_get']);
    // esc leaves the line without adding, and the list's keys act again.
    await app.press(KEYS.escape);
    expect(app.frame()).toContain('Breakpoints — space/enter/b toggles, a adds, esc closes');
    expect(app.frame()).not.toContain('add: ');
    await app.press('k', ' ');
    expect(gate.list()).toEqual(['cost:0.20', 'tool:web_get']);
    expect(app.frame()).toContain('breakpoint tokens:20000 removed');
  });

  it('holds a point at a breakpoint set from the tree', async () => {
    const { app, gate } = await liveRun();
    await app.press(...Array.from({ length: 14 }, () => 'j'), 'b');
    const released = holdTwo(gate);
    // The model point matches no breakpoint and goes on; the tool point of the actor is held.
    expect(gate.held()).toEqual([toolPoint]);
    await app.sync();
    expect(released).toEqual(['model']);
    expect(headerOf(app)).toContain('⏸ PAUSED (1 held)');
    expect(app.frame()).toContain('▸ ⏸ held before tool query_task_output: arguments');
  });
});
