import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEYS, mountApp, type Mounted } from './app-harness.tsx';
import type { MissionEvent } from '../../src/base/events.ts';
import { fixtureEvents, testBus } from './fixture.ts';

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

async function mount(options: Parameters<typeof mountApp>[0] = {}): Promise<Mounted> {
  mounted = await mountApp({ events: fixtureEvents(), ...options });
  return mounted;
}

/** The frame line holding `text`. */
function lineWith(frame: string, text: string): string {
  return frame.split('\n').find((line) => line.includes(text)) ?? '';
}

describe('App: header, tree and detail', () => {
  it('shows the header and the tree with progress, activity, tokens and cost', async () => {
    const app = await mount();
    const frame = app.frame();
    expect(frame.split('\n')[0]).toBe(
      'sortie · mission research · run run-1 · ● running · 00:10.0 · 4,240 tok · $0.0012*',
    );
    expect(frame.split('\n')[2]).toContain('› ▾ ● mission research');
    expect(lineWith(frame, 'analyze')).toContain('    ▾ ● analyze 7/20 ✓6 ✗1');
    expect(lineWith(frame, 'analyze')).toContain('2,200 $0.0000*');
    expect(lineWith(frame, 'commander[6]')).toContain('✗ commander[6]');
    expect(lineWith(frame, '▾ ✓ fetch')).toContain('2,040 $0.0012');
    expect(lineWith(frame, 'researcher')).toContain('        ✓ researcher');
  });

  it('moves the selection with j/k and arrows and shows the selected actor in the detail pane', async () => {
    const app = await mount();
    await app.press('j', KEYS.down);
    const frame = app.frame();
    expect(frame).toContain('▸ ✓ commander:fetch');
    expect(frame).toContain('[~] Download the page');
    expect(frame).toContain('[ ] Summarise it');
    expect(frame).toContain('system prompt (46 chars)');
    expect(frame).not.toContain('You are commander:fetch');
    expect(frame).toContain('tool call_agent (ok in 80ms)');
    expect(frame).toContain('"forecast": "sunny"');
    expect(lineWith(frame, 'commander  ')).toContain('›     ▾ ✓ commander');
    await app.press('k', KEYS.up);
    expect(app.frame()).toContain('▸ ● mission:research');
    expect(app.frame().split('\n')[2]).toContain('› ▾ ● mission research');
  });

  it('shows text streamed by a request under way', async () => {
    const events = fixtureEvents();
    const app = await mount({
      events: events.slice(0, events.findIndex((event) => event.type === 'model.delta') + 1),
    });
    await app.press('j', 'j');
    expect(app.frame()).toContain('▸ ● commander:fetch');
    expect(app.frame()).toContain('  running · thinking · 0 tokens · $0.0000');
    expect(app.frame()).toContain('  streaming…');
    expect(app.frame()).toContain('    Asking the');
  });

  it('expands the system prompt under the detail cursor', async () => {
    const app = await mount();
    await app.press('j', 'j', KEYS.tab, 'j', 'j');
    expect(app.frame()).toContain('▸ system prompt (46 chars)');
    await app.press(KEYS.enter);
    expect(app.frame()).toContain('You are commander:fetch. Follow the objective.');
    await app.press(KEYS.left);
    expect(app.frame()).not.toContain('You are commander:fetch.');
  });

  it('takes keys typed faster than they are read one by one', async () => {
    const app = await mount();
    await app.press('jjj');
    expect(app.frame()).toContain('▸ ✓ agent:fetch/researcher');
    await app.press('3', '/actor=agent');
    expect(app.frame()).toContain('/ actor=agent▏  (4 events)');
  });

  it('handles each key of one read with what the keys before it did', async () => {
    const app = await mount();
    // Down to fetch's commander, collapse it, expand it with Enter, down to its researcher: a
    // lost Enter, or a `j` on the rows from before the collapse, selects another row.
    await app.press('jj', KEYS.left, `${KEYS.enter}j`);
    expect(lineWith(app.frame(), '✓ researcher')).toMatch(/^› {9}✓ researcher /);
    expect(app.frame()).toContain('▸ ✓ agent:fetch/researcher');
  });

  it('collapses and expands a node of the tree', async () => {
    const app = await mount();
    await app.press('j', 'j', 'j', 'j');
    expect(app.frame()).toContain('commander[17]');
    await app.press(KEYS.left);
    expect(lineWith(app.frame(), '7/20')).toContain('›   ▸ ● analyze 7/20');
    expect(app.frame()).not.toContain('commander[0]');
    await app.press(KEYS.right);
    expect(app.frame()).toContain('commander[0]');
  });

  it('windows the tree to the terminal height', async () => {
    const app = await mount();
    // 30 rows leave 24 for the body; 26 rows exist.
    expect(app.frame()).toContain('commander[17]');
    expect(app.frame()).not.toContain('commander[18]');
    await app.press(...Array.from({ length: 25 }, () => 'j'));
    expect(app.frame()).toContain('commander[19]');
    const lines = app.frame().split('\n');
    expect(lines[2]).toMatch(/^ {6}▾ ✓ commander /);
    expect(lines[25]).toMatch(/^› {7}● commander\[19\] /);
  });
});

describe('App: tabs', () => {
  it('shows the cost tables with unpriced and local models marked', async () => {
    const app = await mount();
    await app.press('2');
    const frame = app.frame();
    expect(lineWith(frame, 'total')).toMatch(
      /^total\s+22\s+3,300\s+500\s+0\s+440\s+0\s+\$0\.0012\*$/,
    );
    expect(lineWith(frame, 'main.fast')).toMatch(
      /^main\.fast\s+1\s+1,000\s+500\s+0\s+200\s+0\s+\$0\.0012$/,
    );
    expect(lineWith(frame, 'local.llama')).toMatch(
      /^local\.llama \(local\)\s+1\s+300\s+0\s+0\s+40\s+0\s+\$0\.0000$/,
    );
    expect(lineWith(frame, 'custom.mystery')).toMatch(
      /^custom\.mystery\s+20\s+2,000\s+0\s+0\s+200\s+0\s+unpriced$/,
    );
    expect(frame).toContain('per task');
  });

  it('shows the event log and filters it by actor and type', async () => {
    const app = await mount();
    await app.press('3');
    expect(app.frame()).toContain('iteration.failed');
    await app.press('/type=tool');
    expect(app.frame()).toContain('/ type=tool▏  (4 events)');
    await app.press(KEYS.enter);
    const frame = app.frame();
    expect(frame).toContain('/ type=tool  (4 events)');
    expect(lineWith(frame, '→ builtins_http_get http:')).toContain('agent:fetch/researcher');
    expect(frame).not.toContain('iteration.failed');
    await app.press('/ actor=agent', KEYS.enter);
    expect(app.frame()).toContain('(2 events)');
    await app.press('/', KEYS.escape);
    expect(app.frame()).not.toContain('/ type=');
  });

  it('takes a filter and its Enter typed in one terminal read', async () => {
    const app = await mount();
    // The `k` after Enter is the Events tab's: the cursor goes to the newest line left.
    await app.press(`3/type=tool${KEYS.enter}k`);
    const frame = app.frame();
    expect(frame).toContain('/ type=tool  (4 events)');
    expect(lineWith(frame, '▸')).toMatch(
      /^▸14 .* commander:fetch +tool\.completed ← call_agent: sunny/,
    );
    expect(frame).not.toContain('iteration.failed');
    expect(frame).not.toContain('type=tool▏');
    expect(frame).not.toContain('type=toolj');
  });

  it('sends an answer and its Enter typed in one terminal read', async () => {
    const replies: string[] = [];
    const bus = testBus();
    const events: MissionEvent[] = [...fixtureEvents()];
    bus.subscribe((event) => events.push(event));
    bus.emit({
      type: 'human.asked',
      actor: 'agent:fetch/researcher',
      callId: 'ask-1',
      question: 'Which region first?',
      choices: [],
      multiSelect: false,
      shortSummary: null,
      additionalContext: null,
      timeoutSeconds: null,
    });
    const app = await mount({
      events,
      human: {
        answer(_actor, _callId, reply) {
          replies.push(reply);
          return undefined;
        },
      },
    });
    await app.press('a');
    await app.press(`eu-west${KEYS.enter}`);
    expect(replies).toEqual(['eu-west']);
    expect(app.frame()).toContain('answered agent:fetch/researcher');
  });

  it('shows outputs per task and per item', async () => {
    const app = await mount();
    await app.press('4');
    const frame = app.frame();
    expect(frame).toContain('✓ fetch');
    expect(frame).toContain('  Fetched the forecast.');
    expect(frame).toContain('    "forecast": "sunny"');
    expect(frame).toContain('  [2] city-2 ✓ {"temperature":22}');
    expect(frame).toContain('  [6] city-6 ✗ no data for city-6');
  });

  it('opens and closes the help overlay', async () => {
    const app = await mount();
    await app.press('?');
    expect(app.frame()).toContain('Keys (live run) 1–23 of 54, ↑/↓ scroll — ? or esc to close');
    expect(app.frame()).toContain(
      'b         tree, detail      toggle a breakpoint on the selected actor or the tool under the cursor',
    );
    await app.press('?');
    expect(app.frame()).not.toContain('Keys (live run)');
    expect(app.frame()).toContain('mission research');
  });
});

describe('App at 80×24', () => {
  it('scrolls the help overlay that is taller than the screen', async () => {
    const app = await mount({ columns: 80, rows: 24 });
    await app.press('?');
    const first = app.frame();
    expect(first).toContain('Keys (live run) 1–17 of 54, ↑/↓ scroll — ? or esc to close');
    expect(first).not.toContain('ctrl-c    anywhere');
    expect(first.split('\n').length).toBeLessThanOrEqual(24);
    await app.press(KEYS.down, 'jjjjjjjjjjjjjjjjjjjjj');
    const last = app.frame();
    expect(last).toContain('Keys (live run) 23–39 of 54, ↑/↓ scroll — ? or esc to close');
    expect(last).toContain('ctrl-c    anywhere          cancel the run (again to leave at once)');
    await app.press('k');
    expect(app.frame()).toContain('Keys (live run) 22–38 of 54');
    // Opened again, it starts at the top.
    await app.press('?', '?');
    expect(app.frame()).toContain('Keys (live run) 1–17 of 54');
  });

  it('keeps in the footer only the keys that still act once the run has finished', async () => {
    const app = await mount({ events: fixtureEvents(true), columns: 80, rows: 24 });
    const lines = app.frame().split('\n');
    expect(lines.slice(-3)).toEqual([
      'run finished — q to quit',
      'enter/→ expand  tab pane  1 tree  2 costs  3 events  4 outputs  ? all keys',
      'q quit',
    ]);
  });
});

describe('App: quitting', () => {
  it('asks before cancelling a running mission', async () => {
    const cancel = vi.fn();
    const app = await mount({ cancel });
    await app.press('q');
    expect(app.frame()).toContain('The mission is still running. Cancel it and quit?');
    await app.press('n');
    expect(app.frame()).not.toContain('Cancel it and quit?');
    expect(cancel).not.toHaveBeenCalled();
    await app.press('q', 'y');
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it('closes the box asking to cancel when the run ends while it is open', async () => {
    const cancel = vi.fn();
    const app = await mount({ cancel });
    await app.press('q');
    expect(app.frame()).toContain('The mission is still running. Cancel it and quit?');
    const ending = fixtureEvents(true).slice(-2);
    for (const event of ending) app.store.dispatch(event);
    await app.sync();
    expect(app.frame()).not.toContain('Cancel it and quit?');
    expect(app.frame()).toContain('run finished — q to quit');
    expect(cancel).not.toHaveBeenCalled();
  });

  it('cancels on ctrl-c and says so', async () => {
    const cancel = vi.fn();
    const app = await mount({ cancel });
    await app.press(KEYS.ctrlC);
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(app.frame()).toContain('cancelling the run… ctrl-c again to leave now');
  });

  it('writes no summary line above the header once the run has finished (renderTui does, after)', async () => {
    const app = await mount({ events: fixtureEvents(true) });
    const frame = app.frame();
    expect(frame.split('\n')[0]).toMatch(/^sortie · mission research · run run-1 · ✗ failed/);
    expect(frame).not.toContain('mission:research failed');
    expect(frame).toContain('run finished — q to quit');
  });
});
