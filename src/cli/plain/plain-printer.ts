/**
 * The stateful plain printer: feeds each event to the log state, prints its line (unless
 * quiet), and prints the summary when asked.
 */
import type { MissionEvent } from '../../base/events.ts';
import type { RunJournalState } from '../../journal/restore.ts';
import { formatEventLine } from './format-event-line.ts';
import { createLogState, observeEvent, type LogState } from './log-state.ts';
import { summaryLines } from './run-summary.ts';
import { painter } from '../../present/paint.ts';
import { StatusLine, type StatusLineOptions } from './status-line.ts';
import { terminalSafeEvent } from '../../present/terminal-text.ts';

/** Options of the plain printer. */
export interface PlainPrinterOptions {
  write: (text: string) => void;
  color: boolean;
  /** Only the final summary. */
  quiet?: boolean;
  /** `depends_on` names by `mission/task`. */
  dependencies?: ReadonlyMap<string, readonly string[]>;
  /** Where a live run's journal is: the run's first line says it. */
  journalOf?: (runId: string) => string;
  /** On a terminal: a status line while a model or tool is slow (status-line.ts). */
  status?: StatusLineOptions;
  /** A resumed run's journal: the summary shows the items its earlier sessions finished. */
  resumed?: RunJournalState;
}

/** A subscriber for the event bus plus the closing summary. */
export interface PlainPrinter {
  readonly state: LogState;
  onEvent(event: MissionEvent): void;
  printSummary(): void;
}

/** Makes a plain printer. */
export function createPlainPrinter(options: PlainPrinterOptions): PlainPrinter {
  const state = createLogState(options.dependencies, earlierItems(options.resumed));
  const paint = painter(options.color);
  const status =
    options.status === undefined || options.quiet === true
      ? undefined
      : new StatusLine(state, options.write, options.status);
  const print = (text: string): void =>
    status === undefined ? options.write(text) : status.printLine(text);
  return {
    state,
    onEvent(received) {
      // Escaped before anything keeps or prints it: the lines and the summary alike.
      const event = terminalSafeEvent(received);
      observeEvent(state, event);
      status?.observe(event);
      if (options.quiet === true) return;
      const line = formatEventLine(event, state, paint);
      if (line === undefined) return;
      const journal =
        event.type === 'run.started' && options.journalOf !== undefined
          ? ` · journal ${options.journalOf(event.runId)}`
          : '';
      print(`${line}${journal}\n`);
    },
    printSummary() {
      status?.stop();
      for (const line of summaryLines(state, paint)) options.write(`${line}\n`);
    },
  };
}

/** The outputs of the items a resumed run's journal says succeeded, by `mission/task`. */
function earlierItems(resumed: RunJournalState | undefined): Map<string, Map<number, unknown>> {
  const outputs = new Map<string, Map<number, unknown>>();
  for (const [mission, journal] of resumed?.journals ?? []) {
    for (const [task, items] of journal.items) {
      outputs.set(
        `${mission}/${task}`,
        new Map([...items.values()].map((item) => [item.index, item.output])),
      );
    }
  }
  return outputs;
}
