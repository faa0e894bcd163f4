import { describe, expect, it } from 'vitest';
import {
  applyViewCommand,
  INITIAL_VIEW,
  type ViewFacts,
  type ViewState,
} from '../../../src/tui/view/view-state.ts';

/** The Events tab of ten events (seqs 11–20) in a body of four lines. */
const facts: ViewFacts = {
  rows: [],
  detailBlockCount: 0,
  listLength: 10,
  eventSeqs: [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
  bodyHeight: 4,
  breakpointCount: 0,
  helpLength: 0,
  itemRows: [],
};
const events: ViewState = { ...INITIAL_VIEW, tab: 'events' };

function press(view: ViewState, ...commands: Parameters<typeof applyViewCommand>[1][]) {
  return commands.reduce(
    (current, command) => applyViewCommand(current, command, facts, null),
    view,
  );
}

describe('the Events tab cursor', () => {
  it('starts on the newest event and moves over the lines, the window following it', () => {
    expect(events.eventsSelected).toBeNull();
    const first = press(events, 'moveUp');
    expect([first.eventsSelected, first.eventsStart]).toEqual([20, 6]);
    const fourUp = press(first, 'moveUp', 'moveUp', 'moveUp', 'moveUp');
    expect([fourUp.eventsSelected, fourUp.eventsStart]).toEqual([16, 5]);
    const down = press(fourUp, 'moveDown');
    expect([down.eventsSelected, down.eventsStart]).toEqual([17, 5]);
    expect(press(events, 'moveDown').eventsSelected).toBe(20);
  });

  it('stops at the first and the last event, and pages by a screen less a line', () => {
    const top = press(events, 'pageUp', 'pageUp', 'pageUp', 'pageUp', 'moveUp');
    expect([top.eventsSelected, top.eventsStart]).toEqual([11, 0]);
    const paged = press(top, 'pageDown');
    expect([paged.eventsSelected, paged.eventsStart]).toEqual([14, 0]);
    const bottom = press(paged, 'pageDown', 'pageDown', 'pageDown', 'moveDown');
    expect([bottom.eventsSelected, bottom.eventsStart]).toEqual([20, 6]);
  });

  it('starts again from the newest event once a filter is applied or cleared', () => {
    const selected = press(events, 'moveUp', 'moveUp');
    expect(selected.eventsSelected).toBe(19);
    const filtered = press({ ...selected, overlay: 'filter', filter: 'tool' }, 'filterApply');
    expect([filtered.eventsSelected, filtered.eventsStart]).toEqual([null, null]);
    const cleared = press({ ...selected, overlay: 'filter' }, 'filterCancel');
    expect(cleared.eventsSelected).toBeNull();
  });

  it('leaves the tree and detail selection alone', () => {
    const moved = press(events, 'moveUp');
    expect([moved.selected, moved.detailCursor]).toEqual([null, 0]);
  });
});
