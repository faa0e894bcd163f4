/**
 * The TUI under a 1,000-actor run (and the frame at 5,000 actors): time from a store update to the written frame, and from a
 * key press to the frame that shows its effect while events keep streaming in. Prints Markdown
 * on stdout (see bench/run.ts). `tsx bench/tui.ts`; `tsx bench/tui.ts items` runs only the item
 * table's cases (10,000 items).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { MissionEvent } from '../src/base/events.ts';
import { createTuiStore, treeRows } from '../src/tui/store/index.ts';
import { bigRun, median, mount, nextWrite, percentile, SAMPLES, tick } from './tui-harness.ts';
import { format, itemLines, itemTableTimes, parallelTableTimes } from './tui-items.ts';

const TASKS = 20;
const ITEMS = 10;
const AGENTS = 4;

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
