type Crypto = typeof import("node:crypto");
let loaded: Crypto | undefined;
/**
 * node:crypto on first use: most servers never sign anything, and loading it costs a few ms of
 * start-up. Through process.getBuiltinModule, not an import, so that the fetch handler's module
 * graph stays free of node: imports (Node >= 20.16, Bun, Deno, workerd with nodejs_compat).
 */
function crypto(): Crypto {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  loaded ??= process?.getBuiltinModule?.("node:crypto") as Crypto | undefined;
  if (!loaded) throw new Error("signing cursors and requestState needs node:crypto (on Cloudflare Workers, set the nodejs_compat flag)");
  return loaded;
}

/**
 * The key of every token a server seals, or several: tokens are sealed with the first and
 * accepted from any, so a key is rotated by putting the new one first and dropping the old one
 * once its tokens have expired. Instances behind one load balancer share it.
 */
export type Secret = string | Uint8Array | readonly (string | Uint8Array)[];

/**
 * Tamper-evident tokens for state that travels through the client (pagination cursors,
 * requestState): `base64url(JSON).base64url(HMAC-SHA256)`. Readable by whoever holds one, and
 * refused when not issued with one of these keys, for this purpose, or altered in any way. The
 * purpose is signed with the body, so a token made for one use (a cursor) is refused for another
 * (a requestState) under the same key.
 */
export class Sealer {
  private keys: readonly Uint8Array[] | undefined;

  /** `secret`: the HMAC key(s); random per process when absent (share one across instances behind a load balancer). */
  constructor(private readonly secret?: Secret) {
    if (Array.isArray(secret) && secret.length === 0) throw new Error("a key set for sealing needs at least one key");
  }

  seal(purpose: string, payload: unknown): string {
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return `${body}.${this.sign(this.keySet()[0]!, purpose, body)}`;
  }

  /** The payload, or undefined when the token was not sealed with one of these keys for `purpose`, or was altered. */
  open(purpose: string, token: string): unknown {
    const dot = token.lastIndexOf(".");
    if (dot < 0) return undefined;
    const body = token.slice(0, dot);
    // Compared as text: decoding would also accept the non-canonical spellings of a signature
    // (base64url's last character carries spare bits).
    const signature = Buffer.from(token.slice(dot + 1));
    const sealed = this.keySet().some((key) => {
      const expected = Buffer.from(this.sign(key, purpose, body));
      return signature.length === expected.length && crypto().timingSafeEqual(signature, expected);
    });
    return sealed ? JSON.parse(Buffer.from(body, "base64url").toString("utf8")) : undefined;
  }

  private keySet(): readonly Uint8Array[] {
    const asKey = (key: string | Uint8Array) => (typeof key === "string" ? Buffer.from(key) : key);
    return (this.keys ??=
      this.secret === undefined ? [crypto().randomBytes(32)] : Array.isArray(this.secret) ? this.secret.map(asKey) : [asKey(this.secret as string | Uint8Array)]);
  }

  private sign(key: Uint8Array, purpose: string, body: string): string {
    return crypto().createHmac("sha256", key).update(`${purpose}.${body}`).digest("base64url");
  }
}

/** A random, unguessable identifier (128 bits). */
export function nonce(): string {
  return crypto().randomBytes(16).toString("base64url");
}

/** SHA-256 of `text`, base64url. */
export function digest(text: string): string {
  return crypto().createHash("sha256").update(text).digest("base64url");
}
