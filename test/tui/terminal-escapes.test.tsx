/**
 * Issue 25 item 3: control characters in events (an agent's answer, a mission name, an
 * input) reach the TUI's store escaped and its frames show them visibly, never raw.
 */
/* eslint-disable no-control-regex -- these tests look for control characters on purpose */
import { afterEach, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { createTuiStore } from '../../src/tui/store/index.ts';
import { mountApp, type Mounted } from './app-harness.tsx';
import { AGENT_TEXT, wideEvents } from './wide-text.ts';

const HOSTILE = 'PWN\u001b]0;TITLE\u0007\u001b[31mRED';
const SHOWN = 'PWN\\x1b]0;TITLE\\x07\\x1b[31mRED';

/** The wide run with its agent's answer and every `天気` carrying escapes. */
function hostileEvents(): MissionEvent[] {
  const text = JSON.stringify(wideEvents())
    .replaceAll(AGENT_TEXT, JSON.stringify(HOSTILE).slice(1, -1))
    .replaceAll('天気', JSON.stringify(HOSTILE).slice(1, -1));
  return JSON.parse(text) as MissionEvent[];
}

/** Ink's own colours (SGR) stripped: what is left must hold no control character. */
function contentOf(frame: string): string {
  return frame.replace(/\u001b\[[0-9;]*m/g, '');
}

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

describe('control characters in the TUI', () => {
  it('are escaped in the store', () => {
    const store = createTuiStore();
    for (const event of hostileEvents()) store.dispatch(event);
    store.flush();
    const state = JSON.stringify(store.getState(), (_key, value: unknown) =>
      typeof value === 'bigint' ? String(value) : value,
    );
    expect(state).not.toContain('\\u001b');
    expect(state).not.toContain('\\u0007');
    expect(state).toContain(JSON.stringify(SHOWN).slice(1, -1));
  });

  it('show escaped in every tab', async () => {
    mounted = await mountApp({ events: hostileEvents(), columns: 120, rows: 40 });
    const frames: string[] = [mounted.frame()];
    for (const key of ['2', '3', '4', '1']) {
      await mounted.press(key);
      frames.push(mounted.frame());
    }
    for (const frame of frames) {
      expect(contentOf(frame)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    }
    expect(frames.some((frame) => frame.includes('PWN\\x1b]0;TITLE'))).toBe(true);
  });
});
