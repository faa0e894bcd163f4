/**
 * Wire forms remembered per conversation object. A conversation only grows between turns (new
 * messages are appended; a cut, compacted, forked or edited conversation holds new message
 * objects or a subset of the old ones), so a message converted for one request is converted
 * the same way for the next: each adapter converts a message (and a tool definition) once and
 * reuses its wire form, instead of converting the whole conversation on every request. Keyed
 * by the object itself in a WeakMap, so a message that leaves every conversation leaves the
 * cache with it. What this relies on: a message, part or tool definition is not changed in
 * place once sent (every layer appends new objects; docs/decisions.md, "Wire forms cached per
 * message"). Cached wire forms are shared between requests: callers copy, never change them.
 */

import { perObject } from '../base/per-object.ts';

/** `convert(key)`, computed once per key object. */
export function wireCache<Key extends object, Wire>(
  convert: (key: Key) => Wire,
): (key: Key) => Wire {
  return perObject(convert);
}
