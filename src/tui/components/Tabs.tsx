/**
 * The tab strip: `[1 Tree]  2 Costs   3 Events   4 Outputs`, the active one in brackets (which
 * show without colour, under NO_COLOR) and inverted.
 */
import { Box, Text } from 'ink';
import type { Tab } from '../view/view-state.ts';

const TABS: ReadonlyArray<{ tab: Tab; label: string }> = [
  { tab: 'tree', label: '1 Tree' },
  { tab: 'costs', label: '2 Costs' },
  { tab: 'events', label: '3 Events' },
  { tab: 'outputs', label: '4 Outputs' },
  { tab: 'items', label: '5 Items' },
];

/** The tabs with `active` highlighted. */
export function Tabs({ active }: { active: Tab }) {
  return (
    <Box gap={1}>
      {TABS.map(({ tab, label }) => (
        <Text key={tab} inverse={tab === active} bold={tab === active}>
          {tab === active ? `[${label}]` : ` ${label} `}
        </Text>
      ))}
    </Box>
  );
}
