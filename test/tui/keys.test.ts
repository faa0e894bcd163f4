import { describe, expect, it } from 'vitest';
import { footerLines } from '../../src/tui/components/Footer.tsx';
import { bindingsFor, commandFor, type PressedKey } from '../../src/tui/key-match.ts';
import { KEY_TABLE, type KeyContext } from '../../src/tui/keys.ts';

const none: PressedKey = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  return: false,
  escape: false,
  tab: false,
  backspace: false,
  delete: false,
  pageUp: false,
  pageDown: false,
  ctrl: false,
};
const live: KeyContext = { mode: 'live', pane: 'tree', overlay: 'none', finished: false };
const replay: KeyContext = { mode: 'replay', pane: 'tree', overlay: 'none', finished: false };

describe('commandFor', () => {
  it('gives f and e to forking in the Events tab and the detail pane only, in every mode', () => {
    for (const context of [live, replay, { ...live, finished: true }]) {
      for (const pane of ['events', 'detail'] as const) {
        expect(commandFor('f', none, { ...context, pane })).toBe('fork');
        expect(commandFor('e', none, { ...context, pane })).toBe('editFork');
      }
      for (const pane of ['tree', 'costs', 'outputs'] as const) {
        expect(commandFor('f', none, { ...context, pane })).toBeUndefined();
        expect(commandFor('e', none, { ...context, pane })).toBeUndefined();
      }
    }
  });

  it("plays a replay to its end with G, in every pane (e is the fork's edit)", () => {
    for (const pane of ['tree', 'detail', 'events', 'costs', 'outputs'] as const) {
      expect(commandFor('G', none, { ...replay, pane })).toBe('replayEnd');
    }
    expect(commandFor('G', none, live)).toBeUndefined();
  });

  it('maps arrows and j/k to moves, enter/→ to expand, ← to collapse', () => {
    expect(commandFor('', { ...none, upArrow: true }, live)).toBe('moveUp');
    expect(commandFor('k', none, live)).toBe('moveUp');
    expect(commandFor('j', none, live)).toBe('moveDown');
    expect(commandFor('', { ...none, return: true }, live)).toBe('expand');
    expect(commandFor('', { ...none, rightArrow: true }, live)).toBe('expand');
    expect(commandFor('', { ...none, leftArrow: true }, live)).toBe('collapse');
    expect(commandFor('', { ...none, tab: true }, live)).toBe('nextPane');
  });

  it('gives space and n to the gate in a live run and to the player in a replay', () => {
    expect(commandFor(' ', none, live)).toBe('pauseResume');
    expect(commandFor('n', none, live)).toBe('step');
    expect(commandFor(' ', none, replay)).toBe('replayPauseResume');
    expect(commandFor('n', none, replay)).toBe('replayStep');
    expect(commandFor('+', none, replay)).toBe('replayFaster');
    expect(commandFor('+', none, live)).toBeUndefined();
    expect(commandFor('b', none, replay)).toBeUndefined();
  });

  it('tells c from ctrl-c', () => {
    expect(commandFor('c', none, live)).toBe('continue');
    expect(commandFor('c', { ...none, ctrl: true }, live)).toBe('cancel');
  });

  it('scopes keys to the focused pane and to open overlays', () => {
    expect(commandFor('/', none, live)).toBeUndefined();
    expect(commandFor('/', none, { ...live, pane: 'events' })).toBe('filter');
    expect(commandFor('b', none, { ...live, pane: 'costs' })).toBeUndefined();
    const confirm: KeyContext = { ...live, overlay: 'confirm' };
    expect(commandFor('y', none, confirm)).toBe('confirmYes');
    expect(commandFor('n', none, confirm)).toBe('confirmNo');
    expect(commandFor('q', none, confirm)).toBeUndefined();
    expect(commandFor('q', none, { ...live, overlay: 'help' })).toBe('closeOverlay');
    expect(commandFor('j', none, { ...live, overlay: 'filter' })).toBeUndefined();
  });

  it('binds every command the table names to at least one key', () => {
    for (const binding of KEY_TABLE) expect(binding.keys.length).toBeGreaterThan(0);
  });
});

describe('footer', () => {
  it('lists exactly the bindings of the focused pane', () => {
    const commands = bindingsFor({ ...live, pane: 'costs' }).map((binding) => binding.command);
    expect(commands).toEqual([
      'moveUp',
      'moveDown',
      'pageUp',
      'pageDown',
      'tabTree',
      'tabCosts',
      'tabEvents',
      'tabOutputs',
      'tabItems',
      'pauseResume',
      'step',
      'continue',
      'listBreakpoints',
      'help',
      'quit',
      'cancel',
      'answer',
      'budgetOpen',
    ]);
  });

  it('shows the most important keys in two lines of 80 columns, ? for the rest', () => {
    expect(footerLines(live, 80)).toEqual([
      'enter/→ expand  tab pane  1 tree  2 costs  3 events  4 outputs  space pause',
      'n step  c continue  ? all keys  q quit',
    ]);
    expect(footerLines({ ...live, pane: 'costs' }, 80)).toEqual([
      '1 tree  2 costs  3 events  4 outputs  space pause  n step  c continue',
      '? all keys  q quit',
    ]);
  });

  it('offers a answer in the footer only while a question waits (the help always lists it)', () => {
    expect(footerLines({ ...live, asking: true }, 80)).toEqual([
      'enter/→ expand  tab pane  1 tree  2 costs  3 events  4 outputs  space pause',
      'n step  c continue  ? all keys  q quit  a answer',
    ]);
    expect(footerLines({ ...live, asking: false }, 80).join('  ')).not.toContain('answer');
    expect(bindingsFor(live).map((binding) => binding.command)).toContain('answer');
  });

  it('shows every key of an open overlay', () => {
    expect(footerLines({ ...live, overlay: 'help' }, 80)).toEqual([
      '↑/k up  ↓/j down  pgup page up  pgdn page down  ? all keys  ctrl-c cancel',
      'esc/q close',
    ]);
  });

  it("shows the budget prompt's keys while it is open; digits are left to its amount line", () => {
    const prompt: KeyContext = { ...live, overlay: 'budget' };
    expect(footerLines(prompt, 80)).toEqual([
      'ctrl-c cancel  + +50%  * ×2  enter raise  backspace erase  n no raise  esc later',
    ]);
    expect(commandFor('2', none, prompt)).toBeUndefined();
    expect(commandFor('$', none, live)).toBe('budgetOpen');
    expect(commandFor('$', none, { ...replay })).toBeUndefined();
  });

  it("opens the breakpoint list's typed line with a, where letters are left to the line", () => {
    const list: KeyContext = { ...live, overlay: 'breakpoints' };
    const line: KeyContext = { ...live, overlay: 'breakpointAdd' };
    expect(commandFor('a', none, list)).toBe('breakpointAdd');
    expect(commandFor('a', none, { ...replay, overlay: 'breakpoints' })).toBeUndefined();
    for (const typed of ['a', 'b', 'c', 'q', 'j', ' ', ':']) {
      expect(commandFor(typed, none, line)).toBeUndefined();
    }
    expect(commandFor('', { ...none, return: true }, line)).toBe('breakpointAddSubmit');
    expect(footerLines(line, 80)).toEqual(['ctrl-c cancel  enter add  backspace erase  esc back']);
  });

  it('shows only the keys that still act once the run has finished', () => {
    const finished = { ...live, finished: true };
    expect(footerLines(finished, 80)).toEqual([
      'enter/→ expand  tab pane  1 tree  2 costs  3 events  4 outputs  ? all keys',
      'q quit',
    ]);
    const commands = bindingsFor(finished).map((binding) => binding.command);
    expect(commands).not.toContain('pauseResume');
    expect(commands).not.toContain('step');
    expect(commands).not.toContain('toggleBreakpoint');
    expect(commands).not.toContain('cancel');
    expect(commands).not.toContain('answer');
    expect(commandFor(' ', none, finished)).toBeUndefined();
    expect(commandFor('c', { ...none, ctrl: true }, finished)).toBe('quit');
    expect(commandFor('c', { ...none, ctrl: true }, live)).toBe('cancel');
  });

  it('shows the replay keys only in replay mode', () => {
    expect(footerLines({ ...replay, pane: 'events' }, 200)[0]).toContain(
      'space pause  n next event  +/= faster  - slower  G to end  f fork  e edit+fork',
    );
    expect(footerLines({ ...live, pane: 'events' }, 200)[0]).not.toContain('next event');
  });
});
