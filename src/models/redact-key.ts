import { escapeRegExp } from '../base/redact.ts';

/** The text an API key is replaced with wherever it would be shown. */
const REDACTED = '[redacted]';

/**
 * Removes an API key from a provider's message. Besides the exact key, masked echoes such as
 * `sk-pro************abcd` (providers print the key's ends around stars) are removed too.
 */
export function redactKey(text: string, apiKey: string | undefined): string {
  if (apiKey === undefined || apiKey.length < 4) return text;
  const head = escapeRegExp(apiKey.slice(0, 3));
  const tail = escapeRegExp(apiKey.slice(-4));
  const masked = new RegExp(`${head}[^\\s"']*\\*[^\\s"']*${tail}`, 'g');
  return text.split(apiKey).join(REDACTED).replace(masked, REDACTED);
}
