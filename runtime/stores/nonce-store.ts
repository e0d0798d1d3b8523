/**
 * Single use across instances: a requestState (stateless era) is accepted once, whichever
 * instance behind a load balancer sees it first. The state is signed and carries its nonce and
 * expiry; the store only has to remember which nonces were claimed until they would expire anyway.
 */
export interface NonceStore {
  /** True the first time `nonce` is claimed (by any instance sharing this store), false after; forgotten at `expiresAt` (ms since the epoch). */
  claim(nonce: string, expiresAt: number): Promise<boolean>;
}

/** One process's nonces: the default, enough for a single instance. */
export class MemoryNonceStore implements NonceStore {
  /** nonce -> expiry, in the order claimed. */
  private readonly claimed = new Map<string, number>();

  claim(nonce: string, expiresAt: number): Promise<boolean> {
    const now = Date.now();
    this.forgetExpired(now);
    if (expiresAt <= now || this.claimed.has(nonce)) return Promise.resolve(false);
    this.claimed.set(nonce, expiresAt);
    return Promise.resolve(true);
  }

  /**
   * Forgets nonces from the oldest, stopping at the first one still valid: amortized O(1) per
   * claim (a sweep of the whole map made n claims cost O(n^2)). Nonces are kept in the order they
   * were claimed and all live the same ttl from issue, so the map is close to expiry order; an
   * expired nonce behind a valid one waits at most one ttl, and is harmless meanwhile (its state is
   * refused as expired before it is claimed).
   */
  private forgetExpired(now: number): void {
    for (const [nonce, expiry] of this.claimed) {
      if (expiry > now) break;
      this.claimed.delete(nonce);
    }
  }
}
