/**
 * The server's Hono app: the guards (Host, token, body limit, CORS, JSON errors), then the
 * API, the event streams, the debugger's controls, the webhooks and the OpenAPI document.
 */
import { Hono } from 'hono';
import type { Config } from '../../config/config-types.ts';
import type { RunService } from '../run-service.ts';
import type { SchedulerClock } from '../scheduler-clock.ts';
import { apiRoutes } from './api-routes.ts';
import { postControl, readControl } from './control-routes.ts';
import { eventStream } from './event-stream.ts';
import { bearerToken, guard } from './guards.ts';
import { openApiDocument } from './openapi.ts';
import { webhookMissions, webhookRoutes } from './webhook-routes.ts';

/** What the app is built from. */
export interface AppOptions {
  config: Config;
  stateDir: string;
  service: RunService;
  /** Every route asks for it when set. */
  token: string | undefined;
  /** The only origin CORS headers are sent for; none are sent without it. */
  corsOrigin: string | undefined;
  /** The Host headers accepted (loopback binds); undefined accepts any. */
  allowedHosts: () => ReadonlySet<string> | undefined;
  version: string;
  /** The clock of the event streams' keep-alive comments. */
  clock: SchedulerClock;
  /** The time between keep-alive comments on an event stream. */
  keepAliveMs: number;
}

/** The app answering every request of `sortie serve`. */
export function createApp(options: AppOptions): Hono {
  const app = new Hono();
  guard(app, options);
  if (options.token !== undefined) app.use('*', bearerToken(options.token));
  const { config, stateDir, service } = options;
  const document = openApiDocument([...webhookMissions(config).keys()], options.version);
  app.get('/openapi.json', (context) => context.json(document));
  const streams = { service, stateDir, clock: options.clock, keepAliveMs: options.keepAliveMs };
  app.get('/api/runs/:id/events', (context) => eventStream(context, streams));
  app.get('/api/runs/:id/control', (context) => readControl(context, service));
  app.post('/api/runs/:id/control', (context) => postControl(context, service));
  app.route('/api', apiRoutes({ config, stateDir, service }));
  app.route('/webhooks', webhookRoutes(config, service));
  return app;
}
