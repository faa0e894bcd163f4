/** `?`: every key that acts now, from the key table; scrolls when it is taller than the body. */
import { Box, Text } from 'ink';
import { bindingActs, keyLabel } from '../key-match.ts';
import { KEY_TABLE, type KeyBinding, type KeyContext, type Mode, type Scope } from '../keys.ts';
import { padEnd, truncate } from '../../present/columns.ts';

export interface HelpOverlayProps {
  mode: Mode;
  /** The help lines (from `helpLines`). */
  lines: readonly string[];
  /** The first line shown. */
  start: number;
  height: number;
}

const PANES = ['tree', 'detail', 'costs', 'events', 'outputs'];

function where(binding: KeyBinding): string {
  if (binding.scopes.includes('global')) return 'anywhere';
  const panes = PANES.every((pane) => binding.scopes.some((scope) => scope === pane));
  if (panes) return 'all panes';
  return binding.scopes.map((scope) => SCOPE_NAMES[scope] ?? scope).join(', ');
}

/** Scopes whose name in code does not read as a place on screen. */
const SCOPE_NAMES: Partial<Record<Scope, string>> = { breakpointAdd: 'new breakpoint' };

/** The help lines for a mode at this point of the run (exported for tests). */
export function helpLines(context: Pick<KeyContext, 'mode' | 'finished'>, width: number): string[] {
  return KEY_TABLE.filter((binding) => bindingActs(binding, context)).map((binding) =>
    truncate(`${padEnd(keyLabel(binding), 10)}${padEnd(where(binding), 18)}${binding.help}`, width),
  );
}

const MODE_NAMES: Record<Mode, string> = {
  live: 'live run',
  replay: 'replay',
  attached: 'attached run',
};

/** The help screen (replaces the body while open). */
export function HelpOverlay({ mode, lines, start, height }: HelpOverlayProps) {
  const room = Math.max(0, height - 1);
  const first = Math.max(0, Math.min(start, lines.length - room));
  const shown = lines.slice(first, first + room);
  const position =
    shown.length < lines.length
      ? ` ${first + 1}–${first + shown.length} of ${lines.length}, ↑/↓ scroll —`
      : ' —';
  return (
    <Box flexDirection="column" height={height}>
      <Text bold>{`Keys (${MODE_NAMES[mode]})${position} ? or esc to close`}</Text>
      {shown.map((line, index) => (
        <Text key={index}>{line}</Text>
      ))}
    </Box>
  );
}
