import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/base/errors.ts';
import { isAbortError } from '../../src/base/abort.ts';
import type { EventInput, MissionEvent } from '../../src/base/events.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import {
  breakpointMatches,
  DebugGate,
  formatBreakpoint,
  openGate,
  parseBreakpoint,
  type GateNotice,
  type GatePoint,
} from '../../src/runtime/gate.ts';

const model = (actor: string): GatePoint => ({ kind: 'model', actor, detail: 'models.main.fast' });
const tool = (actor: string, name: string): GatePoint => ({
  kind: 'tool',
  actor,
  tool: name,
  detail: '{}',
});

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `before` and records when the point passes. */
function track(gate: DebugGate, point: GatePoint, log: string[], signal?: AbortSignal) {
  return gate.before(point, signal).then(() => void log.push(`${point.actor} ${point.kind}`));
}

function describeNotice(notice: GateNotice): string {
  if (notice.type === 'breakpoints.changed') {
    return `${notice.set ? 'set' : 'removed'} ${notice.breakpoint}: [${notice.breakpoints.join(', ')}]`;
  }
  return notice.type === 'gate.paused'
    ? `paused ${notice.point.actor} (${notice.reason}${notice.breakpoint ? ` ${notice.breakpoint}` : ''})`
    : `resumed ${notice.point.actor} (${notice.how})`;
}

describe('openGate', () => {
  it('lets every point through at once', async () => {
    await expect(openGate.before(model('commander:a'))).resolves.toBeUndefined();
  });
});

describe('parseBreakpoint', () => {
  it('parses tool, actor and model breakpoints', () => {
    expect(parseBreakpoint('tool:call_agent')).toEqual({ kind: 'tool', tool: 'call_agent' });
    expect(parseBreakpoint('tool:builtins.http.get')).toEqual({
      kind: 'tool',
      tool: 'builtins_http_get',
    });
    expect(parseBreakpoint('actor:commander:analyze[3]')).toEqual({
      kind: 'actor',
      actor: 'commander:analyze[3]',
    });
    expect(parseBreakpoint(' model ')).toEqual({ kind: 'model' });
  });

  it('parses the breakpoints on signals and spend, and writes them back in one form', () => {
    expect(parseBreakpoint('stall')).toEqual({ kind: 'signal', signal: 'stall' });
    expect(parseBreakpoint('loop')).toEqual({ kind: 'signal', signal: 'loop' });
    expect(parseBreakpoint('cost:0.50')).toEqual({
      kind: 'cost',
      dollars: '0.50',
      pico: 500_000_000_000n,
    });
    expect(parseBreakpoint('cost:$2')).toMatchObject({ dollars: '2.00', pico: 2_000_000_000_000n });
    expect(parseBreakpoint('tokens:100000')).toEqual({ kind: 'tokens', tokens: 100_000 });
    for (const spec of ['stall', 'loop', 'cost:0.50', 'tokens:100000']) {
      expect(formatBreakpoint(parseBreakpoint(spec))).toBe(spec);
    }
    // One spend line, one breakpoint, however its dollars were typed.
    const typed = ['cost:0.2', 'cost:0.200', 'cost:$0.20', 'cost:00.2', 'cost:0.125', 'cost:3'];
    expect(typed.map((spec) => formatBreakpoint(parseBreakpoint(spec)))).toEqual([
      'cost:0.20',
      'cost:0.20',
      'cost:0.20',
      'cost:0.20',
      'cost:0.125',
      'cost:3.00',
    ]);
  });

  it('takes a spend line typed another way as the same breakpoint', () => {
    const gate = new DebugGate({ breakpoints: ['cost:0.20'] });
    expect(gate.toggleBreakpoint('cost:0.2')).toBe(false);
    expect(gate.toggleBreakpoint('cost:0.2')).toBe(true);
    expect(gate.toggleBreakpoint('cost:0.200')).toBe(false);
  });

  it('parses route and error, and writes them back as given', () => {
    expect(parseBreakpoint(' route ')).toEqual({ kind: 'route' });
    expect(parseBreakpoint('error')).toEqual({ kind: 'error' });
    expect(formatBreakpoint(parseBreakpoint('route'))).toBe('route');
    expect(formatBreakpoint(parseBreakpoint('error'))).toBe('error');
  });

  it('rejects anything else with the accepted forms', () => {
    for (const spec of [
      'tool:',
      'actor:',
      'foo',
      'model:x',
      'actor:a b',
      'tools:x',
      'cost:',
      'cost:0',
      'cost:-1',
      'cost:abc',
      'tokens:0',
      'tokens:1.5',
      'stall:x',
      'route:a',
      'error:x',
    ]) {
      let caught: unknown;
      try {
        parseBreakpoint(spec);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UsageError);
      expect((caught as UsageError).message).toBe(`bad breakpoint "${spec}"`);
      expect((caught as UsageError).hint).toBe(
        'use tool:NAME (e.g. tool:call_agent), actor:ID (e.g. actor:commander:analyze), model, route, error, stall, loop, cost:USD (e.g. cost:0.50) or tokens:N (e.g. tokens:100000)',
      );
    }
  });
});

describe('breakpointMatches', () => {
  it('matches an actor id and the ids nested under it, not other names', () => {
    const breakpoint = parseBreakpoint('actor:commander:analyze');
    expect(breakpointMatches(breakpoint, model('commander:analyze'))).toBe(true);
    expect(breakpointMatches(breakpoint, model('commander:analyze[3]'))).toBe(true);
    expect(breakpointMatches(breakpoint, model('commander:analyzer'))).toBe(false);
    expect(breakpointMatches(breakpoint, model('agent:analyze/researcher'))).toBe(false);
    const agents = parseBreakpoint('actor:agent:analyze[3]');
    expect(breakpointMatches(agents, tool('agent:analyze[3]/researcher', 'x'))).toBe(true);
    expect(breakpointMatches(agents, tool('agent:analyze[30]/researcher', 'x'))).toBe(false);
  });

  it('matches tools by name and model points by kind', () => {
    expect(breakpointMatches(parseBreakpoint('tool:x'), tool('a', 'x'))).toBe(true);
    expect(breakpointMatches(parseBreakpoint('tool:x'), tool('a', 'y'))).toBe(false);
    expect(breakpointMatches(parseBreakpoint('tool:x'), model('a'))).toBe(false);
    expect(breakpointMatches(parseBreakpoint('model'), model('a'))).toBe(true);
    expect(breakpointMatches(parseBreakpoint('model'), tool('a', 'x'))).toBe(false);
  });
});

describe('route and error points', () => {
  const route = (actor: string): GatePoint => ({
    kind: 'route',
    actor,
    detail: 'urgent → task escalate (when: the ticket is urgent)',
  });
  const failed = (actor: string, name: string): GatePoint => ({
    kind: 'error',
    actor,
    tool: name,
    detail: '{"error":"no such file"}',
  });

  it('are matched only by their own kind, not by actor:ID, tool:NAME or model', () => {
    expect(breakpointMatches(parseBreakpoint('route'), route('commander:a'))).toBe(true);
    expect(breakpointMatches(parseBreakpoint('route'), model('commander:a'))).toBe(false);
    expect(breakpointMatches(parseBreakpoint('route'), failed('commander:a', 'x'))).toBe(false);
    expect(breakpointMatches(parseBreakpoint('error'), failed('agent:a/w', 'file_read'))).toBe(
      true,
    );
    expect(breakpointMatches(parseBreakpoint('error'), tool('agent:a/w', 'file_read'))).toBe(false);
    expect(breakpointMatches(parseBreakpoint('actor:commander:a'), route('commander:a'))).toBe(
      false,
    );
    expect(breakpointMatches(parseBreakpoint('tool:file_read'), failed('a', 'file_read'))).toBe(
      false,
    );
  });

  it('pass a paused gate unless their breakpoint is set, then hold it naming the breakpoint', async () => {
    const notices: string[] = [];
    const stepping = new DebugGate({
      startPaused: true,
      onNotice: (notice) => notices.push(describeNotice(notice)),
    });
    await stepping.before(route('commander:a'));
    await stepping.before(failed('commander:a', 'call_agent'));
    expect(notices).toEqual([]);

    const gate = new DebugGate({
      breakpoints: ['route', 'error'],
      onNotice: (notice) => notices.push(describeNotice(notice)),
    });
    const log: string[] = [];
    const routeHeld = track(gate, route('commander:a'), log);
    const errorHeld = track(gate, failed('agent:b/w', 'file_read'), log);
    await flush();
    expect(log).toEqual([]);
    expect(gate.held()).toEqual([route('commander:a'), failed('agent:b/w', 'file_read')]);
    expect(gate.step()).toEqual(route('commander:a'));
    gate.continue();
    await Promise.all([routeHeld, errorHeld]);
    expect(log).toEqual(['commander:a route', 'agent:b/w error']);
    expect(notices).toEqual([
      'paused commander:a (breakpoint route)',
      'paused agent:b/w (breakpoint error)',
      'resumed commander:a (step)',
      'resumed agent:b/w (continue)',
    ]);
  });

  it('leave a signal breakpoint armed for the next model or tool point', async () => {
    const notices: GateNotice[] = [];
    const gate = new DebugGate({
      breakpoints: ['loop'],
      onNotice: (notice) => notices.push(notice),
    });
    const raised: MissionEvent = {
      type: 'signal.raised',
      actor: 'commander:a',
      signal: 'loop',
      count: 3,
      message: 'looping',
      seq: 1,
      runId: 'r',
      time: new Date(0).toISOString(),
    };
    gate.observe(raised);
    await gate.before(failed('commander:a', 'get_subtasks'));
    const held = gate.before(model('commander:a'));
    expect(notices).toMatchObject([{ type: 'gate.paused', breakpoint: 'loop' }]);
    gate.continue();
    await held;
  });
});

describe('DebugGate', () => {
  it('lets points through while running with no breakpoint hit', async () => {
    const notices: GateNotice[] = [];
    const gate = new DebugGate({ onNotice: (notice) => notices.push(notice) });
    await gate.before(model('commander:a'));
    expect(notices).toEqual([]);
    expect(gate.isPaused).toBe(false);
  });

  it('holds the first point with --step and steps several held actors oldest first', async () => {
    const notices: string[] = [];
    const gate = new DebugGate({
      startPaused: true,
      onNotice: (notice) => notices.push(describeNotice(notice)),
    });
    const log: string[] = [];
    const passes = [
      track(gate, model('commander:a[0]'), log),
      track(gate, model('commander:a[1]'), log),
      track(gate, tool('agent:b/writer', 'file_read'), log),
    ];
    await flush();
    expect(log).toEqual([]);
    expect(gate.held().map((point) => point.actor)).toEqual([
      'commander:a[0]',
      'commander:a[1]',
      'agent:b/writer',
    ]);

    expect(gate.step()).toEqual(model('commander:a[0]'));
    await flush();
    expect(log).toEqual(['commander:a[0] model']);
    expect(gate.held().map((point) => point.actor)).toEqual(['commander:a[1]', 'agent:b/writer']);

    // The stepped actor comes back to the gate and queues behind the others.
    passes.push(track(gate, tool('commander:a[0]', 'call_agent'), log));
    await flush();
    expect(gate.step()?.actor).toBe('commander:a[1]');
    await flush();
    expect(log).toEqual(['commander:a[0] model', 'commander:a[1] model']);
    expect(gate.held().map((point) => point.actor)).toEqual(['agent:b/writer', 'commander:a[0]']);

    gate.continue();
    await Promise.all(passes);
    expect(log).toEqual([
      'commander:a[0] model',
      'commander:a[1] model',
      'agent:b/writer tool',
      'commander:a[0] tool',
    ]);
    expect(gate.held()).toEqual([]);
    expect(gate.isPaused).toBe(false);
    expect(notices).toEqual([
      'paused commander:a[0] (paused)',
      'paused commander:a[1] (paused)',
      'paused agent:b/writer (paused)',
      'resumed commander:a[0] (step)',
      'paused commander:a[0] (paused)',
      'resumed commander:a[1] (step)',
      'resumed agent:b/writer (continue)',
      'resumed commander:a[0] (continue)',
    ]);
    await gate.before(model('commander:c'));
  });

  it('pauses everything when a breakpoint is hit and runs to the next one on continue', async () => {
    const notices: string[] = [];
    const gate = new DebugGate({
      breakpoints: ['tool:call_agent'],
      onNotice: (notice) => notices.push(describeNotice(notice)),
    });
    const log: string[] = [];
    await track(gate, tool('commander:a', 'set_subtasks'), log);
    const hit = track(gate, tool('commander:a', 'call_agent'), log);
    const other = track(gate, model('commander:b'), log);
    await flush();
    expect(log).toEqual(['commander:a tool']);
    expect(gate.isPaused).toBe(true);
    gate.continue();
    await Promise.all([hit, other]);
    expect(log).toEqual(['commander:a tool', 'commander:a tool', 'commander:b model']);
    expect(notices).toEqual([
      'paused commander:a (breakpoint tool:call_agent)',
      'paused commander:b (paused)',
      'resumed commander:a (continue)',
      'resumed commander:b (continue)',
    ]);
    const again = track(gate, tool('commander:b', 'call_agent'), log);
    await flush();
    expect(gate.held()).toEqual([tool('commander:b', 'call_agent')]);
    gate.continue();
    await again;
  });

  it('pauses on request, and step with nothing held only keeps it paused', async () => {
    const gate = new DebugGate();
    expect(gate.step()).toBeUndefined();
    expect(gate.isPaused).toBe(true);
    gate.continue();
    gate.pause();
    const log: string[] = [];
    const pass = track(gate, model('commander:a'), log);
    await flush();
    expect(log).toEqual([]);
    gate.step();
    await pass;
    expect(log).toEqual(['commander:a model']);
  });

  it('toggles breakpoints, lists them in the order they were set and tells each change', () => {
    const notices: string[] = [];
    const gate = new DebugGate({
      breakpoints: ['model', 'tool:builtins.http.get'],
      onNotice: (notice) => notices.push(describeNotice(notice)),
    });
    expect(gate.list()).toEqual(['model', 'tool:builtins_http_get']);
    expect(gate.toggleBreakpoint('actor:commander:a')).toBe(true);
    expect(gate.toggleBreakpoint('tool:builtins_http_get')).toBe(false);
    expect(gate.list()).toEqual(['model', 'actor:commander:a']);
    expect(() => gate.toggleBreakpoint('nonsense')).toThrow(UsageError);
    expect(notices).toEqual([
      'set actor:commander:a: [model, tool:builtins_http_get, actor:commander:a]',
      'removed tool:builtins_http_get: [model, actor:commander:a]',
    ]);
    expect(() => new DebugGate({ breakpoints: ['tool:'] })).toThrow('bad breakpoint "tool:"');
  });

  it('rejects a held point with an AbortError when its signal aborts', async () => {
    const notices: string[] = [];
    const gate = new DebugGate({
      startPaused: true,
      onNotice: (notice) => notices.push(describeNotice(notice)),
    });
    const controller = new AbortController();
    const log: string[] = [];
    const aborted = track(gate, model('commander:a'), log, controller.signal);
    const waiting = track(gate, model('commander:b'), log);
    await flush();
    controller.abort();
    await expect(aborted).rejects.toSatisfy(isAbortError);
    expect(gate.held().map((point) => point.actor)).toEqual(['commander:b']);
    expect(gate.step()?.actor).toBe('commander:b');
    await waiting;
    expect(log).toEqual(['commander:b model']);
    expect(notices).toEqual([
      'paused commander:a (paused)',
      'paused commander:b (paused)',
      'resumed commander:a (aborted)',
      'resumed commander:b (step)',
    ]);
    await expect(gate.before(model('commander:c'), controller.signal)).rejects.toSatisfy(
      isAbortError,
    );
    expect(gate.held()).toEqual([]);
  });

  it('keeps working when a listener throws or is removed', async () => {
    const gate = new DebugGate({
      startPaused: true,
      onNotice: () => {
        throw new Error('broken TUI');
      },
    });
    const seen: string[] = [];
    const stop = gate.onNotice((notice) => seen.push(notice.type));
    const pass = gate.before(model('commander:a'));
    gate.step();
    await pass;
    stop();
    const next = gate.before(model('commander:a'));
    gate.continue();
    await next;
    expect(seen).toEqual(['gate.paused', 'gate.resumed']);
  });
});

describe('breakpoints on signals and spend', () => {
  /** The gate's notices and a bus that feeds the gate, as a run wires them. */
  function armedGate(breakpoints: string[]): {
    gate: DebugGate;
    bus: EventBus;
    notices: GateNotice[];
  } {
    const notices: GateNotice[] = [];
    const gate = new DebugGate({ breakpoints, onNotice: (notice) => notices.push(notice) });
    const bus = new EventBus({ runId: 'r', now: () => new Date(0) });
    bus.subscribe((event) => gate.observe(event));
    return { gate, bus, notices };
  }

  const response = (actor: string, costPico: string, input: number): EventInput => ({
    type: 'model.response',
    actor,
    requestId: 'q',
    model: { provider: 'openai', config: 'main', key: 'fast', apiName: 'fast' },
    message: { role: 'assistant', parts: [] },
    usage: { input, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    costPico,
    unpriced: false,
    stopReason: 'end',
    durationMs: 1,
  });

  it('holds the next point of the actor that raised the signal, once, naming the breakpoint', async () => {
    const { gate, bus, notices } = armedGate(['stall']);
    await gate.before(model('commander:a'));
    bus.emit({
      type: 'signal.raised',
      actor: 'commander:a',
      signal: 'loop',
      count: 3,
      message: 'looping',
    });
    await gate.before(model('commander:a'));
    bus.emit({
      type: 'signal.raised',
      actor: 'commander:a',
      signal: 'stall',
      count: 6,
      message: 'stalled',
    });
    // Another actor goes on; the one that stalled waits at its next point.
    await gate.before(model('commander:b'));
    const held = gate.before(tool('commander:a', 'call_agent'));
    expect(gate.held()).toEqual([tool('commander:a', 'call_agent')]);
    expect(notices.at(-1)).toMatchObject({
      type: 'gate.paused',
      reason: 'breakpoint',
      breakpoint: 'stall',
    });
    gate.continue();
    await held;
    await gate.before(model('commander:a'));
    expect(gate.held()).toEqual([]);
  });

  it("holds any actor's next point once the run's spend crosses cost:USD or tokens:N", async () => {
    const { gate, bus, notices } = armedGate(['cost:0.50', 'tokens:1000']);
    bus.emit(response('agent:a/x', '300000000000', 100));
    await gate.before(model('agent:a/x'));
    bus.emit(response('agent:a/x', '300000000000', 100));
    const held = gate.before(model('commander:a'));
    expect(notices.at(-1)).toMatchObject({ breakpoint: 'cost:0.50' });
    gate.continue();
    await held;
    // Crossed once: more spend does not hold again.
    bus.emit(response('agent:a/x', '300000000000', 100));
    await gate.before(model('commander:a'));
    bus.emit(response('agent:a/x', '0', 800));
    const second = gate.before(tool('agent:a/x', 'web_get'));
    expect(notices.at(-1)).toMatchObject({ breakpoint: 'tokens:1000' });
    gate.continue();
    await second;
  });

  it('counts what a resumed run spent before, and forgets a breakpoint removed after arming', async () => {
    const { gate, bus } = armedGate(['tokens:500']);
    bus.emit({
      type: 'run.started',
      actor: 'run',
      mission: 'm',
      resumed: true,
      before: {
        requests: 3,
        usage: { input: 450, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        costPico: '0',
        unpriced: false,
        durationMs: 1,
        models: [],
      },
    });
    bus.emit(response('agent:a/x', '0', 60));
    gate.toggleBreakpoint('tokens:500');
    await gate.before(model('agent:a/x'));
    expect(gate.held()).toEqual([]);
  });

  it('holds the next point at once when a spend line set while running is already crossed, and again once set anew', async () => {
    const { gate, bus, notices } = armedGate([]);
    bus.emit(response('agent:a/x', '300000000000', 100));
    await gate.before(model('agent:a/x'));
    // Set from the TUI's list after the spend passed $0.20: no further spend is needed.
    expect(gate.toggleBreakpoint('cost:0.20')).toBe(true);
    const held = gate.before(tool('agent:a/x', 'web_get'));
    expect(gate.held()).toEqual([tool('agent:a/x', 'web_get')]);
    expect(notices.at(-1)).toMatchObject({ reason: 'breakpoint', breakpoint: 'cost:0.20' });
    gate.continue();
    await held;
    await gate.before(model('agent:a/x'));
    expect(gate.held()).toEqual([]);
    // Removed and set again, it holds again.
    expect(gate.toggleBreakpoint('cost:0.20')).toBe(false);
    expect(gate.toggleBreakpoint('cost:0.20')).toBe(true);
    const again = gate.before(model('commander:a'));
    expect(gate.held()).toEqual([model('commander:a')]);
    gate.continue();
    await again;
  });
});
