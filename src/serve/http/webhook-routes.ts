/**
 * `POST /webhooks/<webhook_path>`: the `trigger` blocks of the project. The path is the
 * trigger's `webhook_path` (default the mission's name) with its leading `/` dropped, as the
 * reference runtime writes it; a trigger's `secret` must come as `X-Webhook-Secret`, compared
 * in constant time; the JSON object body is the mission's inputs.
 */
import { Hono } from 'hono';
import type { Config, MissionConfig } from '../../config/config-types.ts';
import type { RunService } from '../run-service.ts';
import { jsonError, sameSecret } from './guards.ts';
import { readJson, submitRun } from './submit.ts';

/** A trigger's route under `/webhooks/`: its path without leading slashes. */
export function webhookRoute(path: string): string {
  return path.replace(/^\/+/, '');
}

/** The missions with a `trigger` block by their route under `/webhooks/`. */
export function webhookMissions(config: Config): Map<string, MissionConfig> {
  const byRoute = new Map<string, MissionConfig>();
  for (const mission of config.missions.values()) {
    if (mission.trigger !== undefined) {
      byRoute.set(webhookRoute(mission.trigger.webhookPath), mission);
    }
  }
  return byRoute;
}

/** The `/webhooks` routes. */
export function webhookRoutes(config: Config, service: RunService): Hono {
  const missions = webhookMissions(config);
  const routes = new Hono();
  routes.post('/*', async (context) => {
    const route = safeDecode(context.req.path.slice('/webhooks/'.length));
    const mission = missions.get(route);
    if (mission?.trigger === undefined) {
      return jsonError(context, 404, 'unknown_webhook', `no trigger has the path "${route}"`);
    }
    const { secret, unsetSecretVariable } = mission.trigger;
    if (unsetSecretVariable !== undefined) {
      // Its secret reads a variable with no value: taking webhooks without it would let anyone in.
      return jsonError(
        context,
        503,
        'webhook_disabled',
        `this webhook is off: its secret, variable "${unsetSecretVariable}", has no value`,
      );
    }
    if (secret !== undefined && !sameSecret(context.req.header('x-webhook-secret') ?? '', secret)) {
      return jsonError(context, 401, 'wrong_secret', 'X-Webhook-Secret is missing or wrong');
    }
    const body = readJson(context);
    if (body instanceof Response) return body;
    return submitRun(context, service, mission, body.value, 'webhook');
  });
  return routes;
}

/** A path's text with its %-escapes decoded; a malformed escape stays as it is (no match). */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
