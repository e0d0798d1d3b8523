import { refuse, type HttpError } from "./errors.js";

/**
 * What the endpoint reads of one HTTP request. Two implementations: {@link webIncoming} over a web
 * `Request` (fetchHandler), and the node:http adapter's over an IncomingMessage.
 */
export interface Incoming {
  readonly method: string;
  /** The path, without the query. */
  readonly path: string;
  /** One header, by its lower-case name, trimmed (RFC 9110 §5.5). */
  header(name: string): string | undefined;
  /** Every header, lower-case names: what handlers see as `ctx.transport.headers`. */
  headers(): Readonly<Record<string, string | string[] | undefined>>;
  /** The body, up to `limit` bytes (413 beyond, refused as soon as it is known). */
  body(limit: number): Promise<Uint8Array | HttpError>;
  /** A body a framework already parsed (express.json()), if any. */
  readonly parsed?: unknown;
  /** The request as a web Request, for the authorization hook and routes. */
  request(): Request;
  /** Keeps the platform running `work` after the response (a Worker's `ctx.waitUntil`); handlers see it as `ctx.transport.waitUntil`. */
  readonly waitUntil?: (work: Promise<unknown>) => void;
}

/** A web Request as the endpoint reads it. */
export function webIncoming(request: Request, waitUntil?: (work: Promise<unknown>) => void): Incoming {
  let path: string | undefined;
  return {
    ...(waitUntil && { waitUntil }),
    method: request.method,
    get path() {
      return (path ??= new URL(request.url).pathname);
    },
    header: (name) => request.headers.get(name)?.trim() ?? (name === "host" ? new URL(request.url).host : undefined),
    headers: () => Object.fromEntries(request.headers),
    body: (limit) => readWebBody(request, limit),
    request: () => request,
  };
}

/** Reads a web body up to `limit` bytes; stops reading (and cancels the stream) once past it. */
export async function readWebBody(request: Request, limit: number): Promise<Uint8Array | HttpError> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return refuse.tooLarge(declared, limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => {});
        return refuse.tooLarge(undefined, limit);
      }
      chunks.push(value);
    }
  } catch (error) {
    return refuse.badRequest(`could not read the body: ${(error as Error).message}`);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
