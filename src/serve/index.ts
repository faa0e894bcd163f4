/** `sortie serve`: the service's public names (the CLI loads them only for that command). */
export { startServer, type RunningServer, type ServeOptions } from './start-server.ts';
export { isLoopback } from './http/guards.ts';
export { webhookMissions } from './http/webhook-routes.ts';
export { startScheduler, type Scheduler, type SchedulerOptions } from './scheduler.ts';
export type { SchedulerClock } from './scheduler-clock.ts';
