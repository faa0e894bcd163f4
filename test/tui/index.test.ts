import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { renderTui } from '../../src/tui/index.ts';
import { settle } from './app-harness.tsx';
import { fixtureEvents } from './fixture.ts';

/** A terminal-like output stream that records what is written. */
class FakeStdout extends EventEmitter {
  readonly columns = 100;
  readonly rows = 30;
  readonly isTTY = true;
  written = '';
  write(chunk: string): boolean {
    this.written += chunk;
    return true;
  }
}

/** A terminal-like input stream the test types into. */
class FakeStdin extends EventEmitter {
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

function source(events: MissionEvent[]) {
  let subscribed = 0;
  let unsubscribed = 0;
  const subscribe = (listener: (event: MissionEvent) => void) => {
    subscribed++;
    for (const event of events) listener(event);
    return () => {
      unsubscribed++;
    };
  };
  return { subscribe, counts: () => ({ subscribed, unsubscribed }) };
}

function start(events: MissionEvent[], cancel: () => void = () => undefined) {
  const stdout = new FakeStdout();
  const stdin = new FakeStdin();
  const feed = source(events);
  const handle = renderTui({
    subscribe: feed.subscribe,
    cancel,
    title: 'sortie test',
    patchConsole: false,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
  });
  return { handle, stdout, stdin, feed };
}

describe('renderTui', () => {
  it('renders the events it subscribes to and leaves on q once the run has finished', async () => {
    const { handle, stdout, stdin, feed } = start(fixtureEvents(true));
    // The store publishes on a timer; wait for the frame rather than for a fixed time.
    while (!stdout.written.includes('mission:research failed')) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(stdout.written).toContain('sortie test · mission research · run run-1');
    expect(stdout.written).toContain('mission:research failed · 2 tasks · 4,240 tokens · $0.0012*');
    let exited = false;
    const waiting = handle.waitUntilExit().then(() => {
      exited = true;
    });
    stdin.type('q');
    await waiting;
    expect(exited).toBe(true);
    expect(feed.counts()).toEqual({ subscribed: 1, unsubscribed: 1 });
  });

  it('cancels a running mission only after the person confirms', async () => {
    let cancelled = 0;
    const { handle, stdin, feed } = start(fixtureEvents(false), () => cancelled++);
    await settle();
    stdin.type('q');
    await settle();
    expect(cancelled).toBe(0);
    stdin.type('y');
    await handle.waitUntilExit();
    expect(cancelled).toBe(1);
    expect(feed.counts().unsubscribed).toBe(1);
  });

  it('unsubscribes when unmounted by the caller', async () => {
    const { handle, feed } = start([]);
    await settle();
    handle.unmount();
    await handle.waitUntilExit();
    expect(feed.counts()).toEqual({ subscribed: 1, unsubscribed: 1 });
  });
});
