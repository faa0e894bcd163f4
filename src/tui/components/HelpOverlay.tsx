/** `?`: every key of the current mode, from the key table. */
import { Box, Text } from 'ink';
import { keyLabel } from '../key-match.ts';
import { KEY_TABLE, type KeyBinding, type Mode } from '../keys.ts';
import { padEnd, truncate } from '../../present/columns.ts';

export interface HelpOverlayProps {
  mode: Mode;
  height: number;
  width: number;
}

const PANES = ['tree', 'detail', 'costs', 'events', 'outputs'];

function where(binding: KeyBinding): string {
  if (binding.scopes.includes('global')) return 'anywhere';
  const panes = PANES.every((pane) => binding.scopes.some((scope) => scope === pane));
  if (panes) return 'all panes';
  return binding.scopes.join(', ');
}

/** The help lines for a mode (exported for tests). */
export function helpLines(mode: Mode, width: number): string[] {
  return KEY_TABLE.filter(
    (binding) => binding.modes === undefined || binding.modes.includes(mode),
  ).map((binding) =>
    truncate(`${padEnd(keyLabel(binding), 10)}${padEnd(where(binding), 18)}${binding.help}`, width),
  );
}

/** The help screen (replaces the body while open). */
export function HelpOverlay({ mode, height, width }: HelpOverlayProps) {
  const lines = helpLines(mode, width - 2);
  return (
    <Box flexDirection="column" height={height}>
      <Text bold>{`Keys (${mode === 'live' ? 'live run' : 'replay'}) — ? or esc to close`}</Text>
      {lines.slice(0, Math.max(0, height - 1)).map((line, position) => (
        <Text key={position}>{line}</Text>
      ))}
    </Box>
  );
}
