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
 * Tamper-evident tokens for state that travels through the client (pagination cursors,
 * requestState): `base64url(JSON).base64url(HMAC-SHA256)`. Readable by whoever holds one, and
 * refused when not issued with this key or altered in any way.
 */
export class Sealer {
  private key: Uint8Array | undefined;

  /** `secret`: the HMAC key; random per process when absent (share one across instances behind a load balancer). */
  constructor(private readonly secret?: Uint8Array | string) {}

  seal(payload: unknown): string {
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return `${body}.${this.sign(body)}`;
  }

  /** The payload, or undefined when the token was not sealed here or was altered. */
  open(token: string): unknown {
    const dot = token.lastIndexOf(".");
    if (dot < 0) return undefined;
    const body = token.slice(0, dot);
    // Compared as text: decoding would also accept the non-canonical spellings of a signature
    // (base64url's last character carries spare bits).
    const signature = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.sign(body));
    if (signature.length !== expected.length || !crypto().timingSafeEqual(signature, expected)) return undefined;
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  }

  private sign(body: string): string {
    this.key ??= typeof this.secret === "string" ? Buffer.from(this.secret) : (this.secret ?? crypto().randomBytes(32));
    return crypto().createHmac("sha256", this.key).update(body).digest("base64url");
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
