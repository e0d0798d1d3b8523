/**
 * What the runtime does differently by platform, decided here only. Read at call time: a platform
 * is known by its globals (workerd's navigator.userAgent, Vercel Edge's EdgeRuntime).
 */
interface PlatformGlobals {
  readonly navigator?: { readonly userAgent?: string };
  readonly EdgeRuntime?: unknown;
}

const platform = () => globalThis as PlatformGlobals;
const onWorkerd = () => platform().navigator?.userAgent === "Cloudflare-Workers";

/** Workers and Vercel Edge: no code generation from strings (`new Function`, `eval`), and packages are bundled (imported, never required). */
export function isEdge(): boolean {
  return onWorkerd() || typeof platform().EdgeRuntime === "string";
}

/**
 * On workerd, how often work waiting on another request looks again, from its own context;
 * undefined elsewhere. workerd runs each request in an I/O context of its own and cancels a
 * context's continuations, waitUntil work included, once nothing of its own is pending: a
 * promise another request resolves never resumes it. A timer in the waiting context keeps it
 * alive and lets it see the change.
 */
export function crossRequestPollMs(): number | undefined {
  return onWorkerd() ? 50 : undefined;
}
