/**
 * The live actor tree, windowed: only the rows that fit `height` are rendered, so a run of
 * 1,000 actors costs the same per frame as one of ten.
 */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { GatePoint } from '../../runtime/gate.ts';
import { formatCost } from '../../present/money.ts';
import { formatCount } from '../../present/numbers.ts';
import type { ActorNode, TreeRow } from '../store/index.ts';
import { progressText, statusIcon } from '../view/status.ts';
import { padEnd, textWidth, truncate } from '../../present/columns.ts';

export interface TreeViewProps {
  actors: ReadonlyMap<string, ActorNode>;
  rows: readonly TreeRow[];
  held: readonly GatePoint[];
  selected: number;
  start: number;
  height: number;
  width: number;
  focused: boolean;
}

/** One row's text at `width` columns (exported for tests and the benchmark). */
export function treeRowText(
  node: ActorNode,
  row: TreeRow,
  held: boolean,
  selected: boolean,
  width: number,
): string {
  const twisty = row.hasChildren ? (row.expanded ? '▾' : '▸') : ' ';
  const icon = held ? '⏸' : statusIcon(node.status);
  const progress = node.iteration === null ? '' : ` ${progressText(node.iteration)}`;
  const activity = node.activity === '' ? '' : ` · ${node.activity}`;
  const signals = node.signals.length === 0 ? '' : ` ⚠ ${signalKinds(node)}`;
  const spend =
    node.tokens === 0
      ? ''
      : ` ${formatCount(node.tokens)} ${formatCost(node.costPico, node.unpriced)}`;
  // A visible marker, not only inverse video: NO_COLOR terminals show no highlight.
  const left = `${selected ? '›' : ' '} ${'  '.repeat(row.depth)}${twisty} ${icon} ${node.label}${progress}${signals}${activity}`;
  const room = width - textWidth(spend);
  return room < 12 ? padEnd(left, width) : `${padEnd(left, room)}${spend}`;
}

/** The kinds of signal an actor raised, each once, in the order first raised: `stall loop`. */
export function signalKinds(node: ActorNode): string {
  return [...new Set(node.signals.map((signal) => signal.signal))].join(' ');
}

const STATUS_COLORS: Partial<Record<ActorNode['status'], string>> = {
  running: 'cyan',
  succeeded: 'green',
  failed: 'red',
  cancelled: 'yellow',
};

/** The visible slice of the tree. */
export const TreeView = memo(function TreeView(props: TreeViewProps) {
  const heldActors = new Set(props.held.map((point) => point.actor));
  const visible = props.rows.slice(props.start, props.start + props.height);
  return (
    <Box flexDirection="column" width={props.width} height={props.height}>
      {visible.map((row, offset) => {
        const node = props.actors.get(row.id);
        if (node === undefined) return null;
        const selected = props.start + offset === props.selected;
        return (
          <Text
            key={row.id}
            inverse={selected && props.focused}
            bold={selected}
            color={heldActors.has(row.id) ? 'yellow' : STATUS_COLORS[node.status]}
          >
            {truncate(
              treeRowText(node, row, heldActors.has(row.id), selected, props.width),
              props.width,
            )}
          </Text>
        );
      })}
      {visible.length === 0 ? <Text dimColor>waiting for the first event…</Text> : null}
    </Box>
  );
});
