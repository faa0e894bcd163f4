/**
 * `GET` and `POST /api/runs/{id}/control`: the debugger of a served run (what `sortie attach`
 * drives). The GET reads the gate: paused, the points it holds, the breakpoints. The POST acts
 * on it — `pause`, `step`, `continue`, `break` and `unbreak` a breakpoint — and answers with the
 * gate as it is afterwards. Held points are masked with the run's redactor: a held tool call's
 * arguments or a model request's system prompt may hold a protected input.
 */
import type { Context } from 'hono';
import { UsageError } from '../../base/errors.ts';
import { redactDeep } from '../../base/redact.ts';
import {
  BREAKPOINT_FORMS,
  formatBreakpoint,
  parseBreakpoint,
  type GatePoint,
} from '../../runtime/gate.ts';
import type { RunService } from '../run-service.ts';
import type { ServedRun } from '../served-run.ts';
import { RUN_ID } from './api-routes.ts';
import { jsonError } from './guards.ts';
import { readJson } from './submit.ts';

/** The actions `POST /api/runs/{id}/control` takes. */
export const CONTROL_ACTIONS = ['pause', 'step', 'continue', 'break', 'unbreak'] as const;
type ControlAction = (typeof CONTROL_ACTIONS)[number];

/** The gate of a live run as the API shows it. */
function gateView(run: ServedRun, stepped?: GatePoint | null): Record<string, unknown> {
  const { gate } = run;
  return redactDeep(
    {
      run_id: run.runId,
      paused: gate.isPaused,
      held: gate.held(),
      breakpoints: gate.list(),
      ...(stepped === undefined ? {} : { stepped }),
    },
    run.redact(),
  );
}

/** The live run of this server the request names, or the 404 answer. */
function liveRun(context: Context, service: RunService): ServedRun | Response {
  const runId = context.req.param('id') ?? '';
  const run = RUN_ID.test(runId) ? service.find(runId) : undefined;
  if (run === undefined || !run.live) {
    return jsonError(context, 404, 'not_running', `run ${runId} is not running on this server`);
  }
  return run;
}

/** `GET /api/runs/{id}/control`. */
export function readControl(context: Context, service: RunService): Response {
  const run = liveRun(context, service);
  return run instanceof Response ? run : context.json(gateView(run));
}

/** `POST /api/runs/{id}/control` with `{"action": ..., "breakpoint"?: ...}`. */
export function postControl(context: Context, service: RunService): Response {
  const body = readJson(context);
  if (body instanceof Response) return body;
  const { action, breakpoint } = (body.value ?? {}) as { action?: unknown; breakpoint?: unknown };
  if (!CONTROL_ACTIONS.includes(action as ControlAction)) {
    return jsonError(
      context,
      400,
      'invalid_control',
      `send {"action": A} with A one of ${CONTROL_ACTIONS.join(', ')} (break and unbreak also take "breakpoint")`,
    );
  }
  const run = liveRun(context, service);
  if (run instanceof Response) return run;
  const { gate } = run;
  switch (action as ControlAction) {
    case 'pause':
      gate.pause();
      return context.json(gateView(run));
    case 'step':
      return context.json(gateView(run, gate.step() ?? null));
    case 'continue':
      gate.continue();
      return context.json(gateView(run));
    case 'break':
    case 'unbreak':
      return breakpointAction(context, run, action === 'break', breakpoint);
  }
}

/** Sets (`set`) or removes a breakpoint; a missing or malformed one is a 400. */
function breakpointAction(
  context: Context,
  run: ServedRun,
  set: boolean,
  breakpoint: unknown,
): Response {
  if (typeof breakpoint !== 'string') {
    return jsonError(
      context,
      400,
      'invalid_breakpoint',
      `send "breakpoint" as --break takes it: ${BREAKPOINT_FORMS}`,
    );
  }
  try {
    const text = formatBreakpoint(parseBreakpoint(breakpoint));
    if (run.gate.list().includes(text) !== set) run.gate.toggleBreakpoint(text);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return jsonError(
      context,
      400,
      'invalid_breakpoint',
      `${error.message}: use ${BREAKPOINT_FORMS}`,
    );
  }
  return context.json(gateView(run));
}
