import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { LinesView } from '../../src/tui/components/LinesView.tsx';

describe('LinesView', () => {
  it('keeps a blank separator line as a row of its own', () => {
    const lines = [{ text: 'per task', heading: true }, { text: '' }, { text: 'total  $0.0008' }];
    const { lastFrame, unmount } = render(<LinesView lines={lines} start={0} height={3} />);
    expect(
      lastFrame()
        ?.split('\n')
        .map((row) => row.trimEnd()),
    ).toEqual(['per task', '', 'total  $0.0008']);
    unmount();
  });

  it('shows only the window from start', () => {
    const lines = ['a', 'b', 'c', 'd'].map((text) => ({ text }));
    const { lastFrame, unmount } = render(<LinesView lines={lines} start={1} height={2} />);
    expect(lastFrame()).toBe('b\nc');
    unmount();
  });
});
