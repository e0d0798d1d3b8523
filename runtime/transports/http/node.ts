import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { stderrLogger } from "../../util/logger.js";
import { errorBody, HttpError, refuse, TRANSPORT_ERROR } from "./errors.js";
import { StreamableHttpEndpoint, type EndpointOptions } from "./endpoint.js";
import type { Listenable, Listener } from "../endpoint.js";
import type { Incoming } from "./incoming.js";
import { DEFAULT_MAX_BUFFERED_BYTES, DEFAULT_STUCK_TIMEOUT_MS } from "../../jsonrpc/transport.js";
import type { Reply } from "./reply.js";

/**
 * The node:http adapter: Streamable HTTP on a node:http server, as a thin shell over the
 * platform-neutral {@link StreamableHttpEndpoint}. `http(options)` binds a server of its own;
 * `httpHandler(server, options)` returns a `(req, res)` listener for express, fastify or a server
 * of your own.
 */
export interface HttpOptions extends EndpointOptions {
  /** The port to bind (`http()` only); 0 picks a free one, read it back from `port` or `url`. */
  readonly port?: number;
  /** The address to bind (`http()` only). Default 127.0.0.1: only this machine can connect. */
  readonly host?: string;
  /** How long a request body may take to arrive, whole, in ms; then 408. Default 30 s (BODY_TIMEOUT_MS). */
  readonly bodyTimeoutMs?: number;
}

/** A Node `(req, res)` request listener. A body already parsed (express.json()) may be passed as the third argument. */
export type HttpRequestHandler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => void;

export class HttpEndpoint extends StreamableHttpEndpoint {
  private server: Server | undefined;

  constructor(
    private readonly nodeOptions: HttpOptions,
    private readonly bind: boolean,
  ) {
    super({ ...nodeOptions, path: nodeOptions.path ?? (bind ? "/mcp" : undefined) });
  }

  /** The bound port (`http()` only, once listening). */
  get port(): number {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error("the endpoint is not listening");
    return address.port;
  }

  /** The endpoint's URL, e.g. http://127.0.0.1:41231/mcp (`http()` only, once listening). */
  get url(): string {
    const host = this.nodeOptions.host ?? "127.0.0.1";
    return `http://${host.includes(":") ? `[${host}]` : host}:${this.port}${this.options.path ?? "/"}`;
  }

  /** Called by `McpServer.listen`. Binds when this endpoint owns its server; resolves once bound. */
  override async listen(listener: Listener): Promise<void> {
    await super.listen(listener);
    if (!this.bind) return;
    const http = builtin<typeof import("node:http")>("node:http");
    // Without a Host header, node:http would answer 400 itself, with no body: the endpoint answers it (security.ts).
    const server = http.createServer({ requireHostHeader: false }, this.handleNode);
    server.on("clientError", (error: NodeJS.ErrnoException, socket: import("node:stream").Duplex) => answerUnparsed(error, socket, http.maxHeaderSize));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.nodeOptions.port ?? 0, this.nodeOptions.host ?? "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  }

  /** Closes every session and stream, then the node:http server `http()` started. */
  override async close(): Promise<void> {
    await super.close();
    const server = this.server;
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    }
  }

  /** The request listener. */
  readonly handleNode: HttpRequestHandler = (req, res, parsedBody) => {
    this.handle(nodeIncoming(req, parsedBody, this.nodeOptions.bodyTimeoutMs ?? BODY_TIMEOUT_MS), new NodeReply(req, res, this.options, this.logger));
  };
}

/**
 * A Node built-in, loaded when the adapter first needs it: this module (exported next to
 * fetchHandler) then imports nothing from node:, and a Worker bundle that never calls `http()`
 * needs no Node APIs.
 */
function builtin<T>(id: string): T {
  return (globalThis as unknown as { process: { getBuiltinModule(id: string): T } }).process.getBuiltinModule(id);
}

/** Streamable HTTP on a server of its own: `await server.listen(http({ port: 3000 }))`. */
export function http(options: HttpOptions = {}): HttpEndpoint {
  return new HttpEndpoint(options, true);
}

/**
 * Streamable HTTP as a `(req, res)` listener for a server you run: express, fastify, node:http.
 * `server` is an McpServer; the returned handler has its endpoint as `handler.endpoint`.
 * `parsedBody`: the body a parser already read; else `req.body` when the stream has been read
 * (express.json()). A function there is express's `next`, not a body: `app.all("/mcp", handler)`.
 */
export function httpHandler(server: Listenable, options: Omit<HttpOptions, "port" | "host"> = {}): HttpRequestHandler & { readonly endpoint: HttpEndpoint } {
  const endpoint = new HttpEndpoint(options, false);
  server.listen(endpoint).catch((error: Error) => (options.logger ?? stderrLogger)("error", `the HTTP handler could not start: ${error.message}`));
  return Object.assign(
    (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => {
      // A function is express's `next`, no body. A body parser leaves what it read on req.body: JSON
      // parsed (express.json()), or its text or bytes (express.text(), express.raw()), parsed here.
      const passed = typeof parsedBody === "function" ? undefined : parsedBody;
      const given = passed ?? (req.readableEnded ? (req as { body?: unknown }).body : undefined);
      endpoint.handleNode(req, res, typeof given === "string" || given instanceof Uint8Array ? new RawBody(given) : given);
    },
    { endpoint },
  );
}

/** A body a middleware read as text or bytes: the endpoint parses it as it parses what it reads. */
class RawBody {
  readonly bytes: Uint8Array;
  constructor(body: string | Uint8Array) {
    this.bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  }
}

/** An IncomingMessage as the endpoint reads it; a web Request is made only when asked for (authorization). */
function nodeIncoming(req: IncomingMessage, given: unknown, bodyTimeoutMs: number): Incoming {
  const raw = given instanceof RawBody ? given : undefined;
  const parsed = raw ? undefined : given;
  let request: Request | undefined;
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  return {
    method: req.method ?? "GET",
    path,
    header(name) {
      const value = req.headers[name];
      return (Array.isArray(value) ? value[0] : value)?.trim();
    },
    headers: () => req.headers,
    body: (limit) => (raw ? Promise.resolve(raw.bytes.length > limit ? refuse.tooLarge(raw.bytes.length, limit) : raw.bytes) : readBody(req, limit, bodyTimeoutMs)),
    parsed,
    // From the raw header lines: req.headers keeps only the first Authorization (and Host...) when
    // a request repeats it, which would hide a second credential from the auth check.
    request: () =>
      (request ??= new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), {
        method: req.method,
        headers: rawHeaderPairs(req.rawHeaders),
      })),
  };
}

/**
 * How long a connection is still read (what arrives is dropped) after the answer that refuses its
 * request, before it is closed: closing with unread bytes resets the connection, and a client still
 * sending its request would lose the answer (RFC 9112 §9.6, "tear-down").
 */
const LINGER_MS = 5000;

/** How long a request's body may take to arrive, whole (408 after). */
export const BODY_TIMEOUT_MS = 30_000;

/** Sockets already answered: node:http reports each further chunk of a request it gave up on. */
const unparsed = new WeakSet<object>();

/**
 * A request node:http could not parse (headers beyond maxHeaderSize, bad syntax, a header timeout):
 * its status with a JSON-RPC error body, then a lingering close, instead of node's bare answer and
 * an immediate close. `http()` only: with `httpHandler`, the server is yours (`clientError`).
 */
function answerUnparsed(error: NodeJS.ErrnoException, socket: import("node:stream").Duplex, maxHeaderSize: number): void {
  if (unparsed.has(socket)) return;
  unparsed.add(socket);
  if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  const refusal =
    error.code === "HPE_HEADER_OVERFLOW"
      ? refuse.headersTooLarge(maxHeaderSize)
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? new HttpError(408, TRANSPORT_ERROR, "Request Timeout: the request's headers did not arrive in time")
        : refuse.badRequest(`the request is not valid HTTP/1.1 (${error.code ?? error.message})`);
  const body = errorBody(refusal);
  const reason = refusal.message.slice(0, refusal.message.indexOf(":"));
  socket.end(`HTTP/1.1 ${refusal.status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${new TextEncoder().encode(body).length}\r\nConnection: close\r\n\r\n${body}`);
  linger(socket);
}

/** Reads and drops what still arrives on `socket` for up to LINGER_MS (it may already be half-closed), then closes it. */
function linger(socket: import("node:stream").Duplex): void {
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once("close", () => clearTimeout(timer));
  socket.on("data", () => {});
  socket.resume();
}

/**
 * node:http ends a `Connection: close` answer with the socket's destroySoon, which resets a
 * connection whose request is not read to its end: this one ends it and lingers instead.
 */
function lingerOnClose(socket: import("node:stream").Duplex | null): void {
  if (!socket) return;
  (socket as unknown as { destroySoon: () => void }).destroySoon = () => {
    socket.end();
    linger(socket);
  };
}

/** node:http's rawHeaders ([name, value, name, value, ...]) as pairs, every line kept. */
function rawHeaderPairs(raw: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

/**
 * Reads a request body up to `limit` bytes. A Content-Length over the limit is refused before
 * a byte is kept; a body that grows past it is refused as soon as it does. Either way the rest
 * is read and dropped, so that the client can finish sending and read the answer. Resolves with
 * the bytes, or with the HttpError to answer.
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs = BODY_TIMEOUT_MS): Promise<Uint8Array | HttpError> {
  // Read already, by something before us that kept nothing we were given: no byte will come.
  if (req.readableEnded) return Promise.resolve(refuse.badRequest("the body was already read by another middleware: give httpHandler the body it parsed as its third argument"));
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume(); // read and drop it, so the client can finish sending and read the 413
    return Promise.resolve(refuse.tooLarge(declared, limit));
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    // A body that trickles in (a byte now and then) would hold its connection and what it sent so far.
    const timer = setTimeout(() => {
      chunks.length = 0;
      req.resume();
      finish(new HttpError(408, TRANSPORT_ERROR, `Request Timeout: the body did not arrive within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const finish = (result: Uint8Array | HttpError) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        // Keep draining (and dropping) so the response can still be written on this connection.
        req.resume();
        finish(refuse.tooLarge(undefined, limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    const onError = (error: Error) => finish(refuse.badRequest(`could not read the body: ${error.message}`));
    const onClose = () => finish(refuse.badRequest("the body ended early"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/** How many characters a streamed answer may hold back before its first write (see NodeReply.open). */
const HOLD_CHARACTERS = 16 * 1024;

/** A Reply written to a ServerResponse, with the same bound on unread bytes as WebReply. */
class NodeReply implements Reply {
  private stuck: ReturnType<typeof setTimeout> | undefined;
  private readonly cutOffListeners: (() => void)[] = [];
  /** What waits for room: settled at the next 'drain' or 'close'. */
  private roomMade: Promise<void> | undefined;
  /** A streamed answer opened but not yet on the wire: its headers, and what was written since. */
  private held: Record<string, string | number> | undefined;
  private unsent = "";

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly limits: EndpointOptions,
    private readonly logger: (level: "warn", message: string) => void,
  ) {}

  get started(): boolean {
    return this.held !== undefined || this.res.headersSent;
  }

  get ended(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  onCutOff(listener: () => void): void {
    this.cutOffListeners.push(listener);
  }

  room(): Promise<void> | undefined {
    if (this.res.destroyed || this.res.writableLength <= (this.limits.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES)) return undefined;
    return (this.roomMade ??= new Promise((resolve) => {
      // Over the bound, the last write returned false: a 'drain' follows once the client reads.
      const made = () => {
        this.res.off("drain", made);
        this.res.off("close", made);
        this.roomMade = undefined;
        resolve();
      };
      this.res.on("drain", made);
      this.res.on("close", made);
    }));
  }

  send(status: number, headers: Readonly<Record<string, string>>, body?: string): void {
    if (this.started) return;
    this.whole(status, { ...headers }, body);
  }

  respond(response: Response): void {
    if (this.started) return;
    this.res.writeHead(response.status, [...response.headers].flat());
    if (!response.body) return void this.res.end();
    builtin<typeof import("node:stream")>("node:stream").Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).pipe(this.res);
  }

  /**
   * The stream's head waits for the rest of this turn of the event loop: an answer complete by
   * then (a quick tool, answered over SSE) leaves as one write with its Content-Length, as a JSON
   * answer does, instead of three (head, event, last chunk). Otherwise the head and what was
   * written go out in setImmediate, or as soon as HOLD_CHARACTERS are waiting.
   */
  open(headers: Readonly<Record<string, string>>): void {
    if (this.started) return;
    this.held = { ...headers };
    setImmediate(this.flush);
  }

  write(text: string): void {
    if (this.ended) return;
    if (this.held) {
      this.unsent += text;
      if (this.unsent.length > HOLD_CHARACTERS) this.flush();
      return;
    }
    this.res.write(text);
    this.watch();
  }

  end(): void {
    if (this.ended) return;
    const held = this.held;
    if (held) {
      this.held = undefined;
      const body = this.unsent;
      this.unsent = "";
      this.whole(200, held, body);
      return this.watch();
    }
    if (!this.res.headersSent) return this.send(202, {});
    this.res.end();
  }

  onClose(listener: () => void): () => void {
    const once = () => {
      clearTimeout(this.stuck);
      listener();
    };
    this.res.once("close", once);
    return () => this.res.off("close", once);
  }

  /** A whole answer: `head` (ours to change) for writeHead, and the body with its Content-Length in the same end(), so that they leave in one write. */
  private whole(status: number, head: Record<string, string | number>, body: string | undefined): void {
    // Unread request bytes would otherwise be taken for the next request on this connection; and
    // the client may still be sending them: it reads this answer only if the close lingers.
    if (!this.req.complete) {
      head.Connection = "close";
      lingerOnClose(this.res.socket);
    }
    if (body !== undefined) head["Content-Length"] = Buffer.byteLength(body);
    this.res.writeHead(status, head);
    this.res.end(body);
  }

  /** Puts a held stream on the wire: its head, and what was written meanwhile. */
  private readonly flush = (): void => {
    const held = this.held;
    if (!held || this.ended) return;
    this.held = undefined;
    this.res.writeHead(200, held);
    if (this.unsent === "") return void this.res.flushHeaders();
    this.res.write(this.unsent);
    this.unsent = "";
    this.watch();
  };

  /** Bytes the client does not read are bounded: past maxBufferedBytes for stuckTimeoutMs, the connection is closed. */
  private watch(): void {
    const limit = this.limits.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    if (this.stuck === undefined && this.res.writableLength > limit) {
      const timeoutMs = this.limits.stuckTimeoutMs ?? DEFAULT_STUCK_TIMEOUT_MS;
      this.stuck = setTimeout(() => {
        this.stuck = undefined;
        // Ended or not: bytes the client does not read are held all the same.
        if (this.res.destroyed || this.res.writableLength <= limit) return;
        this.logger("warn", `${this.req.method} ${this.req.url}: the client read nothing for ${timeoutMs} ms with ${this.res.writableLength} bytes waiting (limit ${limit}); disconnected`);
        this.res.destroy();
        for (const listener of this.cutOffListeners.splice(0)) listener();
      }, timeoutMs);
      this.res.once("drain", () => {
        clearTimeout(this.stuck);
        this.stuck = undefined;
      });
    }
  }
}
