/**
 * The breakpoint keys: `b` toggles the breakpoint on what is selected (the actor, the tool under
 * the cursor, or the row of the breakpoint list), and the list's `a` line sets one typed as on
 * the command line (`cost:0.50`, `tokens:20000`, `tool:web_get`). Specs are read by the gate's
 * own parser, so the list accepts exactly what `--break` does; a served run's gate (`sortie
 * attach`) sends the change to the server.
 */
import type { Dispatch, SetStateAction } from 'react';
import { UsageError } from '../../base/errors.ts';
import { formatBreakpoint, parseBreakpoint, type GateControls } from '../../runtime/gate.ts';
import type { KeyContext } from '../keys.ts';
import { breakpointRows } from '../view/breakpoint-rows.ts';
import type { ViewState } from '../view/view-state.ts';

/** What the breakpoint commands act on. */
export interface BreakpointTargets {
  context: KeyContext;
  view: ViewState;
  setView: Dispatch<SetStateAction<ViewState>>;
  setNotice: (notice: string) => void;
  /** The detail block under the cursor (a tool call's block names its tool). */
  detailBlock: { tool?: string } | null;
  selectedActor: string | null;
  breakpoints: readonly string[];
  refreshGate: () => void;
}

/** `b`, `space` or `enter` in the list: sets or removes the breakpoint of what is selected. */
export function toggleBreakpoint(targets: BreakpointTargets, gate: GateControls): string {
  let spec: string | undefined;
  if (targets.context.overlay === 'breakpoints') {
    spec = breakpointRows(targets.breakpoints)[targets.view.breakpointCursor]?.spec;
  } else if (targets.context.pane === 'detail' && targets.detailBlock?.tool !== undefined) {
    spec = `tool:${targets.detailBlock.tool}`;
  } else if (targets.selectedActor !== null) {
    spec = `actor:${targets.selectedActor}`;
  }
  if (spec === undefined) return 'nothing selected';
  try {
    const set = gate.toggleBreakpoint(spec);
    return `breakpoint ${spec} ${set ? 'set' : 'removed'}`;
  } catch (error) {
    // Ids come from events; one the gate cannot parse must not take the screen down.
    if (error instanceof UsageError) return `cannot set breakpoint ${spec}: ${error.message}`;
    throw error;
  }
}

/**
 * `enter` on the list's typed line: sets the breakpoint and goes back to the list with its row
 * under the cursor, or keeps the line open with what is wrong (a bad spec, one already set).
 */
export function addTypedBreakpoint(targets: BreakpointTargets, gate: GateControls): void {
  const typed = targets.view.breakpointTyped;
  let text: string;
  try {
    text = formatBreakpoint(parseBreakpoint(typed));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const problem = error.hint === undefined ? error.message : `${error.message}: ${error.hint}`;
    targets.setView((view) => ({ ...view, breakpointProblem: problem }));
    return;
  }
  if (gate.list().includes(text)) {
    const problem = `${text} is already set (space on its row removes it)`;
    targets.setView((view) => ({ ...view, breakpointProblem: problem }));
    return;
  }
  gate.toggleBreakpoint(text);
  targets.refreshGate();
  const row = breakpointRows(gate.list()).findIndex((candidate) => candidate.spec === text);
  targets.setView((view) => ({
    ...view,
    overlay: 'breakpoints',
    breakpointTyped: '',
    breakpointProblem: null,
    breakpointCursor: Math.max(0, row),
  }));
  targets.setNotice(`breakpoint ${text} set`);
}
