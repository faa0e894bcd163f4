/** Reading key presses against the key table, and writing keys on screen. */
import {
  KEY_TABLE,
  type Command,
  type KeyBinding,
  type KeyChord,
  type KeyContext,
  type SpecialKey,
} from './keys.ts';

/** The key flags the table reads (a subset of Ink's `Key`). */
export interface PressedKey {
  upArrow: boolean;
  downArrow: boolean;
  leftArrow: boolean;
  rightArrow: boolean;
  return: boolean;
  escape: boolean;
  tab: boolean;
  backspace: boolean;
  delete: boolean;
  pageUp: boolean;
  pageDown: boolean;
  ctrl: boolean;
}

/** Each named key: how Ink reports it pressed, and how the screen writes it. */
const SPECIAL_KEYS: Record<SpecialKey, { pressed: (key: PressedKey) => boolean; label: string }> = {
  up: { pressed: (key) => key.upArrow, label: '↑' },
  down: { pressed: (key) => key.downArrow, label: '↓' },
  left: { pressed: (key) => key.leftArrow, label: '←' },
  right: { pressed: (key) => key.rightArrow, label: '→' },
  return: { pressed: (key) => key.return, label: 'enter' },
  escape: { pressed: (key) => key.escape, label: 'esc' },
  tab: { pressed: (key) => key.tab, label: 'tab' },
  // Many terminals send DEL for backspace, which Ink reports as `delete`.
  backspace: { pressed: (key) => key.backspace || key.delete, label: 'backspace' },
  pageUp: { pressed: (key) => key.pageUp, label: 'pgup' },
  pageDown: { pressed: (key) => key.pageDown, label: 'pgdn' },
};

function chordMatches(chord: KeyChord, input: string, key: PressedKey): boolean {
  if ((chord.ctrl ?? false) !== key.ctrl) return false;
  if (chord.special !== undefined) return SPECIAL_KEYS[chord.special].pressed(key);
  return chord.input === input;
}

/** Whether a binding acts in a mode at this point of the run (keys that no longer act are not shown). */
export function bindingActs(
  binding: KeyBinding,
  context: Pick<KeyContext, 'mode' | 'finished'>,
): boolean {
  if (binding.modes !== undefined && !binding.modes.includes(context.mode)) return false;
  if (binding.when === undefined) return true;
  return binding.when === (context.finished ? 'finished' : 'running');
}

/** The bindings that work in a context, in table order. */
export function bindingsFor(context: KeyContext): KeyBinding[] {
  return KEY_TABLE.filter((binding) => {
    if (!bindingActs(binding, context)) return false;
    if (context.overlay !== 'none') return binding.scopes.includes(context.overlay);
    return binding.scopes.includes('global') || binding.scopes.includes(context.pane);
  });
}

/** The command a key press asks for in a context, if any. */
export function commandFor(
  input: string,
  key: PressedKey,
  context: KeyContext,
): Command | undefined {
  for (const binding of bindingsFor(context)) {
    if (binding.keys.some((chord) => chordMatches(chord, input, key))) return binding.command;
  }
  return undefined;
}

/** How a chord is written on screen: `↑`, `k`, `space`, `ctrl-c`. */
export function chordLabel(chord: KeyChord): string {
  const name =
    chord.special !== undefined
      ? SPECIAL_KEYS[chord.special].label
      : chord.input === ' '
        ? 'space'
        : (chord.input ?? '');
  return chord.ctrl === true ? `ctrl-${name}` : name;
}

/** All keys of a binding: `↑/k`. */
export function keyLabel(binding: KeyBinding): string {
  return binding.keys.map(chordLabel).join('/');
}
