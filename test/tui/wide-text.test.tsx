/**
 * Wide characters on an 80×24 screen: every line fits the terminal in columns (a CJK character
 * or an emoji takes two), table columns line up, and text wraps between words.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { textWidth } from '../../src/present/columns.ts';
import { mountApp, type Mounted } from './app-harness.tsx';
import { wideEvents } from './wide-text.ts';

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

async function mount(): Promise<Mounted> {
  mounted = await mountApp({ events: wideEvents(), columns: 80, rows: 24 });
  return mounted;
}

/** The frame line holding `text`. */
function lineWith(frame: string, text: string): string {
  return frame.split('\n').find((line) => line.includes(text)) ?? '';
}

function widths(frame: string): number[] {
  return frame.split('\n').map(textWidth);
}

describe('wide characters at 80×24', () => {
  it('keeps every line of the Costs tab within 80 columns, its columns aligned', async () => {
    const app = await mount();
    await app.press('2');
    const frame = app.frame();
    expect(frame).toContain('per model');
    expect(Math.max(...widths(frame))).toBeLessThanOrEqual(80);
    expect(frame.split('\n').length).toBeLessThanOrEqual(24);
    // Every row with figures ends its dollars column in the same terminal column.
    const rows = frame.split('\n').filter((line) => /\$\d/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(7);
    expect(new Set(rows.map((line) => textWidth(line.trimEnd())))).toHaveLength(1);
    expect(frame).toMatch(/^調査 +1 +1,204 /m);
  });

  it('keeps the tree and the detail pane within 80 columns, the divider in one column', async () => {
    const app = await mount();
    await app.press('j', 'j');
    const frame = app.frame();
    expect(frame).toContain('▸ ● commander:調査');
    expect(frame).toContain('東京の天気は晴れ🌞');
    expect(Math.max(...widths(frame))).toBeLessThanOrEqual(80);
    const divider = frame
      .split('\n')
      .filter((line) => line.includes('│'))
      .map((line) => textWidth(line.slice(0, line.indexOf('│'))));
    expect(divider.length).toBeGreaterThan(10);
    expect(new Set(divider)).toHaveLength(1);
    // Each tree row keeps its figures on its own line.
    expect(lineWith(frame, '▾ ● mission 天気')).toMatch(/ 2,482 \$0\.0247│/);
    expect(lineWith(frame, '▾ ● 調査')).toMatch(/ 1,241 \$0\.0123│/);
    // Right of the divider: a title (two columns in) or a body line (four in), never text
    // that the terminal wrapped back to the edge.
    for (const line of frame.split('\n').filter((candidate) => candidate.includes('│'))) {
      expect(line.slice(line.indexOf('│') + 1)).toMatch(/^( ▸ \S| {3}\S| {5}\S| *$)/);
    }
  });

  it('wraps the detail pane between words', async () => {
    const app = await mount();
    await app.press('j', 'j', 'j', 'j', 'j');
    const frame = app.frame();
    expect(frame).toContain('▸ ● commander:report');
    expect(frame).toContain('complete_subtask.');
    expect(frame).toContain('in 1 message.');
  });

  it('keeps every line of the Events tab within 80 columns', async () => {
    const app = await mount();
    await app.press('3');
    const frame = app.frame();
    expect(frame).toMatch(
      /^ 11 00:01\.0 agent:調査\/天気🌞 tool\.called +→ builtins_http_get https:\/\/ex/m,
    );
    expect(Math.max(...widths(frame))).toBeLessThanOrEqual(80);
  });
});
