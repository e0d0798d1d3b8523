/**
 * 2026-07-28: list, read and discover results say how long they stay fresh (`ttlMs`) and
 * whether they may be shared between users (`cacheScope`: "public", or "private", the default).
 * The cache keeps a fresh result under its method and params; a private one also under the
 * client's partition, so that a store shared by several clients never hands one user's result
 * to another. `list_changed` and `resources/updated` evict what they make stale.
 */

import { canonicalJson } from "../util/canonical-json.js";

/** A cached result and when it expires. */
export interface CachedResult {
  readonly expiresAt: number;
  readonly result: Record<string, unknown>;
}

/** Where results are kept: a Map by default; several clients may share one. */
export interface CacheStore {
  /** The entry under `key`, if any. */
  get(key: string): CachedResult | undefined;
  /** Stores `entry` under `key`. */
  set(key: string, entry: CachedResult): unknown;
  /** Drops the entry under `key`. */
  delete(key: string): unknown;
  /** Every key held. */
  keys(): Iterable<string>;
}

/** How the client caches results the server marks cacheable (`ttlMs`, `cacheScope`): the store, this client's partition of it, and its size. */
export interface CacheOptions {
  readonly store?: CacheStore;
  /** Who this client acts for: private results are kept under it (default: this client alone). */
  readonly partition?: string;
  /** The most entries kept in the default store (default 1000); the oldest go first. */
  readonly maxEntries?: number;
}

let clients = 0;

export class ResponseCache {
  private readonly store: CacheStore;
  private readonly partition: string;
  private readonly maxEntries: number;

  constructor(options: CacheOptions = {}) {
    this.store = options.store ?? new Map();
    this.partition = options.partition ?? `client-${++clients}`;
    this.maxEntries = options.maxEntries ?? 1000;
  }

  /** A fresh result for this request, private entries first. */
  get(method: string, params: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
    const now = Date.now();
    for (const key of [this.key("private", method, params), this.key("public", method, params)]) {
      const entry = this.store.get(key);
      if (!entry) continue;
      if (entry.expiresAt > now) return entry.result;
      this.store.delete(key);
    }
    return undefined;
  }

  /** Keeps a result that says it may be kept: `ttlMs` > 0. */
  put(method: string, params: Readonly<Record<string, unknown>>, result: Record<string, unknown>): void {
    const ttlMs = result.ttlMs;
    if (typeof ttlMs !== "number" || !(ttlMs > 0)) return;
    const scope = result.cacheScope === "public" ? "public" : "private";
    if (this.store instanceof Map && this.store.size >= this.maxEntries) {
      const oldest = this.store.keys().next();
      if (!oldest.done) this.store.delete(oldest.value);
    }
    this.store.set(this.key(scope, method, params), { expiresAt: Date.now() + ttlMs, result });
  }

  /** Drops every entry of `method`, or only those whose params match `where`. */
  evict(method: string, where?: (params: Record<string, unknown>) => boolean): void {
    for (const key of [...this.store.keys()]) {
      const [, scope, keyMethod, params] = /^(public|private:[^\n]*)\n([^\n]*)\n(.*)$/s.exec(key) ?? [];
      if (keyMethod !== method || (scope !== "public" && scope !== `private:${this.partition}`)) continue;
      if (!where || where(JSON.parse(params!) as Record<string, unknown>)) this.store.delete(key);
    }
  }

  private key(scope: "public" | "private", method: string, params: Readonly<Record<string, unknown>>): string {
    const { _meta, ...rest } = params;
    return `${scope === "public" ? "public" : `private:${this.partition}`}\n${method}\n${canonicalJson(rest)}`;
  }
}
