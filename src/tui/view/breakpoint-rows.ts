/**
 * The rows of the breakpoint list (`B`): the breakpoints that are on or off as a whole (stall,
 * loop, route, error) always listed with their mark, then every other breakpoint set now
 * (tool, actor, model, cost, tokens), which toggling removes.
 */
import { TOGGLEABLE_BREAKPOINTS } from '../../runtime/gate.ts';

/** One row: the breakpoint's spec and whether it is set. */
export interface BreakpointRow {
  spec: string;
  on: boolean;
}

/** The rows for the breakpoints set now (in the gate's order after the toggleable ones). */
export function breakpointRows(set: readonly string[]): BreakpointRow[] {
  const toggleable: readonly string[] = TOGGLEABLE_BREAKPOINTS;
  return [
    ...toggleable.map((spec) => ({ spec, on: set.includes(spec) })),
    ...set.filter((spec) => !toggleable.includes(spec)).map((spec) => ({ spec, on: true })),
  ];
}

/** What each toggleable kind holds, for the list's second column. */
export const BREAKPOINT_MEANINGS: Readonly<Record<string, string>> = {
  stall: "a commander's next step after it stalls",
  loop: "an actor's next step after it loops",
  route: 'before a chosen route takes effect',
  error: 'before a failed tool result reaches the model',
};
