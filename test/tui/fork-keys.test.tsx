import { afterEach, describe, expect, it } from 'vitest';
import type { Suspend, TuiForker } from '../../src/tui/hooks/use-fork.ts';
import { KEYS, mountApp, type Mounted } from './app-harness.tsx';
import { fixtureEvents } from './fixture.ts';

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

/** A forker that records what it was asked and answers `answer`. */
function recordingForker(answer: string | null) {
  const asked: Array<{ seq: number; edit: boolean }> = [];
  const forker: TuiForker = {
    prepare(seq: number, edit: boolean, suspend: Suspend) {
      asked.push({ seq, edit: suspend(() => edit) });
      return Promise.resolve(answer);
    },
  };
  return { forker, asked };
}

async function mount(forker?: TuiForker): Promise<Mounted> {
  mounted = await mountApp({ events: fixtureEvents(true), ...(forker ? { forker } : {}) });
  return mounted;
}

const lines = (app: Mounted): string[] => app.frame().split('\n');

describe('forking from the TUI', () => {
  it('shows each event with its seq and moves a cursor over them in the Events tab', async () => {
    const app = await mount();
    await app.press('3');
    const last = fixtureEvents(true)
      .filter((event) => event.type !== 'model.delta')
      .at(-1);
    expect(lines(app).some((line) => line.startsWith(` ${last?.seq} 00:`))).toBe(true);
    expect(app.frame()).not.toContain('▸');
    await app.press('k', 'k');
    const cursor = lines(app).filter((line) => line.startsWith('▸'));
    expect(cursor).toHaveLength(1);
    expect(cursor[0]).toMatch(new RegExp(`^▸${Number(last?.seq) - 1} `));
  });

  it('forks at the event under the cursor with f, and edits it first with e', async () => {
    const { forker, asked } = recordingForker(null);
    const app = await mount(forker);
    await app.press('3', 'k', 'f');
    const last = fixtureEvents(true)
      .filter((event) => event.type !== 'model.delta')
      .at(-1);
    expect(asked).toEqual([{ seq: last?.seq, edit: false }]);
  });

  it('shows what is wrong with a fork in the footer and forks nothing', async () => {
    const { forker, asked } = recordingForker(
      'the edited tool.completed is invalid: /isError: must be boolean; nothing was forked; run the fork again and fix the edit',
    );
    const app = await mount(forker);
    await app.press('3', 'k', 'k', 'e');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.edit).toBe(true);
    expect(app.frame()).toContain(
      'the edited tool.completed is invalid: /isError: must be boolean',
    );
  });

  it('asks for a selection first, in the Events tab and in the detail pane', async () => {
    const { forker, asked } = recordingForker(null);
    const app = await mount(forker);
    await app.press('3', 'f');
    expect(app.frame()).toContain('select an event with ↑/↓ first');
    await app.press('1', KEYS.tab, 'f');
    expect(app.frame()).toContain('select a model reply or a tool result first');
    expect(asked).toEqual([]);
  });

  it("forks at a tool result of the detail pane, whose title shows the result's seq", async () => {
    const { forker, asked } = recordingForker(null);
    const app = await mount(forker);
    const completed = fixtureEvents(true).find(
      (event) => event.type === 'tool.completed' && event.actor === 'commander:fetch',
    );
    await app.press('j', 'j', KEYS.tab);
    let moves = 0;
    while (!app.frame().includes(`▸ tool call_agent`) && moves++ < 12) await app.press('j');
    expect(lines(app).find((line) => line.includes('▸ tool call_agent'))).toContain(
      `· seq ${completed?.seq}`,
    );
    await app.press('f');
    expect(asked).toEqual([{ seq: completed?.seq, edit: false }]);
  });

  it('says so when the run cannot be forked (a journal file outside a state directory)', async () => {
    const app = await mount();
    await app.press('3', 'k', 'f');
    expect(app.frame()).toContain('cannot be forked');
  });
});
