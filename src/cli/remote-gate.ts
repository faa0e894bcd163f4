/**
 * The debugger of a served run, as `sortie attach` shows it in the TUI: a mirror of the run's
 * gate on the server. What the gate holds comes from the run's `gate.paused` and
 * `gate.resumed` events, its breakpoints (whoever set them) from `breakpoints.changed`; pausing, stepping, continuing and breakpoints are sent to
 * `POST /api/runs/{id}/control`, and the gate it answers with (paused, breakpoints) replaces
 * the mirror's. The TUI's commands are synchronous: the mirror changes at once, the request
 * follows, and a failed request is reported through `onError`.
 */
import type { MissionEvent } from '../base/events.ts';
import { samePoint } from '../base/gate-point.ts';
import { reasonOf } from '../base/reason.ts';
import {
  formatBreakpoint,
  parseBreakpoint,
  type GateControls,
  type GatePoint,
} from '../runtime/gate.ts';
import type { ServeClient } from './serve-client.ts';

/** The gate as `/api/runs/{id}/control` answers it. */
interface GateAnswer {
  paused?: unknown;
  breakpoints?: unknown;
}

/** A served run's gate, driven over HTTP. */
export class RemoteGate implements GateControls {
  private paused = false;
  private breakpoints: string[] = [];
  private readonly points: GatePoint[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly client: ServeClient,
    private readonly runId: string,
    private readonly onError: (message: string) => void,
  ) {}

  /** Reads the gate as the server has it now (rejects when the run is not running there). */
  async load(): Promise<void> {
    this.adopt(await this.client.json('GET', this.path()));
  }

  get isPaused(): boolean {
    return this.paused;
  }

  pause(): void {
    this.paused = true;
    this.send({ action: 'pause' });
  }

  step(): GatePoint | undefined {
    this.paused = true;
    this.send({ action: 'step' });
    // The server lets its oldest held point go: the oldest this mirror knows of.
    return this.points[0];
  }

  continue(): void {
    this.paused = false;
    this.send({ action: 'continue' });
  }

  toggleBreakpoint(spec: string): boolean {
    const text = formatBreakpoint(parseBreakpoint(spec));
    const set = !this.breakpoints.includes(text);
    this.breakpoints = set
      ? [...this.breakpoints, text]
      : this.breakpoints.filter((breakpoint) => breakpoint !== text);
    this.send({ action: set ? 'break' : 'unbreak', breakpoint: text });
    return set;
  }

  list(): string[] {
    return [...this.breakpoints];
  }

  held(): GatePoint[] {
    return [...this.points];
  }

  onNotice(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows the run's events: the points the server's gate holds and lets go, its breakpoints. */
  observe(event: MissionEvent): void {
    if (event.type === 'gate.paused') {
      this.points.push(event.point);
      this.paused = true;
    } else if (event.type === 'gate.resumed') {
      const index = this.points.findIndex((point) => samePoint(point, event.point));
      if (index >= 0) this.points.splice(index, 1);
      if (event.how === 'continue') this.paused = false;
    } else if (event.type === 'breakpoints.changed') {
      this.breakpoints = [...event.breakpoints];
    } else {
      return;
    }
    this.notify();
  }

  private path(): string {
    return `/api/runs/${encodeURIComponent(this.runId)}/control`;
  }

  private send(body: Record<string, string>): void {
    this.client.json('POST', this.path(), body).then(
      (answer) => this.adopt(answer),
      (error: unknown) => this.onError(reasonOf(error)),
    );
  }

  private adopt(answer: GateAnswer): void {
    if (typeof answer.paused === 'boolean') this.paused = answer.paused;
    if (Array.isArray(answer.breakpoints)) this.breakpoints = answer.breakpoints.map(String);
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
