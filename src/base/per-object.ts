/**
 * A value made once per key object and kept while the key lives: a `WeakMap` from the key to
 * `make(key)`, so the value leaves with the key. For what is derived from an object that does
 * not change once made (a loaded configuration, a message sent, a running machine).
 */

/** `make(key)`, made the first time `key` is asked for and the same value every time after. */
export function perObject<Key extends object, Value>(
  make: (key: Key) => Value,
): (key: Key) => Value {
  const kept = new WeakMap<Key, Value>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = make(key);
      kept.set(key, value);
    }
    return value;
  };
}
