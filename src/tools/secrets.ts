import { createRedactor, escapeRegExp, MIN_REDACTED_LENGTH } from '../base/redact.ts';
import type { Redactor } from '../base/redact.ts';
import { perObject } from '../base/per-object.ts';
import type { AgentTool, ToolOutcome } from './builtins/agent-tool.ts';
import { errorOutcome } from './builtins/agent-tool.ts';
import { setOwn } from '../base/own-property.ts';

/** Protected values by name, as `${secrets.NAME}` refers to them. */
export type SecretValues = Readonly<Record<string, string>>;

/** Arguments with every placeholder replaced, or the error result text. */
export type SecretSubstitution =
  { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

const PLACEHOLDER = /\$\{secrets\.([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** Every placeholder starts so: a string without it is not scanned. */
const PLACEHOLDER_START = '${secrets.';

/**
 * Replaces `${secrets.NAME}` in every string value of the arguments, at any depth, with the
 * secret's value. An unknown name fails the whole call; the message lists the available
 * names, never a value. Object keys are left as they are.
 */
export function substituteSecrets(
  args: Record<string, unknown>,
  secrets: SecretValues,
): SecretSubstitution {
  const unknown = new Set<string>();
  const replaced = mapStrings(args, (text) => {
    if (!text.includes(PLACEHOLDER_START)) return text;
    return text.replace(PLACEHOLDER, (placeholder, name: string) => {
      if (!Object.hasOwn(secrets, name)) {
        unknown.add(name);
        return placeholder;
      }
      return secrets[name] ?? '';
    });
  }) as Record<string, unknown>;
  if (unknown.size === 0) return { ok: true, args: replaced };
  const names = Object.keys(secrets);
  const available =
    names.length === 0 ? 'no secrets are available' : `available secrets: ${names.join(', ')}`;
  const missing = [...unknown].map((name) => `"${name}"`).join(', ');
  return { ok: false, error: `unknown secret ${missing} in the arguments; ${available}` };
}

/**
 * Turns every secret value in the string values of the arguments, at any depth, back into
 * its `${secrets.NAME}` placeholder (longest value first); placeholders stay as written.
 * Values shorter than MIN_REDACTED_LENGTH are left, as redaction leaves them.
 */
export function restorePlaceholders(
  args: Record<string, unknown>,
  secrets: SecretValues,
): Record<string, unknown> {
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries(secrets)) {
    if (value.length >= MIN_REDACTED_LENGTH && !names.has(value)) names.set(value, name);
  }
  if (names.size === 0) return args;
  const values = [...names.keys()].sort((left, right) => right.length - left.length);
  const pattern = new RegExp(values.map(escapeRegExp).join('|'), 'g');
  return mapStrings(args, (text) =>
    text.replace(pattern, (value) => `\${secrets.${names.get(value) ?? ''}}`),
  ) as Record<string, unknown>;
}

/** Copy-on-write: a string `map` keeps, and a branch holding only such strings, is returned as it is. */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const replaced = mapStrings(item, map);
      if (replaced !== item && copy === undefined) copy = value.slice(0, index);
      copy?.push(replaced);
    }
    return copy ?? value;
  }
  const entries = Object.entries(value);
  const replaced = entries.map(([, item]) => mapStrings(item, map));
  if (replaced.every((item, index) => item === entries[index]![1])) return value;
  const copy: Record<string, unknown> = {};
  entries.forEach(([key], index) => setOwn(copy, key, replaced[index]));
  return copy;
}

/**
 * A redactor for secret values as they appear in tool results: raw, JSON-escaped (a value
 * holding quotes or backslashes shows up escaped inside compact JSON) and URL-encoded (a
 * server echoing the request URL, as paging links do, returns a `query` secret encoded).
 */
export function secretRedactor(values: Iterable<string>): Redactor {
  const forms = new Set<string>();
  for (const value of values) {
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(encodeURIComponent(value));
    forms.add(new URLSearchParams([['', value]]).toString().slice(1));
  }
  return createRedactor(forms);
}

/** The outcome with every secret value replaced in its text (rich parts: their text parts). */
export function redactOutcome(outcome: ToolOutcome, redact: Redactor): ToolOutcome {
  const content =
    typeof outcome.content === 'string'
      ? redact(outcome.content)
      : outcome.content.map((part) =>
          part.type === 'text' ? { ...part, text: redact(part.text) } : part,
        );
  const redacted: ToolOutcome = { content, isError: outcome.isError };
  if (outcome.payload !== undefined) {
    redacted.payload = { text: redact(outcome.payload.text), beside: outcome.payload.beside };
  }
  return redacted;
}

/**
 * Wraps a tool so `${secrets.NAME}` placeholders are replaced just before it executes and
 * the secret values are removed from what it returns. The model only ever sees placeholders.
 * A tool whose writes outlive the run gets the placeholders themselves (restorePlaceholders).
 */
export function withSecrets(tool: AgentTool, secrets: SecretValues): AgentTool {
  const redact = secretRedactorFor(secrets);
  return {
    definition: tool.definition,
    ...(tool.validatesOwnArguments === true ? { validatesOwnArguments: true } : {}),
    ...(tool.keepsSecretPlaceholders === true ? { keepsSecretPlaceholders: true } : {}),
    async execute(args, context) {
      if (tool.keepsSecretPlaceholders === true) {
        const outcome = await tool.execute(restorePlaceholders(args, secrets), context);
        return redact.redactsNothing === true ? outcome : redactOutcome(outcome, redact);
      }
      const substitution = substituteSecrets(args, secrets);
      if (!substitution.ok) return errorOutcome(substitution.error);
      const outcome = await tool.execute(substitution.args, context);
      // Without secret values there is nothing to remove (an unknown name failed above).
      return redact.redactsNothing === true ? outcome : redactOutcome(outcome, redact);
    },
  };
}

/**
 * One redactor per secrets object: an agent wraps each of its tools with the same secrets, so
 * the pattern is compiled once per agent, and never when there is no secret.
 */
const secretRedactorFor = perObject((secrets: SecretValues): Redactor => {
  const values = Object.values(secrets);
  return values.length === 0 ? NO_SECRETS : secretRedactor(values);
});

const NO_SECRETS = createRedactor([]);
