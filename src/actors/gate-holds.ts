/**
 * The step gate's holds on what goes wrong or what a router decided, as gate points: each
 * failed tool result before it goes back to the model (`--break error`), and a router's
 * chosen route before it takes effect (`--break route`). The open gate never holds, so
 * nothing is formatted or redacted for it.
 */
import type { RouteConfig } from '../config/config-types.ts';
import type { ToolResultPart } from '../models/model-types.ts';
import { openGate, type StepGate } from '../runtime/gate.ts';
import { resultText } from '../machines/failure-gate.ts';

/** The gate and redaction the holds of one actor use. */
export interface HoldSite {
  gate: StepGate;
  actor: string;
  redact: (text: string) => string;
}

/** Holds each failed result in call order, its detail the error text as the model will read it. */
export async function holdFailedResults(
  site: HoldSite,
  failures: readonly ToolResultPart[],
  signal: AbortSignal,
): Promise<void> {
  if (site.gate === openGate) return;
  for (const failure of failures) {
    await site.gate.before(
      {
        kind: 'error',
        actor: site.actor,
        tool: failure.name,
        detail: site.redact(resultText(failure)),
      },
      signal,
    );
  }
}

/** Holds before the chosen route takes effect; `route` null is `none`. */
export async function holdChosenRoute(
  site: HoldSite,
  routes: readonly RouteConfig[],
  route: string | null,
  signal: AbortSignal,
): Promise<void> {
  if (site.gate === openGate) return;
  await site.gate.before(
    { kind: 'route', actor: site.actor, detail: site.redact(routeDetail(routes, route)) },
    signal,
  );
}

/** `urgent → task escalate (when: the ticket is urgent)`, or `none` and what it passed over. */
export function routeDetail(routes: readonly RouteConfig[], route: string | null): string {
  const chosen = routes.find((candidate) => candidate.key === route);
  if (chosen === undefined) {
    const keys = routes.map((candidate) => candidate.key).join(', ');
    return `none (no route taken; routes: ${keys})`;
  }
  return `${chosen.key} → ${chosen.target.kind} ${chosen.target.name} (when: ${chosen.condition})`;
}
