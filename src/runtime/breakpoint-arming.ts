/**
 * Breakpoints on what goes wrong: the run's events arm them, and the gate holds the next point
 * they cover. A `stall` or `loop` signal holds the next point of the actor that raised it; the
 * run's spend crossing `cost:USD` or `tokens:N` (a resumed run counts its earlier sessions)
 * holds the next point of any actor, once. One set while the run runs (the TUI's list) whose
 * line the spend is already past holds the next point at once, as a resumed run's flag does.
 */
import type { GatePoint, MissionEvent } from '../base/events.ts';
import { totalTokens } from '../models/usage.ts';
import type { Breakpoint } from './breakpoints.ts';

/** Any actor's next point. */
const ANY = '';

/** What the gate's breakpoints are now, by their text. */
export type BreakpointSource = () => Iterable<[string, Breakpoint]>;

/** Arms breakpoints from events and hands them to the points they hold. */
export class BreakpointArming {
  private readonly armed = new Map<string, string>();
  private readonly crossed = new Set<string>();
  private spentPico = 0n;
  private spentTokens = 0;

  constructor(private readonly breakpoints: BreakpointSource) {}

  /** Reads one of the run's events. */
  observe(event: MissionEvent): void {
    if (event.type === 'signal.raised') {
      for (const [text, breakpoint] of this.breakpoints()) {
        if (breakpoint.kind === 'signal' && breakpoint.signal === event.signal) {
          this.armed.set(event.actor, text);
        }
      }
    } else if (event.type === 'model.response') {
      this.spend(BigInt(event.costPico), totalTokens(event.usage));
    } else if (event.type === 'run.started' && event.before !== undefined) {
      this.spend(BigInt(event.before.costPico), totalTokens(event.before.usage));
    }
  }

  /** A breakpoint was set while the run runs: a spend line already crossed arms at once. */
  added(): void {
    this.spend(0n, 0);
  }

  /** A breakpoint was removed: set again, a spend line holds again when crossed. */
  removed(text: string): void {
    this.crossed.delete(text);
    for (const [key, armed] of this.armed) if (armed === text) this.armed.delete(key);
  }

  /** The breakpoint armed for this point, if any; handing it over disarms it. */
  take(point: GatePoint): string | undefined {
    for (const key of [point.actor, ANY]) {
      const text = this.armed.get(key);
      if (text === undefined) continue;
      this.armed.delete(key);
      // A breakpoint removed since it was armed holds nothing.
      if ([...this.breakpoints()].some(([candidate]) => candidate === text)) return text;
    }
    return undefined;
  }

  private spend(pico: bigint, tokens: number): void {
    this.spentPico += pico;
    this.spentTokens += tokens;
    for (const [text, breakpoint] of this.breakpoints()) {
      if (this.crossed.has(text)) continue;
      const crossed =
        (breakpoint.kind === 'cost' && this.spentPico >= breakpoint.pico) ||
        (breakpoint.kind === 'tokens' && this.spentTokens >= breakpoint.tokens);
      if (!crossed) continue;
      this.crossed.add(text);
      this.armed.set(ANY, text);
    }
  }
}
