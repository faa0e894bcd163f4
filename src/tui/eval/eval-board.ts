/**
 * The live table of `sortie eval` on a terminal, as plain data: rows per case, columns per
 * variant, each cell counting the runs passed and finished so far, and the progress of the
 * whole eval (runs done, running, spend). Built from runEval's progress reports.
 */
import type { EvalProgress } from '../../eval/run-eval.ts';

type Planned = Extract<EvalProgress, { type: 'planned' }>;

/** One variant × case cell so far. */
export interface BoardCell {
  passed: number;
  finished: number;
}

/** Everything the live table shows. */
export interface EvalBoard {
  eval: string;
  mission: string;
  variants: readonly string[];
  cases: ReadonlyArray<{ name: string; passRate: number }>;
  repeat: number;
  /** Runs planned in all. */
  total: number;
  /** Runs scored (finished before included). */
  finished: number;
  /** Runs an earlier attempt of the eval finished (scored again, not run). */
  resumed: number;
  /** Keys of runs started and not yet scored. */
  running: ReadonlySet<string>;
  /** Dollars spent by the runs scored so far, their judges included. */
  spentDollars: number;
  /** By `variant/case`. */
  cells: ReadonlyMap<string, BoardCell>;
  /** Runs left out for `--max-cost`. */
  notRun: number;
}

/** The empty table of a planned eval. */
export function plannedBoard(planned: Planned): EvalBoard {
  return {
    eval: planned.eval,
    mission: planned.mission,
    variants: planned.variants,
    cases: planned.cases,
    repeat: planned.repeat,
    total: planned.slots,
    finished: 0,
    resumed: planned.resumed.length,
    running: new Set(),
    spentDollars: 0,
    cells: new Map(),
    notRun: 0,
  };
}

/** The table after one more progress report (a new object: the component re-renders on it). */
export function advanceBoard(board: EvalBoard, progress: EvalProgress): EvalBoard {
  switch (progress.type) {
    case 'planned':
      return plannedBoard(progress);
    case 'started':
      return { ...board, running: new Set([...board.running, progress.key]) };
    case 'scored': {
      const { run } = progress;
      const key = cellKey(run.variant, run.case);
      const cell = board.cells.get(key) ?? { passed: 0, finished: 0 };
      const running = new Set(board.running);
      running.delete(run.key);
      return {
        ...board,
        finished: board.finished + 1,
        running,
        spentDollars: board.spentDollars + run.metrics.costDollars + run.judge.costDollars,
        cells: new Map(board.cells).set(key, {
          passed: cell.passed + (run.passed ? 1 : 0),
          finished: cell.finished + 1,
        }),
      };
    }
    case 'stopped':
      return { ...board, notRun: progress.notRun.length };
  }
}

/** The key of a cell in `cells`. */
export function cellKey(variant: string, caseName: string): string {
  return `${variant}/${caseName}`;
}

/** How a cell stands: not started, filling in, or finished and meeting its threshold or not. */
export type CellState = 'waiting' | 'filling' | 'met' | 'missed';

/** A cell's text (`2/3`, `3/3 ✓`, `1/3 ✗`, `·` before its first run) and its state. */
export function cellView(
  board: EvalBoard,
  variant: string,
  evalCase: { name: string; passRate: number },
): { text: string; state: CellState } {
  const cell = board.cells.get(cellKey(variant, evalCase.name));
  if (cell === undefined) return { text: '·', state: 'waiting' };
  const count = `${cell.passed}/${cell.finished}`;
  if (cell.finished < board.repeat) return { text: count, state: 'filling' };
  const met = cell.passed / cell.finished >= evalCase.passRate;
  return met ? { text: `${count} ✓`, state: 'met' } : { text: `${count} ✗`, state: 'missed' };
}

/**
 * The cases that fit in `rows` lines: all of them when they fit, else a window that starts at
 * the first case with a run in progress (else the first with a cell still open), so the rows
 * being filled stay in view.
 */
export function visibleCases(
  board: EvalBoard,
  rows: number,
): { cases: EvalBoard['cases']; above: number; below: number } {
  const all = board.cases;
  if (all.length <= rows) return { cases: all, above: 0, below: 0 };
  const shown = Math.max(1, rows);
  const running = new Set([...board.running].map((key) => key.split('/').slice(1, -1).join('/')));
  const busy = all.findIndex((evalCase) => running.has(evalCase.name));
  const open =
    busy !== -1
      ? busy
      : all.findIndex((evalCase) =>
          board.variants.some(
            (variant) =>
              (board.cells.get(cellKey(variant, evalCase.name))?.finished ?? 0) < board.repeat,
          ),
        );
  const start = Math.min(Math.max(0, open), all.length - shown);
  return {
    cases: all.slice(start, start + shown),
    above: start,
    below: all.length - start - shown,
  };
}
