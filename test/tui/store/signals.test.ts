/** Signals as the TUI shows them: a mark on the actor's tree row and what was seen in its detail. */
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/runtime/event-bus.ts';
import type { EventInput, MissionEvent } from '../../../src/base/events.ts';
import { applyEvents, EMPTY_DETAIL, initialState } from '../../../src/tui/store/index.ts';
import { treeRowText } from '../../../src/tui/components/TreeView.tsx';
import { detailBlocks } from '../../../src/tui/view/detail-blocks.ts';

const COMMANDER = 'commander:gather';

function emitted(inputs: EventInput[]): MissionEvent[] {
  const bus = new EventBus({ runId: 'r', now: () => new Date('2026-01-01T00:00:00Z') });
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  for (const input of inputs) bus.emit(input);
  return events;
}

const STALL: EventInput = {
  type: 'signal.raised',
  actor: COMMANDER,
  signal: 'stall',
  count: 6,
  message: 'stalled: 6 model turns without completing a subtask',
};

const LOOP: EventInput = {
  type: 'signal.raised',
  actor: COMMANDER,
  signal: 'loop',
  count: 3,
  message: 'looping: get\u001b[31m_subtasks called 3 times with the same arguments',
  tool: 'get_subtasks',
  arguments: '{}',
};

const WARNING: EventInput = {
  type: 'budget.warning',
  actor: COMMANDER,
  scope: 'task',
  subject: 'gather',
  metric: 'tokens',
  used: 800,
  limit: 1000,
};

describe('signals in the TUI', () => {
  it("marks the actor's tree row with each kind of signal it raised, once", () => {
    const state = applyEvents(initialState(), emitted([STALL, LOOP, STALL, WARNING]));
    const node = state.actors.get(COMMANDER);
    expect(node?.signals.map((signal) => signal.signal)).toEqual([
      'stall',
      'loop',
      'stall',
      'budget',
    ]);
    const row = { id: COMMANDER, depth: 1, hasChildren: false, expanded: false };
    expect(treeRowText(node!, row, false, false, 60).trimEnd()).toBe(
      '      ● commander ⚠ stall loop budget',
    );
  });

  it('lists what each signal saw in the detail pane, control characters escaped', () => {
    const state = applyEvents(initialState(), emitted([STALL, LOOP, WARNING]));
    const node = state.actors.get(COMMANDER)!;
    const detail = state.details.get(COMMANDER) ?? EMPTY_DETAIL;
    const block = detailBlocks(node, detail, []).find((candidate) => candidate.key === 'signals');
    expect(block?.body).toBe(
      [
        '⚠ stalled: 6 model turns without completing a subtask',
        '⚠ looping: get\\x1b[31m_subtasks called 3 times with the same arguments',
        '⚠ budget warning (task gather)',
      ].join('\n'),
    );
  });

  it('an actor without signals has no mark and no block', () => {
    const state = applyEvents(
      initialState(),
      emitted([{ ...STALL, signal: 'stall', actor: 'commander:other' }]),
    );
    const node = state.actors.get('commander:other')!;
    expect(node.signals).toHaveLength(1);
    const quiet = applyEvents(
      initialState(),
      emitted([
        {
          type: 'task.started',
          actor: 'task:gather',
          task: 'gather',
          activatedBy: null,
          iterated: false,
        },
      ]),
    );
    const task = quiet.actors.get('task:gather')!;
    expect(task.signals).toEqual([]);
    expect(
      treeRowText(
        task,
        { id: task.id, depth: 0, hasChildren: false, expanded: false },
        false,
        false,
        40,
      ),
    ).not.toContain('⚠');
  });
});
