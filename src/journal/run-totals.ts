/**
 * A run's totals over all its sessions, from its journal: the requests, tokens and dollars of
 * every journaled `model.response`, and the time its sessions ran — a finished session as its
 * `run.finished` says (which counts the sessions before it), one a crash ended up to its last
 * journaled event. `sortie show` and a resumed run's figures both come from here.
 */
import { addUsage, emptyUsage } from '../models/usage.ts';
import type { EventOf, MissionEvent, ModelTotals, RunTotals } from '../base/events.ts';
import { modelLabel } from '../base/model-label.ts';

/** Adds up events one at a time (a big journal is never held for it). */
export class RunTotalsTally {
  private requests = 0;
  private usage = emptyUsage();
  private costPico = 0n;
  private unpriced = false;
  private readonly models = new Map<string, ModelTotals>();
  /** Time of the sessions that ended before the open one. */
  private endedMs = 0;
  private sessionStart: number | null = null;
  private lastTime = 0;

  add(event: MissionEvent): void {
    const time = Date.parse(event.time);
    if (event.type === 'run.started') {
      // The session before it had no run.finished: a crash ended it after its last event.
      this.endedMs += this.openMs();
      this.sessionStart = time;
    } else if (event.type === 'run.forked') {
      // A fork's copied events ran in its parent up to their last one; the fork runs from now.
      this.endedMs += this.openMs();
      this.sessionStart = null;
    } else if (event.type === 'run.finished') {
      this.endedMs = event.durationMs;
      this.sessionStart = null;
    } else if (event.type === 'model.response') {
      this.addResponse(event);
    }
    this.lastTime = time;
  }

  result(): RunTotals {
    return {
      requests: this.requests,
      usage: this.usage,
      costPico: String(this.costPico),
      unpriced: this.unpriced,
      durationMs: this.durationMs(),
      models: [...this.models.values()],
    };
  }

  /** The time the run's sessions ran so far. */
  durationMs(): number {
    return this.endedMs + this.openMs();
  }

  private openMs(): number {
    return this.sessionStart === null ? 0 : Math.max(0, this.lastTime - this.sessionStart);
  }

  private addResponse(event: EventOf<'model.response'>): void {
    this.requests += 1;
    this.usage = addUsage(this.usage, event.usage);
    this.costPico += BigInt(event.costPico);
    this.unpriced ||= event.unpriced;
    const key = modelLabel(event.model);
    const known = this.models.get(key);
    this.models.set(key, {
      model: known?.model ?? event.model,
      requests: (known?.requests ?? 0) + 1,
      usage: addUsage(known?.usage ?? emptyUsage(), event.usage),
      costPico: String(BigInt(known?.costPico ?? '0') + BigInt(event.costPico)),
      unpriced: (known?.unpriced ?? false) || event.unpriced,
    });
  }
}

/** The totals of a run's events. */
export function runTotals(events: Iterable<MissionEvent>): RunTotals {
  const tally = new RunTotalsTally();
  for (const event of events) tally.add(event);
  return tally.result();
}

/** `earlier` plus what a session spent since: the figures of a resumed run's end. */
export function addRunTotals(
  earlier: RunTotals | undefined,
  session: Pick<RunTotals, 'usage' | 'costPico' | 'unpriced' | 'durationMs'>,
): Pick<RunTotals, 'usage' | 'costPico' | 'unpriced' | 'durationMs'> {
  if (earlier === undefined) return session;
  return {
    usage: addUsage(earlier.usage, session.usage),
    costPico: String(BigInt(earlier.costPico) + BigInt(session.costPico)),
    unpriced: earlier.unpriced || session.unpriced,
    durationMs: earlier.durationMs + session.durationMs,
  };
}
