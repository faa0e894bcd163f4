import { describe, expect, it } from 'vitest';
import { applyEvents, initialState } from '../../../src/tui/store/index.ts';
import { filterEvents } from '../../../src/tui/view/event-filter.ts';
import { fixtureEvents } from '../fixture.ts';

const log = applyEvents(initialState(), fixtureEvents()).log;
const kinds = (filter: string) =>
  filterEvents(log, filter).map((line) => `${line.actor} ${line.type}`);

describe('filterEvents', () => {
  it('keeps everything for an empty filter', () => {
    expect(filterEvents(log, '  ')).toHaveLength(log.length);
  });

  it('narrows by type and actor, every word having to match', () => {
    expect(kinds('type=tool actor=agent')).toEqual([
      'agent:fetch/researcher tool.called',
      'agent:fetch/researcher tool.completed',
    ]);
    expect(kinds('TYPE=task.s')).toEqual([
      'task:fetch task.started',
      'task:fetch task.succeeded',
      'task:analyze task.started',
    ]);
  });

  it('matches a bare word against actor or type', () => {
    expect(kinds('plan')).toEqual(['commander:fetch plan.updated']);
    expect(kinds('researcher')).toHaveLength(4);
  });
});
