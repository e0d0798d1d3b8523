import type { NonceStore } from "./nonce-store.js";
import type { RedisCommands } from "./redis-connection.js";

/**
 * Nonces in Redis, shared by every instance: `SET key 1 NX PXAT expiry` succeeds for the first
 * claimer only, atomically, and Redis forgets the key when the state would have expired anyway.
 */
export class RedisNonceStore implements NonceStore {
  constructor(
    private readonly redis: RedisCommands,
    private readonly prefix = "mcp:",
  ) {}

  async claim(nonce: string, expiresAt: number): Promise<boolean> {
    if (expiresAt <= Date.now()) return false;
    const reply = await this.redis.sendCommand(["SET", `${this.prefix}nonce:${nonce}`, "1", "NX", "PXAT", String(Math.ceil(expiresAt))]);
    return reply === "OK";
  }
}
