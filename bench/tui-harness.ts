/**
 * What the TUI benchmarks share: a fake terminal that marks each written frame, a run of many
 * iterated items mid-flight, the app mounted on a store, and the figures' statistics.
 */
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { render } from 'ink';
import { createElement } from 'react';
import { EventBus } from '../src/runtime/event-bus.ts';
import type { EventInput, MissionEvent } from '../src/base/events.ts';
import { App } from '../src/tui/app.tsx';
import type { TuiStore } from '../src/tui/store/index.ts';

/** Frames measured per case (after 10 to warm up). */
export const SAMPLES = 60;

/** A 120×40 terminal that keeps the last frame and reports each write. */
export class BenchStdout extends EventEmitter {
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

/** A terminal input the bench types keys into. */
export class BenchStdin extends EventEmitter {
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

/** A model response of `actor` (1,320 tokens, $0.0015). */
export function response(actor: string): EventInput {
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
export function bigRun(
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

/** The app on `store`, writing whole frames to a bench terminal. */
export function mount(store: TuiStore) {
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

/** The time of the next written frame for which `until` holds. */
export function nextWrite(
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

/** One turn of the event loop. */
export const tick = () => new Promise((resolve) => setImmediate(resolve));

/** The median of `values`. */
export function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The value below which `share` of `values` fall. */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}
