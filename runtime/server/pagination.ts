import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";

/**
 * Opaque, tamper-evident cursors: `base64url({list, offset}).hmac`. A cursor names the list it
 * pages (a tools cursor is no good for prompts), and anything the server did not sign is -32602.
 */
export class Paginator {
  private readonly secret = randomBytes(32);

  constructor(readonly pageSize: number) {
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`pageSize must be a positive integer, not ${pageSize}`);
  }

  page<T>(list: string, items: readonly T[], cursor: unknown): { items: T[]; nextCursor?: string } {
    const offset = cursor === undefined ? 0 : this.offsetOf(list, cursor);
    const end = offset + this.pageSize;
    const page = items.slice(offset, end);
    return end < items.length ? { items: page, nextCursor: this.cursor(list, end) } : { items: page };
  }

  private cursor(list: string, offset: number): string {
    const payload = Buffer.from(JSON.stringify({ l: list, o: offset })).toString("base64url");
    return `${payload}.${this.sign(payload)}`;
  }

  private offsetOf(list: string, cursor: unknown): number {
    const invalid = () => new RpcError(ErrorCode.InvalidParams, `Invalid params: invalid cursor for ${list}`, { cursor });
    if (typeof cursor !== "string") throw invalid();
    const dot = cursor.lastIndexOf(".");
    if (dot < 0) throw invalid();
    const payload = cursor.slice(0, dot);
    const signature = Buffer.from(cursor.slice(dot + 1), "base64url");
    const expected = Buffer.from(this.sign(payload), "base64url");
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw invalid();
    const { l, o } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { l: string; o: number };
    if (l !== list) throw invalid();
    return o;
  }

  private sign(payload: string): string {
    return createHmac("sha256", this.secret).update(payload).digest("base64url");
  }
}
