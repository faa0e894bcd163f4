/**
 * The TUI under a 1,000-actor run (and the frame at 5,000 actors): time from a store update to the written frame, and from a
 * key press to the frame that shows its effect while events keep streaming in. Prints Markdown
 * on stdout (see bench/run.ts). `tsx bench/tui.ts`; `tsx bench/tui.ts items` runs only the item
 * table's cases (10,000 items).
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

/** The table's items as the bench's events stamp them: at the end of the last event of the run. */
function stamped(input: EventInput, seq: number): MissionEvent {
  return { ...input, seq, runId: 'bench', time: new Date().toISOString() } as MissionEvent;
}

/** Mounts the app on one iterated task of `items` running items, the item table open. */
async function openTable(items: number) {
  const run = bigRun(1, items, 0);
  const store = createTuiStore({ intervalMs: 0 });
  for (const event of run.events) store.dispatch(event);
  store.flush();
  const mounted = mount(store);
  await tick();
  const opened = nextWrite(mounted.stdout, (frame) => frame.includes('items of task0'));
  mounted.stdin.type('5');
  await opened;
  return { store, ...mounted };
}

/** Wall and this process's CPU time, per sample. */
interface Timed {
  wall: number[];
  cpu: number[];
}

/** Dispatches `events`, flushes, and records the time to the written frame (wall and CPU). */
async function batchFrame(
  store: TuiStore,
  stdout: BenchStdout,
  events: MissionEvent[],
  into: Timed | undefined,
): Promise<void> {
  for (const event of events) store.dispatch(event);
  const written = nextWrite(stdout);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  store.flush();
  const ended = await written;
  const used = process.cpuUsage(cpuBefore);
  into?.wall.push(ended - started);
  into?.cpu.push((used.user + used.system) / 1000);
  await tick();
}

/** The item table open on one task of `items` items: item update → frame, and `pgdn` → frame. */
async function itemTableTimes(items: number): Promise<{ update: Timed; page: number[] }> {
  const { store, stdout, stdin, instance } = await openTable(items);
  // Each update changes one item's turns, tokens and cost: its row is derived again.
  const update: Timed = { wall: [], cpu: [] };
  for (let sample = 0; sample < SAMPLES + 10; sample++) {
    const index = (sample * 7919) % items;
    const event = stamped(response(`commander:task0[${index}]`), 1e6 + sample);
    await batchFrame(store, stdout, [event], sample >= 10 ? update : undefined);
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

/**
 * Items a parallel task finishes per 50 ms batch of the store: bench/runtime.ts measures
 * ≈ 1,700 items/s for a 10,000-item parallel task, 85 items in each batch.
 */
const PARALLEL_BATCH_ITEMS = 85;

/**
 * The item table on `items` items sorted by tokens, largest first, while a parallel task's
 * batches arrive: in each, 85 items get a model response (tokens, cost) and succeed (status,
 * output, duration), so their rows change and move. Batch → frame.
 */
async function parallelTableTimes(items: number): Promise<Timed> {
  const { store, stdout, stdin, instance } = await openTable(items);
  for (const key of ['s', 's', 's', 's', 'S']) {
    const written = nextWrite(stdout);
    stdin.type(key);
    await written;
  }
  const times: Timed = { wall: [], cpu: [] };
  let seq = 2e6;
  for (let sample = 0; sample < SAMPLES + 10; sample++) {
    const events: MissionEvent[] = [];
    for (let offset = 0; offset < PARALLEL_BATCH_ITEMS; offset++) {
      const index = (sample * PARALLEL_BATCH_ITEMS + offset) % items;
      const actor = `commander:task0[${index}]`;
      events.push(stamped(response(actor), seq++));
      events.push(
        stamped(
          {
            type: 'iteration.succeeded',
            actor,
            task: 'task0',
            index,
            itemId: `row-${index}`,
            attempt: 1,
            output: `row ${index} done`,
            durationMs: 40 + (index % 900),
          },
          seq++,
        ),
      );
    }
    await batchFrame(store, stdout, events, sample >= 10 ? times : undefined);
  }
  instance.unmount();
  return times;
}

/** Only the item table's cases with `tsx bench/tui.ts items`. */
async function itemsOnly(): Promise<void> {
  const table = await itemTableTimes(10_000);
  const parallel = await parallelTableTimes(10_000);
  process.stdout.write(
    [
      '### tui.ts items — the item table on 10,000 items (Ink, 120×40, debug writes)',
      '',
      `load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}; CPU: this process's user + system time over the same span`,
      '',
      '| measure | median | p95 | CPU median | CPU p95 | target |',
      '|---|---|---|---|---|---|',
      ...itemLines(table, parallel),
      '',
    ].join('\n'),
  );
}

const format = (ms: number): string => `${ms.toFixed(2)} ms`;

/** Median, p95, CPU median and CPU p95 cells of a row. */
function figures(timed: Timed): string {
  const { wall, cpu } = timed;
  return [median(wall), percentile(wall, 0.95), median(cpu), percentile(cpu, 0.95)]
    .map(format)
    .join(' | ');
}

/** The item table's rows of the report. */
function itemLines(table: { update: Timed; page: number[] }, parallel: Timed): string[] {
  const page = `${format(median(table.page))} | ${format(percentile(table.page, 0.95))} | | `;
  return [
    `| item table open on 10,000 items: an item's update → frame | ${figures(table.update)} | ≤ 33 ms |`,
    `| item table open on 10,000 items: \`pgdn\` → frame | ${page} | ≤ 33 ms |`,
    `| item table on 10,000 items sorted by tokens: a parallel task's batch (${PARALLEL_BATCH_ITEMS} items answered and succeeded) → frame | ${figures(parallel)} | ≤ 33 ms |`,
  ];
}

async function main(): Promise<void> {
  const small = await frameTimes(1, 2, 2);
  const large = await frameTimes(TASKS, ITEMS, AGENTS);
  const huge = await frameTimes(TASKS, ITEMS * 5, AGENTS);
  const keys = await keyLatencies();
  const table = await itemTableTimes(10_000);
  const parallel = await parallelTableTimes(10_000);
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
      ...itemLines(table, parallel),
      '',
    ].join('\n'),
  );
}

await (process.argv[2] === 'items' ? itemsOnly() : main());
