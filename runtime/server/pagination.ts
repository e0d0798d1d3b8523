import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Sealer } from "../util/sealed.js";

/**
 * Opaque, tamper-evident cursors: a sealed `{list, offset}`. A cursor names the list it pages
 * (a tools cursor is no good for prompts), and anything the server did not seal is -32602.
 */
export class Paginator {
  constructor(
    readonly pageSize: number,
    private readonly sealer: Sealer,
  ) {
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`pageSize must be a positive integer, not ${pageSize}`);
  }

  page<T>(list: string, items: readonly T[], cursor: unknown): { items: T[]; nextCursor?: string } {
    const offset = cursor === undefined ? 0 : this.offsetOf(list, cursor);
    const end = offset + this.pageSize;
    const page = items.slice(offset, end);
    return end < items.length ? { items: page, nextCursor: this.sealer.seal("cursor", { l: list, o: end }) } : { items: page };
  }

  private offsetOf(list: string, cursor: unknown): number {
    const opened = typeof cursor === "string" ? (this.sealer.open("cursor", cursor) as { l?: unknown; o?: unknown } | undefined) : undefined;
    if (opened?.l !== list || typeof opened.o !== "number")
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: invalid cursor for ${list}`, { cursor });
    return opened.o;
  }
}
