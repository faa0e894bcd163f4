import { EventEmitter } from 'node:events';
import chalk from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { renderTui } from '../../src/tui/index.ts';
import { settle } from './app-harness.tsx';
import { fixtureEvents } from './fixture.ts';
import { until } from '../helpers/until.ts';

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

function start(
  events: MissionEvent[],
  cancel: () => void = () => undefined,
  color: boolean | undefined = undefined,
) {
  const stdout = new FakeStdout();
  const stdin = new FakeStdin();
  const feed = source(events);
  const handle = renderTui({
    subscribe: feed.subscribe,
    cancel,
    title: 'sortie test',
    patchConsole: false,
    ...(color === undefined ? {} : { color }),
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
  });
  return { handle, stdout, stdin, feed };
}

/** Waits until the frame shows `text` (the store publishes on a timer). */
function shown(stdout: FakeStdout, text: string): Promise<void> {
  return until(`"${text}" on screen`, () => stdout.written.includes(text));
}

/** Escape sequences that style text (SGR: colour, bold, dim, inverse), not cursor control. */
// eslint-disable-next-line no-control-regex -- the escape character is what is looked for
const STYLE_ESCAPE = /\u001b\[[\d;]*m/;

const chalkLevel = chalk.level;
afterEach(() => {
  chalk.level = chalkLevel;
});

describe('renderTui', () => {
  it('draws no colour, bold, dim or inverse video with color false (NO_COLOR)', async () => {
    // A colour terminal: chalk would style every Text.
    chalk.level = 3;
    const coloured = start(fixtureEvents(true));
    await shown(coloured.stdout, 'run finished');
    coloured.handle.unmount();
    expect(coloured.stdout.written).toMatch(STYLE_ESCAPE);

    const plain = start(fixtureEvents(true), () => undefined, false);
    await shown(plain.stdout, 'run finished');
    expect(plain.stdout.written).toContain('[1 Tree]');
    // Cursor control is still written (Ink hides the cursor and redraws in place).
    expect(plain.stdout.written).toContain('\u001b[');
    expect(plain.stdout.written).not.toMatch(STYLE_ESCAPE);
    plain.handle.unmount();
    await plain.handle.waitUntilExit();
    // The setting lasts only while the TUI is shown.
    expect(chalk.level).toBe(3);
  });

  it('quits on ctrl-c once the run has finished, cancelling nothing', async () => {
    let cancelled = 0;
    const { handle, stdout, stdin } = start(fixtureEvents(true), () => cancelled++);
    await shown(stdout, 'run finished');
    stdin.type('\u0003');
    await handle.waitUntilExit();
    expect(cancelled).toBe(0);
  });

  it('renders the events it subscribes to and leaves on q once the run has finished', async () => {
    const { handle, stdout, stdin, feed } = start(fixtureEvents(true));
    await shown(stdout, 'run finished');
    expect(stdout.written).toContain('sortie test · mission research · run run-1');
    // The summary line waits for the TUI to leave: written while Ink draws, it pushed the frame.
    expect(stdout.written).not.toContain('mission:research failed');
    let exited = false;
    const waiting = handle.waitUntilExit().then(() => {
      exited = true;
    });
    stdin.type('q');
    await waiting;
    expect(exited).toBe(true);
    // Under the last frame: only cursor control (sync end, show cursor) comes between.
    expect(stdout.written).toMatch(
      // eslint-disable-next-line no-control-regex -- the escape character is what is looked for
      /q quit\n(?:\u001b\[\?\d+[hl])*mission:research failed · 2 tasks · 4,240 tokens · \$0\.0012\*\n$/,
    );
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
