/**
 * Setting a key of data read from outside (JSON, HCL, a schema's field names) on an object:
 * an assignment to a key spelled `__proto__` would replace the object's prototype instead.
 */

/** Sets `key` as an own, enumerable, writable data property, as JSON.parse makes it. */
export function setOwn(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
