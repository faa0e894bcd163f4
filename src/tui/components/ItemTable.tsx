/**
 * The item table tab: which task and what narrows it, the column heading with the sort mark,
 * and only the rows on screen, the cursor's row marked (`›`, and inverse when in colour). A row
 * is a memoised component: a frame lays out again only the rows whose item or selection changed.
 */
import { Box, Text } from 'ink';
import { memo } from 'react';
import { formatCount } from '../../present/numbers.ts';
import { ITEM_TABLE_CHROME, type ItemTableScreen } from '../hooks/use-item-table.ts';
import { itemHeading, itemLine, type ItemQuery, type ItemRow } from '../view/item-table.ts';

export interface ItemTableProps {
  table: ItemTableScreen;
  query: ItemQuery;
  /** The text filter is being typed. */
  editing: boolean;
  height: number;
  width: number;
}

function titleText({ table, query, editing }: ItemTableProps): string {
  const shown = `${formatCount(table.rows.length)} of ${formatCount(table.total)} items`;
  const filter = editing
    ? ` · filter /${query.text}_`
    : query.text === ''
      ? ''
      : ` · filter "${query.text}"`;
  return `items of ${table.task ?? ''} · ${shown} · status ${query.status}${filter}`;
}

interface ItemTableRowProps {
  row: ItemRow;
  selected: boolean;
  width: number;
}

/** One item's line; the same row object (its item unchanged) is not laid out again. */
const ItemTableRow = memo(function ItemTableRow({ row, selected, width }: ItemTableRowProps) {
  const line = itemLine(row, width);
  return <Text inverse={selected}>{selected ? `›${line.slice(1)}` : line}</Text>;
});

/** The visible window of the item table. */
export function ItemTable(props: ItemTableProps) {
  const { table, query, height, width } = props;
  if (table.task === null) {
    return (
      <Box height={height}>
        <Text>(no iterated task has started an item yet)</Text>
      </Box>
    );
  }
  const visible = table.rows.slice(table.start, table.start + height - ITEM_TABLE_CHROME);
  return (
    <Box flexDirection="column" height={height}>
      <Text>{titleText(props)}</Text>
      <Text bold>{itemHeading(query, width)}</Text>
      {visible.map((row, position) => (
        <ItemTableRow
          key={row.index}
          row={row}
          selected={table.start + position === table.cursor}
          width={width}
        />
      ))}
    </Box>
  );
}
