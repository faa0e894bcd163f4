/**
 * A value made once per key object and kept while the key lives: a `WeakMap` from the key to
 * `make(key)`, so the value leaves with the key. For what is derived from an object that does
 * not change once made (a loaded configuration, a message sent, a running machine).
 */

/** What `entryOf` keeps values in: a `Map` or a `WeakMap`. */
interface KeyedStore<Key, Value> {
  get(key: Key): Value | undefined;
  set(key: Key, value: Value): unknown;
}

/** The value `store` holds for `key`; the first time, `make()`'s value, kept in `store`. */
export function entryOf<Key, Value>(
  store: KeyedStore<Key, Value>,
  key: Key,
  make: () => Value,
): Value {
  let value = store.get(key);
  if (value === undefined) {
    value = make();
    store.set(key, value);
  }
  return value;
}

/** `make(key)`, made the first time `key` is asked for and the same value every time after. */
export function perObject<Key extends object, Value>(
  make: (key: Key) => Value,
): (key: Key) => Value {
  const kept = new WeakMap<Key, Value>();
  return (key) => entryOf(kept, key, () => make(key));
}
