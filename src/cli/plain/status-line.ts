/**
 * The line log's status line on a terminal: when the log has been quiet for a while and a
 * model or a tool is still working, one line under the log says how long the run has gone,
 * who is working, and the tokens and cost so far, redrawn in place (carriage return, erase
 * line). It is erased before every log line and at the end, so the log itself is unchanged;
 * it is hidden while a question waits for the person (the asker writes on the terminal).
 */
import type { MissionEvent } from '../../base/events.ts';
import { truncate } from '../../present/columns.ts';
import { formatCost } from '../../present/money.ts';
import { formatCount, formatElapsed } from '../../present/numbers.ts';
import type { LogState } from './log-state.ts';

/** Carriage return and erase the whole line: the cursor is back at the line's start. */
const ERASE_LINE = '\r\u001b[2K';
/** How long the log stays quiet before the status line shows. */
const QUIET_MS = 1000;
/** How often the status line is redrawn (its clock moves). */
const TICK_MS = 500;

/** Calls `tick` periodically until the returned function stops it. */
export type Ticker = (tick: () => void) => () => void;

/** A ticker that does not keep the process alive. */
const intervalTicker: Ticker = (tick) => {
  const timer = setInterval(tick, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
};

/** What the status line needs besides the log's state. */
export interface StatusLineOptions {
  /** The terminal's width now (a status line wider than it would wrap and not be erased). */
  columns: () => number;
  now?: () => number;
  ticker?: Ticker;
}

/** The status line of one run. */
export class StatusLine {
  private shown = false;
  private lastLineAt: number;
  /** Model requests by requestId and tool calls by callId in flight, each with its actor. */
  private readonly working = new Map<string, string>();
  private readonly questions = new Set<string>();
  private readonly now: () => number;
  private readonly stopTicker: () => void;

  constructor(
    private readonly state: LogState,
    private readonly write: (text: string) => void,
    private readonly options: StatusLineOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.lastLineAt = this.now();
    this.stopTicker = (options.ticker ?? intervalTicker)(() => this.tick());
  }

  /** Follows who is working (call for every event, before its line is printed). */
  observe(event: MissionEvent): void {
    switch (event.type) {
      case 'model.request':
        this.working.set(`model ${event.requestId}`, event.actor);
        return;
      case 'model.response':
        this.working.delete(`model ${event.requestId}`);
        return;
      case 'tool.called':
        this.working.set(`tool ${event.callId}`, event.actor);
        return;
      case 'tool.completed':
        this.working.delete(`tool ${event.callId}`);
        return;
      case 'human.asked':
        // At once: the asker is about to write the question on this terminal.
        this.questions.add(event.callId);
        this.erase();
        return;
      case 'human.answered':
        this.questions.delete(event.callId);
        return;
      case 'task.succeeded':
      case 'task.failed':
      case 'task.cancelled':
        // A request that failed has no response: its task's end is the last word on it.
        for (const [key, actor] of this.working) {
          if (actorTask(actor) === event.task) this.working.delete(key);
        }
        return;
      case 'run.finished':
        this.working.clear();
        return;
      default:
    }
  }

  /** Prints a log line (with its newline) where the status line was. */
  printLine(text: string): void {
    this.erase();
    this.write(text);
    this.lastLineAt = this.now();
  }

  /** Stops redrawing and erases the status line (before the summary). */
  stop(): void {
    this.stopTicker();
    this.erase();
  }

  /** The status text: `… 00:12.3 · working: commander:t, agent:t/a · 1,204 tokens · $0.0012`. */
  text(): string {
    const elapsed = formatElapsed(this.now() - (this.state.startMs ?? this.now()));
    const actors = [...new Set(this.working.values())];
    const cost = formatCost(this.state.costPico, this.state.unpriced);
    return `… ${elapsed} · working: ${actors.join(', ')} · ${formatCount(this.state.tokens)} tokens · ${cost}`;
  }

  private tick(): void {
    const quiet = this.now() - this.lastLineAt >= QUIET_MS;
    if (this.working.size === 0 || this.questions.size > 0 || !quiet) {
      this.erase();
      return;
    }
    this.write(`${ERASE_LINE}${truncate(this.text(), Math.max(1, this.options.columns() - 1))}`);
    this.shown = true;
  }

  private erase(): void {
    if (!this.shown) return;
    this.write(ERASE_LINE);
    this.shown = false;
  }
}

/** `commander:fetch[3]` → `fetch`, `agent:fetch/reader` → `fetch`; '' for other actors. */
function actorTask(actor: string): string {
  const colon = actor.indexOf(':');
  if (colon < 0) return '';
  return actor.slice(colon + 1).split(/[/[]/)[0] ?? '';
}
