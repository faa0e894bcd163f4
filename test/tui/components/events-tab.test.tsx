/** The Events tab keeps parallel items' actors apart when it has to shorten them. */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { EventsTab } from '../../../src/tui/components/EventsTab.tsx';
import type { EventLine } from '../../../src/tui/store/index.ts';

const ORIGIN = '2026-01-01T00:00:00.000Z';

function line(seq: number, actor: string): EventLine {
  return {
    seq,
    time: '2026-01-01T00:00:01.500Z',
    actor,
    type: 'model.request',
    text: 'model main.fast',
  };
}

describe('EventsTab', () => {
  it('shortens the actors of parallel items so that each keeps its item number', () => {
    const lines = [0, 1, 2].map((index) => line(index + 1, `agent:forecast[${index}]/forecaster`));
    const shown = render(
      <EventsTab
        lines={lines}
        start={null}
        selected={null}
        height={3}
        width={100}
        filter=""
        editing={false}
        origin={ORIGIN}
      />,
    );
    expect(shown.lastFrame()?.split('\n')).toEqual([
      ' 1 00:01.5 agent:foreca…[0]/forecas… model.request model main.fast',
      ' 2 00:01.5 agent:foreca…[1]/forecas… model.request model main.fast',
      ' 3 00:01.5 agent:foreca…[2]/forecas… model.request model main.fast',
    ]);
    shown.unmount();
  });
});
