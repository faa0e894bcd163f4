/**
 * Breakpoints: where the debugger's gate holds. Some name a point (`tool:NAME`, `actor:ID`,
 * `model`, `route` before a router's route takes effect, `error` before a failed tool's result
 * reaches the model); the others name something that goes wrong — a signal (`stall`, `loop`) or the run's
 * spend crossing a line (`cost:USD`, `tokens:N`) — and hold the next point after it happens.
 */
import { UsageError } from '../base/errors.ts';
import type { GatePoint } from '../base/events.ts';
import { dollarsToPico } from '../models/cost.ts';

/** A parsed breakpoint. */
export type Breakpoint =
  | { kind: 'tool'; tool: string }
  | { kind: 'actor'; actor: string }
  | { kind: 'model' }
  | { kind: 'route' }
  | { kind: 'error' }
  | { kind: 'signal'; signal: 'stall' | 'loop' }
  /** `dollars` in one form (for the list and to tell two apart), `pico` to compare. */
  | { kind: 'cost'; dollars: string; pico: bigint }
  | { kind: 'tokens'; tokens: number };

const FORMS =
  'use tool:NAME (e.g. tool:call_agent), actor:ID (e.g. actor:commander:analyze), model, route, error, stall, loop, cost:USD (e.g. cost:0.50) or tokens:N (e.g. tokens:100000)';

/** Every form of breakpoint, for messages that name them without the examples. */
export const BREAKPOINT_FORMS =
  'tool:NAME, actor:ID, model, route, error, stall, loop, cost:USD or tokens:N';

/** The breakpoints that are on or off as a whole (the TUI's list toggles them). */
export const TOGGLEABLE_BREAKPOINTS = ['stall', 'loop', 'route', 'error'] as const;

/** Parses a breakpoint spec; a bad one is a usage error (exit 2) with the accepted forms. */
export function parseBreakpoint(spec: string): Breakpoint {
  const text = spec.trim();
  if (text === 'model' || text === 'route' || text === 'error') return { kind: text };
  if (text === 'stall' || text === 'loop') return { kind: 'signal', signal: text };
  const separator = text.indexOf(':');
  const prefix = separator < 0 ? text : text.slice(0, separator);
  const value = separator < 0 ? '' : text.slice(separator + 1).trim();
  if ((prefix === 'tool' || prefix === 'actor') && value !== '' && !/\s/.test(value)) {
    // Tools are named as models see them, but the config's dotted form is accepted too.
    return prefix === 'tool'
      ? { kind: 'tool', tool: value.replaceAll('.', '_') }
      : { kind: 'actor', actor: value };
  }
  if (prefix === 'cost' && /^\$?\d+(\.\d+)?$/.test(value)) {
    const dollars = value.replace('$', '');
    const pico = dollarsToPico(Number(dollars));
    if (pico > 0n) return { kind: 'cost', dollars: canonicalDollars(dollars), pico };
  }
  if (prefix === 'tokens' && /^\d+$/.test(value) && Number(value) > 0) {
    return { kind: 'tokens', tokens: Number(value) };
  }
  throw new UsageError(`bad breakpoint "${spec}"`, FORMS);
}

/**
 * Dollars in one form, so one spend line is one breakpoint however it was typed: at least two
 * decimals, no zeros past them (`0.2`, `0.200` and `00.20` are `0.20`; `3` is `3.00`).
 */
function canonicalDollars(typed: string): string {
  const [whole = '0', fraction = ''] = typed.split('.');
  return `${Number(whole)}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

/** The canonical text of a breakpoint (what `list` shows). */
export function formatBreakpoint(breakpoint: Breakpoint): string {
  switch (breakpoint.kind) {
    case 'model':
    case 'route':
    case 'error':
      return breakpoint.kind;
    case 'tool':
      return `tool:${breakpoint.tool}`;
    case 'actor':
      return `actor:${breakpoint.actor}`;
    case 'signal':
      return breakpoint.signal;
    case 'cost':
      return `cost:${breakpoint.dollars}`;
    case 'tokens':
      return `tokens:${breakpoint.tokens}`;
  }
}

/**
 * Whether a breakpoint stops at a point by the point alone. An actor id also covers the ids
 * nested under it: `actor:commander:analyze` stops `commander:analyze[3]`,
 * `actor:agent:analyze[3]` stops `agent:analyze[3]/researcher`; `actor:commander:an` stops
 * nothing of `analyze`. Route and error points are stopped only by `route` and `error`, so
 * `actor:ID` and `--step` keep stopping where they did. Signal and spend breakpoints never
 * match a point by itself: the events arm them (see BreakpointArming).
 */
export function breakpointMatches(breakpoint: Breakpoint, point: GatePoint): boolean {
  if (heldOnlyByKind(point) && breakpoint.kind !== point.kind) return false;
  switch (breakpoint.kind) {
    case 'model':
    case 'route':
    case 'error':
      return point.kind === breakpoint.kind;
    case 'tool':
      return point.kind === 'tool' && point.tool === breakpoint.tool;
    case 'actor':
      return (
        point.actor === breakpoint.actor ||
        point.actor.startsWith(`${breakpoint.actor}[`) ||
        point.actor.startsWith(`${breakpoint.actor}/`)
      );
    default:
      return false;
  }
}

/** Whether only its own kind's breakpoint holds this point (not a pause, `--step` or `actor:ID`). */
export function heldOnlyByKind(point: GatePoint): boolean {
  return point.kind === 'route' || point.kind === 'error';
}
