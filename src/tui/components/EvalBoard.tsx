/**
 * The live table of `sortie eval`: the eval's title, a row per case and a column per variant
 * whose cells fill in as runs finish, and a progress line (runs done of all, running, spend).
 * Lines are cut to the terminal's width, and rows beyond its height are windowed.
 */
import { Box, Text } from 'ink';
import { useSyncExternalStore } from 'react';
import { alignRows } from '../../present/columns.ts';
import { formatDollars } from '../../present/money.ts';
import { useTerminalSize } from '../hooks/use-terminal-size.ts';
import { cellView, visibleCases, type CellState, type EvalBoard } from '../eval/eval-board.ts';

/** Where the component reads the table from. */
export interface EvalBoardSource {
  subscribe: (listener: () => void) => () => void;
  getState: () => EvalBoard;
}

/** Lines around the case rows: title, blank, column names, window note, blank, progress. */
const FIXED_LINES = 6;

const CELL_COLORS: Record<CellState, { color?: string; dimColor?: boolean }> = {
  waiting: { dimColor: true },
  filling: {},
  met: { color: 'green' },
  missed: { color: 'red' },
};

/** The table as it stands, redrawn on every progress report. */
export function EvalBoardView({ source }: { source: EvalBoardSource }): React.JSX.Element {
  const board = useSyncExternalStore(source.subscribe, source.getState);
  const { columns, rows } = useTerminalSize();
  const window = visibleCases(board, rows - FIXED_LINES - 1);
  const views = window.cases.map((evalCase) =>
    board.variants.map((variant) => cellView(board, variant, evalCase)),
  );
  // Each column as wide as a finished cell from the start, so cells do not shift as they fill.
  const widest = `${board.repeat}/${board.repeat} ✓`;
  const [, ...aligned] = alignRows(
    [
      ['', ...board.variants.map(() => widest)],
      ['case', ...board.variants],
      ...window.cases.map((evalCase, row) => [
        evalCase.name,
        ...(views[row] ?? []).map((view) => view.text),
      ]),
    ],
    new Set(),
  );
  const [header = [], ...body] = aligned;
  const spent = formatDollars(BigInt(Math.round(board.spentDollars * 1e12)));
  const progress = [
    `runs ${board.finished}/${board.total}${board.resumed > 0 ? ` (${board.resumed} finished before)` : ''}`,
    `running ${board.running.size}`,
    `${spent} spent`,
    ...(board.notRun > 0 ? [`${board.notRun} not run (--max-cost)`] : []),
  ].join(' · ');
  return (
    <Box flexDirection="column" width={columns}>
      <Text wrap="truncate">
        {`eval ${board.eval} · mission ${board.mission} · ${board.variants.length} variants × ${board.cases.length} cases × ${board.repeat} repeats`}
      </Text>
      <Text> </Text>
      <Text bold wrap="truncate">
        {header.join('  ').trimEnd()}
      </Text>
      {body.map((cells, row) => (
        <Text key={window.cases[row]?.name ?? row} wrap="truncate">
          {cells.map((cell, column) => (
            <Text
              key={column}
              {...(column === 0 ? {} : CELL_COLORS[views[row]?.[column - 1]?.state ?? 'waiting'])}
            >
              {column === cells.length - 1 ? cell : `${cell}  `}
            </Text>
          ))}
        </Text>
      ))}
      {window.above + window.below > 0 ? (
        <Text dimColor wrap="truncate">
          {`… ${window.above} cases above, ${window.below} below`}
        </Text>
      ) : null}
      <Text> </Text>
      <Text wrap="truncate">{progress}</Text>
    </Box>
  );
}
