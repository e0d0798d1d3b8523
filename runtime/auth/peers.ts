import type * as Jose from "jose";
import type * as OAuth from "oauth4webapi";

/**
 * The optional peers of `@mcp-codegen/runtime/auth`, loaded only inside the functions that need
 * them: jose for JWT verification and DPoP proofs (server), oauth4webapi for the OAuth flows
 * (client) and introspection. A missing one is an error that names it and the install line.
 */
export class MissingPeerError extends Error {
  override readonly name = "MissingPeerError";
  constructor(
    readonly packageName: "jose" | "oauth4webapi",
    readonly feature: string,
    options?: { cause?: unknown },
  ) {
    super(`${feature} needs the optional package ${packageName}, which is not installed: run \`npm install ${packageName}\` (or your package manager's equivalent)`, options);
  }
}

let oauthModule: typeof OAuth | undefined;

/** jose, for `feature` (said in the error when it is missing). */
export function loadJose(feature: string): Promise<typeof Jose> {
  return load("jose", feature, () => import("jose"));
}

/** oauth4webapi, for `feature`; afterwards o4w() returns it synchronously. */
export async function loadOAuth(feature: string): Promise<typeof OAuth> {
  return (oauthModule ??= await load("oauth4webapi", feature, () => import("oauth4webapi")));
}

/** oauth4webapi, once loadOAuth has run (every entry point of the flows awaits it first). */
export function o4w(): typeof OAuth {
  if (!oauthModule) throw new Error("internal: oauth4webapi used before loadOAuth()");
  return oauthModule;
}

async function load<T>(name: "jose" | "oauth4webapi", feature: string, importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    // Node: ERR_MODULE_NOT_FOUND; Bun, Deno and bundlers say "Cannot find module/package 'name'".
    if (e?.code === "ERR_MODULE_NOT_FOUND" || (typeof e?.message === "string" && e.message.includes(name) && /cannot find|not found|could not resolve/i.test(e.message)))
      throw new MissingPeerError(name, feature, { cause: error });
    throw error;
  }
}
