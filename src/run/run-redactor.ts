/**
 * The run's redactor: every value that must never be printed — secret variables, API keys
 * (literal or from any variable), protected mission inputs — replaced with `••••`. The
 * engine, the CLI and the event bus share it so all outputs hide the same values.
 */
import { ConfigError } from '../base/errors.ts';
import { perObject } from '../base/per-object.ts';
import { resolveDeferredString } from '../config/resolve-model.ts';
import { secretValues } from '../config/requirements.ts';
import type { Config, MissionConfig } from '../config/config-types.ts';
import type { Redactor } from '../base/redact.ts';
import { secretRedactor } from '../tools/secrets.ts';
import { rememberEventJson } from '../base/event-json.ts';
import { isJournaled, type MissionEvent } from '../base/events.ts';

/** Protected input values by input name (non-strings as their JSON text), in field order. */
export function protectedInputValues(
  mission: MissionConfig,
  inputs: Record<string, unknown>,
): Map<string, string> {
  const values = new Map<string, string>();
  for (const field of mission.inputs?.fields ?? []) {
    if (!field.protected || !Object.hasOwn(inputs, field.name)) continue;
    const value = inputs[field.name];
    if (value === undefined || value === null) continue;
    values.set(field.name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return values;
}

/** Every secret text of a run: secret variables, API keys, protected inputs of the missions given. */
export function runSecretValues(
  config: Config,
  missions: ReadonlyArray<{ mission: MissionConfig; inputs: Record<string, unknown> }> = [],
): string[] {
  const values = new Set(configSecretValues(config));
  for (const { mission, inputs } of missions) {
    for (const value of protectedInputValues(mission, inputs).values()) values.add(value);
  }
  return [...values];
}

/**
 * The configuration's own secrets, per loaded configuration (which does not change once
 * loaded): a run asks three times, a process runs the same project again and again.
 */
const configSecretValues = perObject((config: Config): readonly string[] => {
  const found = new Set(secretValues(config));
  // Keys from non-secret variables are still keys: resolve each block's key as the clients will.
  for (const block of config.models.values()) {
    if (block.apiKey === undefined) continue;
    try {
      found.add(resolveDeferredString(config, block.apiKey, [`model "${block.name}"`]));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
    }
  }
  return [...found];
});

/** The text redactor of a run (`••••`); pass the missions whose protected inputs are known. */
export function createRunRedactor(
  config: Config,
  missions: ReadonlyArray<{ mission: MissionConfig; inputs: Record<string, unknown> }> = [],
): Redactor {
  const values = runSecretValues(config, missions);
  const key = values.join('\u0000');
  const known = redactors.get(key);
  if (known !== undefined) {
    // Most recently used last, so the oldest is dropped first.
    redactors.delete(key);
    redactors.set(key, known);
    return known;
  }
  const redactor = secretRedactor(values);
  redactors.set(key, redactor);
  const oldest = redactors.keys().next().value;
  if (redactors.size > REMEMBERED_REDACTORS && oldest !== undefined) redactors.delete(oldest);
  return redactor;
}

/**
 * Redactors by their secret values: a run builds its redactor three times (the library or
 * CLI wiring, the bus, the mission's services) and a process runs the same project again and
 * again, so each set of values compiles its pattern once. The values stay in memory only, as
 * in the configuration that holds them.
 */
const redactors = new Map<string, Redactor>();
const REMEMBERED_REDACTORS = 16;

/**
 * The event bus's `redact` hook built from a text redactor, or from a holder whose current
 * redactor chained missions widen: every string of the event (keys included). Copy-on-write:
 * objects and arrays holding no secret are returned as they are. A run without any secret
 * costs nothing per event. Otherwise a journaled event (the common one, holding no secret)
 * costs one pass of the secrets pattern over its JSON text, which the journal then writes;
 * an event the journal skips (`model.delta`) is not stringified: its few strings are checked
 * one by one. When a secret has a character JSON escapes, every string is checked.
 */
export function eventRedactor(
  source: Redactor | { readonly current: Redactor },
): (event: MissionEvent) => MissionEvent {
  return (event) => {
    const redact = typeof source === 'function' ? source : source.current;
    if (redact.redactsNothing === true) return event;
    if (redact.plainInJson === true && isJournaled(event)) {
      const json = jsonText(event);
      if (json !== undefined && redact(json) === json) {
        rememberEventJson(event, json);
        return event;
      }
    }
    return redactShared(event, redact) as MissionEvent;
  };
}

function jsonText(event: MissionEvent): string | undefined {
  try {
    return JSON.stringify(event);
  } catch {
    // Not JSON (a defect the journal reports with the event's type and seq).
    return undefined;
  }
}

function redactShared(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const redacted = redactShared(item, redact);
      if (redacted !== item && copy === undefined) copy = value.slice(0, index);
      copy?.push(redacted);
    }
    return copy ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  let changed = false;
  const redactedEntries = entries.map(([key, item]): [string, unknown] => {
    const redactedKey = redact(key);
    const redacted = redactShared(item, redact);
    if (redactedKey !== key || redacted !== item) changed = true;
    return [redactedKey, redacted];
  });
  return changed ? Object.fromEntries(redactedEntries) : value;
}
