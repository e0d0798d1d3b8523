// Runs code as if on another platform, as runtime/util/platform.ts tells them apart: by globals.

type Globals = { navigator?: unknown; EdgeRuntime?: unknown };

/** `work` with globalThis[name] set to `value`, put back afterwards (also when it throws or rejects). */
async function withGlobal<T>(name: keyof Globals, value: unknown, work: () => T | Promise<T>): Promise<T> {
  const before = Object.getOwnPropertyDescriptor(globalThis, name);
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  try {
    return await work();
  } finally {
    if (before) Object.defineProperty(globalThis, name, before);
    else delete (globalThis as Globals)[name];
  }
}

/** As on workerd (Cloudflare Workers): navigator.userAgent is "Cloudflare-Workers". */
export function asWorkerd<T>(work: () => T | Promise<T>): Promise<T> {
  return withGlobal("navigator", { userAgent: "Cloudflare-Workers" }, work);
}

/** As on Vercel Edge: EdgeRuntime is a string. */
export function asVercelEdge<T>(work: () => T | Promise<T>): Promise<T> {
  return withGlobal("EdgeRuntime", "edge-runtime", work);
}
