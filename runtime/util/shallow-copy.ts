/**
 * A shallow copy with own data properties, as a spread makes: "__proto__" stays a key, never a
 * prototype. Built key by key because, in Node 20's V8, adding a key to a spread's result
 * (`{ ...params, _meta }`, or a spread and then an assignment) took a slow path of about 3 µs,
 * where this copy and the same assignment take about 0.2 µs.
 */
export function shallowCopy(source: Record<string, unknown>): Record<string, unknown> {
  const target: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (key === "__proto__") Object.defineProperty(target, key, { value: source[key], enumerable: true, writable: true, configurable: true });
    else target[key] = source[key];
  }
  return target;
}
