import { createRedactor } from '../base/redact.ts';
import type { Redactor } from '../base/redact.ts';
import type { AgentTool, ToolOutcome } from './builtins/agent-tool.ts';
import { errorOutcome } from './builtins/agent-tool.ts';

/** Protected values by name, as `${secrets.NAME}` refers to them. */
export type SecretValues = Readonly<Record<string, string>>;

/** Arguments with every placeholder replaced, or the error result text. */
export type SecretSubstitution =
  { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

const PLACEHOLDER = /\$\{secrets\.([A-Za-z_][A-Za-z0-9_]*)\}/g;

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
  const replaced = replaceDeep(args, secrets, unknown) as Record<string, unknown>;
  if (unknown.size === 0) return { ok: true, args: replaced };
  const names = Object.keys(secrets);
  const available =
    names.length === 0 ? 'no secrets are available' : `available secrets: ${names.join(', ')}`;
  const missing = [...unknown].map((name) => `"${name}"`).join(', ');
  return { ok: false, error: `unknown secret ${missing} in the arguments; ${available}` };
}

function replaceDeep(value: unknown, secrets: SecretValues, unknown: Set<string>): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (placeholder, name: string) => {
      if (!Object.hasOwn(secrets, name)) {
        unknown.add(name);
        return placeholder;
      }
      return secrets[name] ?? '';
    });
  }
  if (Array.isArray(value)) return value.map((item) => replaceDeep(item, secrets, unknown));
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(copy, key, {
        value: replaceDeep(item, secrets, unknown),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return value;
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
 */
export function withSecrets(tool: AgentTool, secrets: SecretValues): AgentTool {
  const redact = secretRedactor(Object.values(secrets));
  return {
    definition: tool.definition,
    ...(tool.validatesOwnArguments === true ? { validatesOwnArguments: true } : {}),
    async execute(args, context) {
      const substitution = substituteSecrets(args, secrets);
      if (!substitution.ok) return errorOutcome(substitution.error);
      return redactOutcome(await tool.execute(substitution.args, context), redact);
    },
  };
}
