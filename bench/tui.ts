/**
 * The TUI under a 1,000-actor run (and the frame at 5,000 actors): time from a store update to the written frame, and from a
 * key press to the frame that shows its effect while events keep streaming in. Prints Markdown
 * on stdout (see bench/run.ts). `tsx bench/tui.ts`.
 */
import { EventEmitter } from 'node:events';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { render } from 'ink';
import { createElement } from 'react';
import { EventBus } from '../src/runtime/event-bus.ts';
import type { EventInput, MissionEvent } from '../src/base/events.ts';
import { App } from '../src/tui/app.tsx';
import { createTuiStore, treeRows, type TuiStore } from '../src/tui/store/index.ts';

const TASKS = 20;
const ITEMS = 10;
const AGENTS = 4;
const SAMPLES = 60;

class BenchStdout extends EventEmitter {
  readonly columns = 120;
  readonly rows = 40;
  readonly isTTY = true;
  lastFrame = '';
  onWrite: (() => void) | undefined;
  write(chunk: string): boolean {
    this.lastFrame = chunk;
    this.onWrite?.();
    return true;
  }
}

class BenchStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
  read(): string | null {
    const data = this.data;
    this.data = null;
    return data;
  }
  type(data: string): void {
    this.data = data;
    this.emit('readable');
  }
}

const model = { provider: 'openai' as const, config: 'main', key: 'fast', apiName: 'gpt' };
const usage = { input: 900, output: 120, cacheRead: 300, cacheWrite: 0, reasoning: 0 };

function response(actor: string): EventInput {
  return {
    type: 'model.response',
    actor,
    requestId: actor,
    model,
    message: { role: 'assistant', parts: [{ type: 'text', text: 'ok' }] },
    usage,
    costPico: '1500000000',
    unpriced: false,
    stopReason: 'end',
    durationMs: 40,
  };
}

/** A run with TASKS iterated tasks × ITEMS commanders × AGENTS agents, all mid-flight. */
function bigRun(
  tasks: number,
  items: number,
  agents: number,
): { events: MissionEvent[]; actors: string[] } {
  const bus = new EventBus({ runId: 'bench' });
  const events: MissionEvent[] = [];
  const actors: string[] = [];
  bus.subscribe((event) => events.push(event));
  bus.emit({ type: 'run.started', actor: 'run', mission: 'bench', resumed: false });
  bus.emit({
    type: 'mission.started',
    actor: 'mission:bench',
    mission: 'bench',
    inputs: {},
    chainedFrom: null,
  });
  for (let task = 0; task < tasks; task++) {
    const name = `task${task}`;
    bus.emit({
      type: 'task.started',
      actor: `task:${name}`,
      task: name,
      activatedBy: null,
      iterated: true,
    });
    bus.emit({
      type: 'dataset.locked',
      actor: `cursor:${name}`,
      dataset: 'rows',
      task: name,
      count: items,
    });
    for (let index = 0; index < items; index++) {
      bus.emit({
        type: 'iteration.started',
        actor: `cursor:${name}`,
        task: name,
        index,
        itemId: `row-${index}`,
        attempt: 1,
      });
      bus.emit(response(`commander:${name}[${index}]`));
      for (let agent = 0; agent < agents; agent++) {
        const actor = `agent:${name}[${index}]/worker${agent}`;
        actors.push(actor);
        bus.emit(response(actor));
        bus.emit({
          type: 'tool.called',
          actor,
          callId: `${actor}-1`,
          tool: 'builtins_http_get',
          arguments: '{"url":"http://127.0.0.1/"}',
        });
      }
    }
  }
  return { events, actors };
}

function mount(store: TuiStore) {
  const stdout = new BenchStdout();
  const stdin = new BenchStdin();
  const instance = render(createElement(App, { store, cancel: () => undefined }), {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    // Debug mode writes every frame at once, unthrottled: the write marks the frame's end.
    debug: true,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  return { stdout, stdin, instance };
}

function nextWrite(
  stdout: BenchStdout,
  until: (frame: string) => boolean = () => true,
): Promise<number> {
  return new Promise((resolve) => {
    stdout.onWrite = () => {
      if (!until(stdout.lastFrame)) return;
      stdout.onWrite = undefined;
      resolve(performance.now());
    };
  });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}

/** Store update → written frame, for a run of the given shape. */
async function frameTimes(
  tasks: number,
  items: number,
  agents: number,
): Promise<{ actors: number; times: number[]; cpu: number[] }> {
  const run = bigRun(tasks, items, agents);
  const store = createTuiStore({ intervalMs: 0 });
  for (const event of run.events) store.dispatch(event);
  store.flush();
  const { stdout, instance } = mount(store);
  await tick();
  const times: number[] = [];
  // CPU of this process from the update to the frame: what a loaded machine inflates least.
  const cpu: number[] = [];
  for (let sample = 0; sample < SAMPLES + 10; sample++) {
    const actor = run.actors[(sample * 7919) % run.actors.length] ?? 'agent:task0[0]/worker0';
    store.dispatch({
      ...run.events[run.events.length - 1]!,
      seq: 1e6 + sample,
      type: 'tool.called',
      actor,
      callId: `x${sample}`,
      tool: 'query_task_output',
      arguments: '{}',
    } as MissionEvent);
    const written = nextWrite(stdout);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    store.flush();
    const ended = await written;
    const used = process.cpuUsage(cpuBefore);
    if (sample >= 10) {
      times.push(ended - started);
      cpu.push((used.user + used.system) / 1000);
    }
    await tick();
  }
  const actors = store.getState().actors.size;
  instance.unmount();
  return { actors, times, cpu };
}

/** Key press → the frame showing the new selection, while events stream in every 2 ms. */
async function keyLatencies(): Promise<number[]> {
  const run = bigRun(TASKS, ITEMS, AGENTS);
  const store = createTuiStore();
  for (const event of run.events) store.dispatch(event);
  store.flush();
  const { stdout, stdin, instance } = mount(store);
  await tick();
  let sequence = 2e6;
  const load = setInterval(() => {
    const actor = run.actors[sequence % run.actors.length] ?? '';
    store.dispatch({
      ...run.events[0]!,
      seq: sequence++,
      type: 'model.delta',
      actor,
      requestId: actor,
      text: 'streamed text ',
    } as MissionEvent);
  }, 2);
  const rows = treeRows(store.getState().children, new Set());
  const times: number[] = [];
  for (let press = 0; press < SAMPLES; press++) {
    const expected = rows[press + 1]?.id ?? '';
    const shown = nextWrite(stdout, (frame) => frame.includes(`▸ ● ${expected}`));
    const started = performance.now();
    stdin.type('j');
    times.push((await shown) - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  clearInterval(load);
  instance.unmount();
  return times;
}

/** The item table open on one task of `items` items: item update → frame, and `pgdn` → frame. */
async function itemTableTimes(items: number): Promise<{ update: number[]; page: number[] }> {
  const run = bigRun(1, items, 0);
  const store = createTuiStore({ intervalMs: 0 });
  for (const event of run.events) store.dispatch(event);
  store.flush();
  const { stdout, stdin, instance } = mount(store);
  await tick();
  const opened = nextWrite(stdout, (frame) => frame.includes('items of task0'));
  stdin.type('5');
  await opened;
  // Each update changes one item's turns, tokens and cost: the rows are rebuilt and re-sorted.
  const update: number[] = [];
  for (let sample = 0; sample < SAMPLES + 10; sample++) {
    const index = (sample * 7919) % items;
    store.dispatch({
      ...response(`commander:task0[${index}]`),
      seq: 1e6 + sample,
      runId: 'bench',
      time: new Date().toISOString(),
    } as MissionEvent);
    const written = nextWrite(stdout);
    const started = performance.now();
    store.flush();
    const ended = await written;
    if (sample >= 10) update.push(ended - started);
    await tick();
  }
  const page: number[] = [];
  for (let press = 0; press < SAMPLES; press++) {
    const written = nextWrite(stdout);
    const started = performance.now();
    stdin.type('\u001b[6~');
    page.push((await written) - started);
    await tick();
  }
  instance.unmount();
  return { update, page };
}

async function main(): Promise<void> {
  const small = await frameTimes(1, 2, 2);
  const large = await frameTimes(TASKS, ITEMS, AGENTS);
  const huge = await frameTimes(TASKS, ITEMS * 5, AGENTS);
  const keys = await keyLatencies();
  const table = await itemTableTimes(10_000);
  const format = (ms: number): string => `${ms.toFixed(2)} ms`;
  process.stdout.write(
    [
      '### tui.ts — TUI frame and key latency (Ink, 120×40, debug writes)',
      '',
      `load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}; CPU: this process's user + system time over the same span`,
      '',
      '| measure | median | p95 | CPU median | CPU p95 | target |',
      '|---|---|---|---|---|---|',
      `| store update → frame, ${small.actors} actors | ${format(median(small.times))} | ${format(percentile(small.times, 0.95))} | ${format(median(small.cpu))} | ${format(percentile(small.cpu, 0.95))} | |`,
      `| store update → frame, ${large.actors} actors | ${format(median(large.times))} | ${format(percentile(large.times, 0.95))} | ${format(median(large.cpu))} | ${format(percentile(large.cpu, 0.95))} | ≤ 16 ms |`,
      `| store update → frame, ${huge.actors} actors | ${format(median(huge.times))} | ${format(percentile(huge.times, 0.95))} | ${format(median(huge.cpu))} | ${format(percentile(huge.cpu, 0.95))} | ≤ 33 ms |`,
      `| key \`j\` → frame with the new selection, ${large.actors} actors, an event every 2 ms | ${format(median(keys))} | ${format(percentile(keys, 0.95))} | | | ≤ 100 ms |`,
      `| item table open on 10,000 items: an item's update → frame (rows rebuilt and sorted) | ${format(median(table.update))} | ${format(percentile(table.update, 0.95))} | | | ≤ 33 ms |`,
      `| item table open on 10,000 items: \`pgdn\` → frame | ${format(median(table.page))} | ${format(percentile(table.page, 0.95))} | | | ≤ 33 ms |`,
      '',
    ].join('\n'),
  );
}

await main();
