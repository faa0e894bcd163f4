import { describe, expect, it } from 'vitest';
import { headerFacts, type HeaderProps } from '../../../src/tui/components/Header.tsx';
import { initialState } from '../../../src/tui/store/index.ts';

const header = {
  ...initialState().header,
  mission: 'timekeeping',
  runId: '20261122T062519740Z-934039',
  status: 'running' as const,
  startedAt: '2026-11-22T06:25:19.740Z',
  tokens: 4204,
  costPico: 600_000_000n,
};

function props(width: number): HeaderProps {
  return {
    header,
    title: 'sortie · tui',
    now: Date.parse('2026-11-22T06:25:20.940Z'),
    paused: true,
    heldCount: 1,
    replay: null,
    width,
  };
}

describe('headerFacts', () => {
  it('shows everything when it fits', () => {
    expect(headerFacts(props(200), 200)).toBe(
      'sortie · tui · mission timekeeping · run 20261122T062519740Z-934039 · ● running · 00:01.2 · 4,204 tok · $0.0006',
    );
  });

  it('drops the title, then shortens the run id, before it cuts the cost (a paused 120-column header)', () => {
    const room = 120 - ' ⏸ PAUSED (1 held)'.length;
    expect(headerFacts(props(120), room)).toBe(
      'mission timekeeping · run 20261122T062519740Z-934039 · ● running · 00:01.2 · 4,204 tok · $0.0006',
    );
    expect(headerFacts(props(80), 80)).toBe(
      'mission timekeeping · run …934039 · ● running · 00:01.2 · 4,204 tok · $0.0006',
    );
    expect(headerFacts(props(60), 60)).toBe(
      'mission timekeeping · ● running · 00:01.2 · 4,204 tok · $0.…',
    );
  });
});
