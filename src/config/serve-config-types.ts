/**
 * The resolved blocks only `sortie serve` reads: a mission's `schedule` and `trigger` blocks and
 * the project's `mcp_host` block.
 */
import type { Span } from './ast.ts';

/** A time of day on a 24-hour clock, in the schedule's time zone. */
export interface TimeOfDay {
  hour: number;
  minute: number;
}

/**
 * One `schedule` block: exactly one of `at`, `every` and `cron` is set. Fire times are computed
 * in `timezone` (the server's local zone when absent), on `weekdays` only when given.
 */
export interface ScheduleConfig {
  span: Span;
  /** The inputs each fire gives the mission, checked against its inputs at load. */
  inputs: Record<string, unknown>;
  /** Days it fires on, 0 = Sunday … 6 = Saturday, sorted; every day when absent (never with `cron`). */
  weekdays?: number[];
  /** An IANA time zone name, checked at load. */
  timezone?: string;
  /** Fires at exactly these times each day, sorted, without duplicates. */
  at?: TimeOfDay[];
  /** An interval as written (`"15m"`, `"2h"`) that divides an hour or a day; aligned on the clock. */
  every?: string;
  /** A 5-field cron pattern (minute hour day-of-month month day-of-week), checked at load. */
  cron?: string;
}

/** A `trigger` block: `POST /webhooks<webhookPath>` starts the mission under `sortie serve`. */
export interface TriggerConfig {
  /** One leading slash, no trailing one: `/NAME` by default, as in the reference runtime. */
  webhookPath: string;
  /**
   * Compared with the `X-Webhook-Secret` header. A secret value: never printed, journaled or
   * returned (secretValues() lists it for redaction).
   */
  secret?: string;
  /**
   * The variable `secret` reads when that variable has no value: `secret` is then unset, and a
   * server must refuse the trigger rather than take webhooks without their secret.
   */
  unsetSecretVariable?: string;
  span: Span;
}

/** The `mcp_host` block: sortie's MCP server over Streamable HTTP while `sortie serve` runs. */
export interface McpHostConfig {
  enabled: boolean;
  /** Its own port (the reference's default, 8090, when the block names none). */
  port: number;
  /**
   * Clients must send it (`Authorization: Bearer` or `?token=`). A secret value: never printed,
   * journaled or returned (secretValues() lists it for redaction).
   */
  secret?: string;
  /** The variable `secret` reads when that variable has no value: serve leaves the host off. */
  unsetSecretVariable?: string;
  span: Span;
}
