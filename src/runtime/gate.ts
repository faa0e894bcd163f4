/**
 * The step gate: the runtime awaits `gate.before(point)` before every model request and tool
 * execution. The open gate returns at once; the debugger's gate holds points until the person
 * steps or continues. This is the only hook debugging needs.
 */
import { UsageError } from '../base/errors.ts';
import { abortError } from '../base/abort.ts';
import type { GatePauseReason, GatePoint, GateResumeHow } from '../base/events.ts';

export type { GatePoint } from '../base/events.ts';

/** Awaited before every model request and tool execution. */
export interface StepGate {
  /** Resolves when the point may proceed; rejects with an AbortError when `signal` aborts. */
  before(point: GatePoint, signal?: AbortSignal): Promise<void>;
}

/** The default gate: never holds. */
export const openGate: StepGate = {
  before: () => Promise.resolve(),
};

/** A parsed breakpoint: `tool:NAME`, `actor:ID` or `model`. */
export type Breakpoint =
  { kind: 'tool'; tool: string } | { kind: 'actor'; actor: string } | { kind: 'model' };

/** Parses a breakpoint spec; a bad one is a usage error (exit 2) with the accepted forms. */
export function parseBreakpoint(spec: string): Breakpoint {
  const text = spec.trim();
  if (text === 'model') return { kind: 'model' };
  const separator = text.indexOf(':');
  const prefix = separator < 0 ? text : text.slice(0, separator);
  const value = separator < 0 ? '' : text.slice(separator + 1).trim();
  if ((prefix === 'tool' || prefix === 'actor') && value !== '' && !/\s/.test(value)) {
    // Tools are named as models see them, but the config's dotted form is accepted too.
    return prefix === 'tool'
      ? { kind: 'tool', tool: value.replaceAll('.', '_') }
      : { kind: 'actor', actor: value };
  }
  throw new UsageError(
    `bad breakpoint "${spec}"`,
    'use tool:NAME (e.g. tool:call_agent), actor:ID (e.g. actor:commander:analyze) or model',
  );
}

/** The canonical text of a breakpoint (what `list` shows). */
export function formatBreakpoint(breakpoint: Breakpoint): string {
  if (breakpoint.kind === 'model') return 'model';
  return breakpoint.kind === 'tool' ? `tool:${breakpoint.tool}` : `actor:${breakpoint.actor}`;
}

/**
 * Whether a breakpoint stops at a point. An actor id also covers the ids nested under it:
 * `actor:commander:analyze` stops `commander:analyze[3]`, `actor:agent:analyze[3]` stops
 * `agent:analyze[3]/researcher`; `actor:commander:an` stops nothing of `analyze`.
 */
export function breakpointMatches(breakpoint: Breakpoint, point: GatePoint): boolean {
  switch (breakpoint.kind) {
    case 'model':
      return point.kind === 'model';
    case 'tool':
      return point.kind === 'tool' && point.tool === breakpoint.tool;
    case 'actor':
      return (
        point.actor === breakpoint.actor ||
        point.actor.startsWith(`${breakpoint.actor}[`) ||
        point.actor.startsWith(`${breakpoint.actor}/`)
      );
  }
}

/** What the debug gate tells its listener (the wiring turns these into events). */
export type GateNotice =
  | { type: 'gate.paused'; point: GatePoint; reason: GatePauseReason; breakpoint: string | null }
  | { type: 'gate.resumed'; point: GatePoint; how: GateResumeHow };

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
  /** Adds a listener told when the gate holds or lets go of a point; returns its remover. */
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

  before(point: GatePoint, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError('the held step was aborted'));
    const hit = [...this.breakpoints].find(([, breakpoint]) =>
      breakpointMatches(breakpoint, point),
    );
    if (!this.paused && hit === undefined) return Promise.resolve();
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
        breakpoint: hit?.[0] ?? null,
      });
    });
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

  /** The same as `continue` (the TUI's "resume" after a pause). */
  resume(): void {
    this.continue();
  }

  /** Adds the breakpoint, or removes it when set; returns whether it is now set. */
  toggleBreakpoint(spec: string): boolean {
    const text = formatBreakpoint(parseBreakpoint(spec));
    if (this.breakpoints.delete(text)) return false;
    this.breakpoints.set(text, parseBreakpoint(spec));
    return true;
  }

  /** The breakpoints, in the order they were set. */
  list(): string[] {
    return [...this.breakpoints.keys()];
  }

  /** The points currently held, oldest first. */
  held(): GatePoint[] {
    return this.waiting.map((entry) => entry.point);
  }

  /** Adds a listener for pause and resume notices; returns the function that removes it. */
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
