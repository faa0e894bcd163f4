/**
 * Shows `sortie eval`'s live table with Ink while an eval runs: fed runEval's progress
 * reports, drawn at Ink's pace, and cleared once closed, when the report printed next takes
 * its place. It reads no keys: Ctrl-C stays the CLI's interrupt.
 */
import chalk from 'chalk';
import { render } from 'ink';
import { createElement } from 'react';
import type { EvalProgress } from '../../eval/run-eval.ts';
import { EvalBoardView } from '../components/EvalBoard.tsx';
import { advanceBoard, plannedBoard, type EvalBoard } from './eval-board.ts';

/** The live table of one eval. */
export interface EvalBoardHandle {
  /** Takes one progress report; the table starts with the eval's `planned` report. */
  update(progress: EvalProgress): void;
  /** Clears the table from the screen and lets go of the terminal. */
  close(): Promise<void>;
}

/** Where and how to draw. */
export interface EvalBoardOptions {
  stdout?: NodeJS.WriteStream;
  /** Colours (default true); false (`NO_COLOR`) draws with no escape sequence but cursor control. */
  color?: boolean;
}

/** Starts the live table; nothing is drawn before the eval's `planned` report. */
export function renderEvalBoard(options: EvalBoardOptions = {}): EvalBoardHandle {
  let board: EvalBoard | undefined;
  const listeners = new Set<() => void>();
  let instance: ReturnType<typeof render> | undefined;
  const chalkLevel = chalk.level;
  // Ink styles text through chalk's shared instance, whose detection does not read NO_COLOR.
  if (options.color === false) chalk.level = 0;
  const source = {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getState: () => board as EvalBoard,
  };
  return {
    update(progress) {
      if (progress.type === 'planned') board = plannedBoard(progress);
      else if (board !== undefined) board = advanceBoard(board, progress);
      else return;
      if (instance === undefined) {
        instance = render(createElement(EvalBoardView, { source }), {
          ...(options.stdout === undefined ? {} : { stdout: options.stdout }),
          patchConsole: false,
          exitOnCtrlC: false,
        });
      }
      for (const listener of listeners) listener();
    },
    async close() {
      if (instance !== undefined) {
        // An empty last frame: the report printed next replaces the table (it holds its own).
        instance.rerender(null);
        instance.unmount();
        await instance.waitUntilExit();
      }
      chalk.level = chalkLevel;
    },
  };
}
