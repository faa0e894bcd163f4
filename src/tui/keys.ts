/**
 * THE key table: every command, the keys that trigger it, where it works and what it does.
 * Input handling (`commandFor`) and the footer and help text (`bindingsFor`, `keyLabel`, in
 * key-match.ts) are all derived from it, so what the screen promises is what the keys do.
 */

/** The panes keys can be scoped to. */
export type Pane = 'tree' | 'detail' | 'costs' | 'events' | 'outputs' | 'items';
/** Modal layers that take the keys while open. */
export type Overlay =
  | 'none'
  | 'help'
  | 'confirm'
  | 'filter'
  | 'breakpoints'
  /** The breakpoint list's line where a spec is typed (`cost:0.50`, `tool:web_get`). */
  | 'breakpointAdd'
  | 'answer'
  | 'budget';
/** Where a binding works: everywhere outside overlays, one pane, or one overlay. */
export type Scope = 'global' | Pane | Exclude<Overlay, 'none'>;
/** A live run of this process (with a gate), a journal replay, or a served run attached to. */
export type Mode = 'live' | 'replay' | 'attached';

/** A named key as Ink reports it. */
export type SpecialKey =
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'return'
  | 'escape'
  | 'tab'
  | 'backspace'
  | 'pageUp'
  | 'pageDown';

/** One key: a typed character, or a named key, optionally with Ctrl. */
export interface KeyChord {
  input?: string;
  special?: SpecialKey;
  ctrl?: boolean;
}

/** One row of the table; `command` is one of `Command`, which the table itself defines. */
interface KeyRow {
  command: string;
  keys: readonly KeyChord[];
  /** Shown in the footer: two or three words. */
  short: string;
  /** Shown in the help overlay. */
  help: string;
  scopes: readonly Scope[];
  /** Omitted: every mode. */
  modes?: readonly Mode[];
  /**
   * Shown in the footer outside overlays (the rest are behind `?`); `'asking'`: only while a
   * question to the person waits.
   */
  footer?: boolean | 'asking';
  /** Only while the run is running, or only once it has finished; omitted: both. */
  when?: 'running' | 'finished';
}

const LISTS: readonly Scope[] = ['tree', 'detail', 'costs', 'events', 'outputs', 'items'];
/** Where a run is running: its gate and its questions can be acted on. */
const RUN_MODES: readonly Mode[] = ['live', 'attached'];
/** Where leaving ends what is shown: a run of this process (cancelled), a replay. */
const OWN_MODES: readonly Mode[] = ['live', 'replay'];
/** Rows that share where and when they work: each row gets the shared fields. */
function sharing<const Shared extends Partial<KeyRow>, const Row extends Partial<KeyRow>>(
  shared: Shared,
  rows: readonly Row[],
): (Shared & Row)[] {
  return rows.map((row) => ({ ...shared, ...row }));
}

/** Every scope, overlays included: ctrl-c works everywhere. */
const EVERYWHERE: readonly Scope[] = [
  'global',
  'help',
  'confirm',
  'filter',
  'breakpoints',
  'breakpointAdd',
  'answer',
  'budget',
];

const ROWS = [
  {
    command: 'moveUp',
    keys: [{ special: 'up' }, { input: 'k' }],
    short: 'up',
    help: 'move the selection up (scroll in tables and this help)',
    scopes: [...LISTS, 'breakpoints', 'help'],
  },
  {
    command: 'moveDown',
    keys: [{ special: 'down' }, { input: 'j' }],
    short: 'down',
    help: 'move the selection down (scroll in tables and this help)',
    scopes: [...LISTS, 'breakpoints', 'help'],
  },
  {
    command: 'pageUp',
    keys: [{ special: 'pageUp' }],
    short: 'page up',
    help: 'move a screen up',
    scopes: [...LISTS, 'help'],
  },
  {
    command: 'pageDown',
    keys: [{ special: 'pageDown' }],
    short: 'page down',
    help: 'move a screen down',
    scopes: [...LISTS, 'help'],
  },
  {
    command: 'expand',
    keys: [{ special: 'return' }, { special: 'right' }],
    short: 'expand',
    help: 'expand the node, or the block under the cursor',
    scopes: ['tree', 'detail'],
    footer: true,
  },
  {
    command: 'collapse',
    keys: [{ special: 'left' }],
    short: 'collapse',
    help: 'collapse the node, or the block under the cursor',
    scopes: ['tree', 'detail'],
  },
  {
    command: 'nextPane',
    keys: [{ special: 'tab' }],
    short: 'pane',
    help: 'switch between the tree and the detail pane',
    scopes: ['tree', 'detail'],
    footer: true,
  },
  ...sharing({ scopes: ['global'], footer: true }, [
    {
      command: 'tabTree',
      keys: [{ input: '1' }],
      short: 'tree',
      help: 'show the actor tree',
    },
    {
      command: 'tabCosts',
      keys: [{ input: '2' }],
      short: 'costs',
      help: 'show the cost tables',
    },
    {
      command: 'tabEvents',
      keys: [{ input: '3' }],
      short: 'events',
      help: 'show the event log',
    },
    {
      command: 'tabOutputs',
      keys: [{ input: '4' }],
      short: 'outputs',
      help: 'show task and item outputs',
    },
  ]),
  {
    command: 'tabItems',
    keys: [{ input: '5' }],
    short: 'items',
    help: 'show the item table of the selected (or first) iterated task',
    scopes: ['global'],
  },
  {
    command: 'filter',
    keys: [{ input: '/' }],
    short: 'filter',
    help: 'filter events by actor and type (words; actor= and type= narrow)',
    scopes: ['events'],
    footer: true,
  },
  ...sharing({ scopes: ['items'] }, [
    {
      command: 'filter',
      keys: [{ input: '/' }],
      short: 'filter',
      help: 'filter items by words of their index, status, output or error',
      footer: true,
    },
    {
      command: 'itemSort',
      keys: [{ input: 's' }],
      short: 'sort',
      help: 'sort the item table by the next column',
      footer: true,
    },
    {
      command: 'itemReverse',
      keys: [{ input: 'S' }],
      short: 'reverse',
      help: "reverse the item table's order",
    },
    {
      command: 'itemStatus',
      keys: [{ input: 't' }],
      short: 'status',
      help: 'show only running, succeeded or failed items (again: the next; then all)',
      footer: true,
    },
    {
      command: 'openItem',
      keys: [{ special: 'return' }],
      short: 'open',
      help: "select the item's commander in the tree",
      footer: true,
    },
  ]),
  ...sharing({ scopes: ['global'], modes: RUN_MODES, footer: true, when: 'running' }, [
    {
      command: 'pauseResume',
      keys: [{ input: ' ' }],
      short: 'pause',
      help: 'pause every actor at its next gate, or resume',
    },
    {
      command: 'step',
      keys: [{ input: 'n' }],
      short: 'step',
      help: 'let one held model request or tool call go, then pause again',
    },
    {
      command: 'continue',
      keys: [{ input: 'c' }],
      short: 'continue',
      help: 'let every held point go and stop pausing',
    },
  ]),
  {
    command: 'toggleBreakpoint',
    keys: [{ input: 'b' }],
    short: 'breakpoint',
    help: 'toggle a breakpoint on the selected actor or the tool under the cursor',
    scopes: ['tree', 'detail'],
    modes: RUN_MODES,
    when: 'running',
  },
  {
    command: 'listBreakpoints',
    keys: [{ input: 'B' }],
    short: 'breakpoints',
    help: 'list breakpoints: stall, loop, route and error on or off, those set, a to add one',
    scopes: ['global'],
    modes: RUN_MODES,
    when: 'running',
  },
  ...sharing({ scopes: ['global'], modes: ['replay'], footer: true }, [
    {
      command: 'replayPauseResume',
      keys: [{ input: ' ' }],
      short: 'pause',
      help: 'pause or resume the replay',
    },
    {
      command: 'replayStep',
      keys: [{ input: 'n' }],
      short: 'next event',
      help: 'play one event, then pause',
    },
    {
      command: 'replayFaster',
      keys: [{ input: '+' }, { input: '=' }],
      short: 'faster',
      help: 'play twice as fast',
    },
    {
      command: 'replaySlower',
      keys: [{ input: '-' }],
      short: 'slower',
      help: 'play half as fast',
    },
    {
      command: 'replayEnd',
      keys: [{ input: 'G' }],
      short: 'to end',
      help: 'play everything left at once',
    },
  ]),
  // An attached run is forked on its server's machine: `sortie fork` there.
  ...sharing({ scopes: ['events', 'detail'], modes: OWN_MODES, footer: true }, [
    {
      command: 'fork',
      keys: [{ input: 'f' }],
      short: 'fork',
      help: 'fork at the reply or tool result under the cursor (the fork runs here)',
    },
    {
      command: 'editFork',
      keys: [{ input: 'e' }],
      short: 'edit+fork',
      help: 'edit the reply or tool result under the cursor in $EDITOR, then fork',
    },
  ]),
  {
    command: 'help',
    keys: [{ input: '?' }],
    short: 'all keys',
    help: 'show or hide this help',
    scopes: ['global', 'help'],
    footer: true,
  },
  {
    command: 'quit',
    keys: [{ input: 'q' }],
    short: 'quit',
    help: 'quit (asks before cancelling a running mission)',
    scopes: ['global'],
    modes: OWN_MODES,
    footer: true,
  },
  {
    command: 'cancel',
    keys: [{ input: 'c', ctrl: true }],
    short: 'cancel',
    help: 'cancel the run (again to leave at once)',
    scopes: EVERYWHERE,
    modes: OWN_MODES,
    when: 'running',
  },
  {
    command: 'quit',
    keys: [{ input: 'c', ctrl: true }],
    short: 'quit',
    help: 'quit',
    scopes: EVERYWHERE,
    modes: OWN_MODES,
    when: 'finished',
  },
  ...sharing(
    {
      command: 'detach',
      short: 'detach',
      help: 'leave; the run goes on on the server',
      modes: ['attached'],
    },
    [
      { keys: [{ input: 'q' }], scopes: ['global'], footer: true },
      { keys: [{ input: 'c', ctrl: true }], scopes: EVERYWHERE },
    ],
  ),
  {
    command: 'confirmYes',
    keys: [{ input: 'y' }],
    short: 'yes',
    help: 'cancel the mission and quit',
    scopes: ['confirm'],
  },
  {
    command: 'confirmNo',
    keys: [{ input: 'n' }, { special: 'escape' }],
    short: 'no',
    help: 'keep the mission running',
    scopes: ['confirm'],
  },
  {
    command: 'closeOverlay',
    keys: [{ special: 'escape' }, { input: 'q' }],
    short: 'close',
    help: 'close this view',
    scopes: ['help', 'breakpoints'],
  },
  ...sharing({ scopes: ['breakpoints'], modes: RUN_MODES }, [
    {
      command: 'toggleBreakpoint',
      keys: [{ input: ' ' }, { special: 'return' }, { input: 'b' }],
      short: 'toggle',
      help: 'turn the breakpoint under the cursor on or off (a tool, actor or spend one: remove it)',
    },
    {
      command: 'breakpointAdd',
      keys: [{ input: 'a' }],
      short: 'add',
      help: 'add a breakpoint by typing it: cost:USD, tokens:N, tool:NAME, actor:ID, model…',
    },
  ]),
  ...sharing({ scopes: ['breakpointAdd'] }, [
    {
      command: 'breakpointAddSubmit',
      keys: [{ special: 'return' }],
      short: 'add',
      help: 'set the breakpoint typed (a bad one is named and stays to be fixed)',
    },
    {
      command: 'breakpointAddErase',
      keys: [{ special: 'backspace' }],
      short: 'erase',
      help: 'erase a character',
    },
    {
      command: 'breakpointAddClose',
      keys: [{ special: 'escape' }],
      short: 'back',
      help: 'back to the breakpoint list without adding',
    },
  ]),
  ...sharing({ scopes: ['filter'] }, [
    {
      command: 'filterApply',
      keys: [{ special: 'return' }],
      short: 'apply',
      help: 'keep the filter and leave the filter line',
    },
    {
      command: 'filterCancel',
      keys: [{ special: 'escape' }],
      short: 'clear',
      help: 'clear the filter',
    },
    {
      command: 'filterErase',
      keys: [{ special: 'backspace' }],
      short: 'erase',
      help: 'erase a character',
    },
  ]),
  {
    command: 'answer',
    keys: [{ input: 'a' }],
    short: 'answer',
    help: 'answer the question an agent asks you (the oldest waiting)',
    scopes: ['global'],
    modes: RUN_MODES,
    footer: 'asking',
    when: 'running',
  },
  ...sharing({ scopes: ['answer'] }, [
    {
      command: 'answerSubmit',
      keys: [{ special: 'return' }],
      short: 'send',
      help: 'send the answer typed (choices by number or text; several: 1,3)',
    },
    {
      command: 'answerClose',
      keys: [{ special: 'escape' }],
      short: 'later',
      help: 'close the question; it keeps waiting for you',
    },
    {
      command: 'answerErase',
      keys: [{ special: 'backspace' }],
      short: 'erase',
      help: 'erase a character',
    },
    {
      command: 'answerNextField',
      keys: [{ special: 'tab' }, { special: 'down' }],
      short: 'next field',
      help: 'a form: the next field',
    },
    {
      command: 'answerPreviousField',
      keys: [{ special: 'up' }],
      short: 'previous field',
      help: 'a form: the previous field',
    },
    {
      command: 'answerNextValue',
      keys: [{ special: 'right' }],
      short: 'next value',
      help: 'a form: the next value of a yes/no or one-of field',
    },
    {
      command: 'answerPreviousValue',
      keys: [{ special: 'left' }],
      short: 'previous value',
      help: 'a form: the previous value of a yes/no or one-of field',
    },
  ]),
  {
    command: 'budgetOpen',
    keys: [{ input: '$' }],
    short: 'budget',
    help: 'raise the limit of a budget at its warning, or go on without (the run holds till then)',
    scopes: ['global'],
    // Only a run of this process can raise its budgets.
    modes: ['live'],
    when: 'running',
  },
  ...sharing({ scopes: ['budget'] }, [
    {
      command: 'budgetHalf',
      keys: [{ input: '+' }],
      short: '+50%',
      help: 'raise the limit by half, for the rest of this run, and go on',
    },
    {
      command: 'budgetDouble',
      keys: [{ input: '*' }],
      short: '×2',
      help: 'double the limit, for the rest of this run, and go on',
    },
    {
      command: 'budgetSubmit',
      keys: [{ special: 'return' }],
      short: 'raise',
      help: 'raise the limit to the amount typed (dollars, or tokens) and go on',
    },
    {
      command: 'budgetErase',
      keys: [{ special: 'backspace' }],
      short: 'erase',
      help: 'erase a character',
    },
    {
      command: 'budgetSkip',
      keys: [{ input: 'n' }],
      short: 'no raise',
      help: 'go on without raising: the work fails at the limit',
    },
    {
      command: 'budgetClose',
      keys: [{ special: 'escape' }],
      short: 'later',
      help: 'close the prompt; the run stays held ($ opens it again)',
    },
  ]),
] as const satisfies readonly KeyRow[];

/** What a key press asks for: a command of the table, so no command is named without keys. */
export type Command = (typeof ROWS)[number]['command'];

/** One row of the table. */
export interface KeyBinding extends KeyRow {
  command: Command;
}

/** Every binding, in the order the footer and help show them. */
export const KEY_TABLE: readonly KeyBinding[] = ROWS;

/** Where the keys are going: the mode, the focused pane, the open overlay, and whether the run has ended. */
export interface KeyContext {
  mode: Mode;
  pane: Pane;
  overlay: Overlay;
  finished: boolean;
  /** Whether a question to the person waits (the footer offers `a answer` only then). */
  asking?: boolean;
}
