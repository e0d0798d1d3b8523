import type { Reply } from "./reply.js";

/**
 * Server-Sent Events framing (the WHATWG "text/event-stream" format) for JSON-RPC messages. A
 * JSON text has no line breaks, so every message is one `data:` line.
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache, no-transform",
  // Tells nginx-style proxies not to buffer the stream.
  "X-Accel-Buffering": "no",
};

/** One message event; `id` when the stream is resumable. */
export function sseEvent(data: string, id?: string): string {
  return id === undefined ? `event: message\ndata: ${data}\n\n` : `id: ${id}\nevent: message\ndata: ${data}\n\n`;
}

/**
 * The priming event (SEP-1699): an id and empty data, sent first so that the client can resume
 * from the start; `retry` tells it how long to wait before reconnecting.
 */
export function ssePriming(id: string, retryMs?: number): string {
  return retryMs === undefined ? `id: ${id}\ndata: \n\n` : `id: ${id}\nretry: ${retryMs}\ndata: \n\n`;
}

export function startSse(reply: Reply, headers: Readonly<Record<string, string>>): void {
  reply.open({ ...headers, ...SSE_HEADERS });
}
