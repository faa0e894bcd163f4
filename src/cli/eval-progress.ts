/**
 * What `sortie eval` shows while an eval runs: on a terminal, the live table (Ink, rows per
 * case, columns per variant); otherwise, or with `--plain`, a line per finished run. Either
 * way every run is added to the run index, as `sortie run` does.
 */
import type { EvalProgress } from '../eval/run-eval.ts';
import { addToRunIndex, runIndexPath } from '../journal/run-index.ts';
import { runLine } from './eval-text.ts';
import { useColor, type CliIo } from './io.ts';

/** Shows an eval's progress; `close` before printing the report. */
export interface EvalProgressView {
  show(progress: EvalProgress): void;
  close(): Promise<void>;
}

/** What the index entries of an eval's runs say. */
export interface EvalRunPlace {
  name: string;
  mission: string;
  stateDir: string;
  project: string;
}

/** The live table (`live`) or plain lines; index writes are pushed onto `indexed`. */
export async function evalProgressView(
  io: CliIo,
  live: boolean,
  place: EvalRunPlace,
  indexed: Array<Promise<void>>,
): Promise<EvalProgressView> {
  const index = runIndexPath(io.env);
  const addToIndex = (runId: string): void => {
    if (index === undefined) return;
    const { stateDir, project, mission } = place;
    const entry = { runId, stateDir, project, mission, startedAt: new Date().toISOString() };
    // A run missing from the index is still found from its project.
    indexed.push(addToRunIndex(index, entry).catch(() => undefined));
  };
  if (live) {
    const { renderEvalBoard } = await import('../tui/eval/render-eval-board.ts');
    const board = renderEvalBoard({ color: useColor(io, 'stdout') });
    return {
      show(progress) {
        if (progress.type === 'started') addToIndex(progress.runId);
        board.update(progress);
      },
      close: () => board.close(),
    };
  }
  return {
    show(progress) {
      if (progress.type === 'started') addToIndex(progress.runId);
      else io.stdout(plainLine(place.name, progress));
    },
    close: () => Promise.resolve(),
  };
}

/** The line a progress report prints without the live table. */
function plainLine(name: string, progress: Exclude<EvalProgress, { type: 'started' }>): string {
  switch (progress.type) {
    case 'planned': {
      const { resumed } = progress;
      const skipped =
        resumed.length === 0
          ? ''
          : ` (${resumed.length} finished before and not run again: ${resumed.join(', ')})`;
      return `eval ${name}: ${progress.slots} runs${skipped}\n`;
    }
    case 'scored':
      return `${runLine(progress.run)}\n`;
    case 'stopped':
      return `${progress.reason} reached: ${progress.notRun.length} runs not started\n`;
  }
}
