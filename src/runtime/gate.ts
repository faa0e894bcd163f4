/**
 * The step gate: the runtime awaits `gate.before(point)` before every model request and tool
 * execution, before a router's route takes effect and before a failed tool's result goes back. The open gate returns at once; the debugger's gate holds points until the person
 * steps or continues. This is the only hook debugging needs.
 */
import { abortError } from '../base/abort.ts';
import type {
  EventInput,
  GatePauseReason,
  GatePoint,
  GateResumeHow,
  MissionEvent,
} from '../base/events.ts';
import { BreakpointArming } from './breakpoint-arming.ts';
import {
  breakpointMatches,
  formatBreakpoint,
  heldOnlyByKind,
  parseBreakpoint,
  type Breakpoint,
} from './breakpoints.ts';

export type { GatePoint } from '../base/events.ts';
export { breakpointMatches, formatBreakpoint, parseBreakpoint, type Breakpoint };
export { BREAKPOINT_FORMS, TOGGLEABLE_BREAKPOINTS } from './breakpoints.ts';

/** Awaited before every model request, tool execution, route taking effect and failed result. */
export interface StepGate {
  /** Resolves when the point may proceed; rejects with an AbortError when `signal` aborts. */
  before(point: GatePoint, signal?: AbortSignal): Promise<void>;
  /** Reads the run's events (the debugger's gate arms its signal and spend breakpoints). */
  observe?(event: MissionEvent): void;
}

/** The default gate: never holds. */
export const openGate: StepGate = {
  before: () => Promise.resolve(),
};

/** What the debug gate tells its listener (the wiring turns these into events). */
export type GateNotice =
  | { type: 'gate.paused'; point: GatePoint; reason: GatePauseReason; breakpoint: string | null }
  | { type: 'gate.resumed'; point: GatePoint; how: GateResumeHow }
  | { type: 'breakpoints.changed'; breakpoint: string; set: boolean; breakpoints: string[] };

/** The event a notice becomes: a held point's actor's, a breakpoint change the run's. */
export function gateNoticeEvent(notice: GateNotice): EventInput {
  return notice.type === 'breakpoints.changed'
    ? { ...notice, actor: 'run' }
    : { ...notice, actor: notice.point.actor };
}

/** Options of the debugger's gate. */
export interface DebugGateOptions {
  /** `--step`: hold the very first point. */
  startPaused?: boolean;
  /** Breakpoint specs, parsed at construction (a bad one throws a UsageError). */
  breakpoints?: readonly string[];
  onNotice?: (notice: GateNotice) => void;
}

interface HeldEntry {
  point: GatePoint;
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * What the terminal UI drives: pause, step, continue, breakpoints, and what is held. The
 * debugger's gate is one; `sortie attach` mirrors a served run's gate over HTTP as another.
 */
export interface GateControls {
  readonly isPaused: boolean;
  pause(): void;
  /** Lets the oldest held point through and keeps holding; returns it, if any. */
  step(): GatePoint | undefined;
  continue(): void;
  /** Adds the breakpoint, or removes it when set; returns whether it is now set. */
  toggleBreakpoint(spec: string): boolean;
  list(): string[];
  held(): GatePoint[];
  /** Adds a listener told when the gate holds or lets go of a point or its breakpoints change; returns its remover. */
  onNotice(listener: () => void): () => void;
}

/**
 * The debugger's gate. A point waits while the gate is paused or when it hits a breakpoint
 * (which pauses the gate, so every other actor stops at its next point too). Several actors
 * may wait at once; `step` lets the oldest through, `continue` lets all through.
 */
export class DebugGate implements StepGate, GateControls {
  private paused: boolean;
  private readonly breakpoints = new Map<string, Breakpoint>();
  private readonly waiting: HeldEntry[] = [];
  private readonly listeners = new Set<(notice: GateNotice) => void>();
  private readonly arming = new BreakpointArming(() => this.breakpoints.entries());

  constructor(options: DebugGateOptions = {}) {
    this.paused = options.startPaused ?? false;
    for (const spec of options.breakpoints ?? []) {
      const breakpoint = parseBreakpoint(spec);
      this.breakpoints.set(formatBreakpoint(breakpoint), breakpoint);
    }
    if (options.onNotice !== undefined) this.listeners.add(options.onNotice);
  }

  /** Whether new points are held. */
  get isPaused(): boolean {
    return this.paused;
  }

  /** Arms the breakpoints on signals and spend (the run subscribes this to its bus). */
  observe(event: MissionEvent): void {
    this.arming.observe(event);
  }

  before(point: GatePoint, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError('the held step was aborted'));
    const hit = this.hitAt(point);
    if ((!this.paused || heldOnlyByKind(point)) && hit === undefined) return Promise.resolve();
    this.paused = true;
    return new Promise<void>((resolve, reject) => {
      const entry: HeldEntry = {
        point,
        resolve,
        reject,
        signal,
        onAbort: () => this.abortHeld(entry),
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      this.waiting.push(entry);
      this.notify({
        type: 'gate.paused',
        point,
        reason: hit === undefined ? 'paused' : 'breakpoint',
        breakpoint: hit ?? null,
      });
    });
  }

  /** The breakpoint that holds `point`, if any (an armed one is used up only at model and tool points). */
  private hitAt(point: GatePoint): string | undefined {
    const armed = heldOnlyByKind(point) ? undefined : this.arming.take(point);
    return (
      armed ??
      [...this.breakpoints].find(([, breakpoint]) => breakpointMatches(breakpoint, point))?.[0]
    );
  }

  /** Holds every point from now on (points already past the gate run on). */
  pause(): void {
    this.paused = true;
  }

  /** Lets the oldest held point through and keeps holding; returns it, if any. */
  step(): GatePoint | undefined {
    this.paused = true;
    const entry = this.waiting.shift();
    if (entry !== undefined) this.release(entry, 'step');
    return entry?.point;
  }

  /** Stops holding: every held point goes on, in order, until the next breakpoint. */
  continue(): void {
    this.paused = false;
    // Only the points held now: one that arrives while these are released is judged afresh.
    for (const entry of this.waiting.splice(0)) this.release(entry, 'continue');
  }

  /** Adds the breakpoint, or removes it when set; returns whether it is now set. */
  toggleBreakpoint(spec: string): boolean {
    const breakpoint = parseBreakpoint(spec);
    const text = formatBreakpoint(breakpoint);
    const set = !this.breakpoints.delete(text);
    if (set) {
      this.breakpoints.set(text, breakpoint);
      this.arming.added();
    } else {
      this.arming.removed(text);
    }
    // Every client of the run (other attached TUIs) learns the list from the event this becomes.
    this.notify({ type: 'breakpoints.changed', breakpoint: text, set, breakpoints: this.list() });
    return set;
  }

  /** The breakpoints, in the order they were set. */
  list(): string[] {
    return [...this.breakpoints.keys()];
  }

  /** The points currently held, oldest first. */
  held(): GatePoint[] {
    return this.waiting.map((entry) => entry.point);
  }

  /** Adds a listener for pause, resume and breakpoint notices; returns the function that removes it. */
  onNotice(listener: (notice: GateNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private release(entry: HeldEntry, how: GateResumeHow): void {
    entry.signal?.removeEventListener('abort', entry.onAbort);
    this.notify({ type: 'gate.resumed', point: entry.point, how });
    entry.resolve();
  }

  private abortHeld(entry: HeldEntry): void {
    const position = this.waiting.indexOf(entry);
    if (position < 0) return;
    this.waiting.splice(position, 1);
    this.notify({ type: 'gate.resumed', point: entry.point, how: 'aborted' });
    entry.reject(abortError('the held step was aborted'));
  }

  private notify(notice: GateNotice): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(notice);
      } catch {
        // A failing listener must not leave a point held forever or released twice.
      }
    }
  }
}
