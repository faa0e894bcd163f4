/**
 * The item table open on 10,000 items of one iterated task: an item's update, `pgdn`, and a
 * parallel task's update batches, each to the written frame (wall and this process's CPU).
 */
import { performance } from 'node:perf_hooks';
import type { EventInput, MissionEvent } from '../src/base/events.ts';
import { createTuiStore, type TuiStore } from '../src/tui/store/index.ts';
import {
  bigRun,
  median,
  mount,
  nextWrite,
  percentile,
  response,
  SAMPLES,
  tick,
  type BenchStdout,
} from './tui-harness.ts';

/** `input` as the bus would publish it: numbered `seq`, stamped now. */
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
export interface Timed {
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
export async function itemTableTimes(items: number): Promise<{ update: Timed; page: number[] }> {
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
export async function parallelTableTimes(items: number): Promise<Timed> {
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

/** Milliseconds with two decimals. */
export const format = (ms: number): string => `${ms.toFixed(2)} ms`;

/** Median, p95, CPU median and CPU p95 cells of a row. */
function figures(timed: Timed): string {
  const { wall, cpu } = timed;
  return [median(wall), percentile(wall, 0.95), median(cpu), percentile(cpu, 0.95)]
    .map(format)
    .join(' | ');
}

/** The item table's rows of the report. */
export function itemLines(table: { update: Timed; page: number[] }, parallel: Timed): string[] {
  const page = `${format(median(table.page))} | ${format(percentile(table.page, 0.95))} | | `;
  return [
    `| item table open on 10,000 items: an item's update → frame | ${figures(table.update)} | ≤ 33 ms |`,
    `| item table open on 10,000 items: \`pgdn\` → frame | ${page} | ≤ 33 ms |`,
    `| item table on 10,000 items sorted by tokens: a parallel task's batch (${PARALLEL_BATCH_ITEMS} items answered and succeeded) → frame | ${figures(parallel)} | ≤ 33 ms |`,
  ];
}
