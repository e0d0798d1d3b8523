/**
 * One HTTP request of the client transport, and its answer, over fetch or, on Node, over node:http
 * with a keep-alive agent of the transport's own. Node's fetch (undici) costs several times what
 * node:http does per request (WHATWG streams, Headers and Response objects): with many calls in
 * flight it, not the server, set the pace. Anything that is not Node (Bun, Deno, Workers, browsers)
 * or that was given a fetch (an authProvider wraps one) uses fetch.
 */

/** What the transport reads of an answer. */
export interface Answer {
  readonly status: number;
  readonly statusText: string;
  /** A response header, by its lower-case name; null when absent. */
  header(name: string): string | null;
  /** The whole body as text; rejects (and drops the rest) past `limit` characters (MAX_ANSWER_CHARS). */
  text(limit?: number): Promise<string>;
  /** Feeds the body's text to `onText` as it arrives, until it ends, fails, or `onText` returns true (then the rest is dropped). */
  read(onText: (text: string) => boolean): Promise<void>;
  /** Drops the body. */
  discard(): Promise<void>;
}

/**
 * Stops one request, whatever stage it is at. Lighter than an AbortController per request (its
 * signal's listeners cost more than the rest of a node:http call's bookkeeping); fetch gets one
 * only when it is cancelled.
 */
export class Cancel {
  aborted = false;
  private stop: (() => void) | undefined;

  /** A Cancel that cancels itself after `ms`. */
  static after(ms: number): Cancel {
    const cancel = new Cancel();
    const timer = setTimeout(() => cancel.abort(), ms);
    (timer as { unref?: () => void }).unref?.();
    return cancel;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.stop?.();
  }

  /** How the exchange stops its request; at once when already cancelled. */
  onAbort(stop: () => void): void {
    this.stop = stop;
    if (this.aborted) stop();
  }
}

/**
 * The longest answer body read whole, in characters: a server that never ends its body must not
 * grow a string until V8 throws (an uncaught RangeError); the stdio transport's limit too.
 */
export const MAX_ANSWER_CHARS = 128 * 1024 * 1024;

const tooLong = (limit: number) => new Error(`the answer's body exceeds ${limit} characters: not read further`);

export interface Exchange {
  send(method: "POST" | "GET" | "DELETE", headers: Record<string, string>, body: string | undefined, cancel: Cancel): Promise<Answer>;
  /** Lets go of kept-alive connections. */
  close(): void;
}

export function fetchExchange(url: URL, fetcher: typeof fetch): Exchange {
  return {
    send: async (method, headers, body, cancel) => {
      const controller = new AbortController();
      cancel.onAbort(() => controller.abort());
      // Not followed: a redirect elsewhere would take the session id, the headers and the body along.
      return fetchAnswer(await fetcher(url, { method, headers, body, signal: controller.signal, redirect: "manual" }));
    },
    close: () => {},
  };
}

function fetchAnswer(response: Response): Answer {
  const answer: Answer = {
    status: response.status,
    statusText: response.statusText,
    header: (name) => response.headers.get(name),
    // Its own loop, not read's: a body cut short must reject, as response.text() does, not give what came.
    text: async (limit = MAX_ANSWER_CHARS) => {
      const body = response.body;
      if (!body) return "";
      const decoder = new TextDecoder();
      let text = "";
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        if (text.length <= limit) continue;
        await body.cancel().catch(() => {});
        throw tooLong(limit);
      }
      return text + decoder.decode();
    },
    discard: async () => void (await response.body?.cancel().catch(() => {})),
    read: async (onText) => {
      const body = response.body;
      if (!body) return;
      const decoder = new TextDecoder();
      let stopped = false;
      try {
        for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) if ((stopped = onText(decoder.decode(chunk, { stream: true })))) break;
      } catch {
        // aborted or broken: the caller decides what follows
      }
      if (stopped) await body.cancel().catch(() => {});
    },
  };
  return answer;
}

type NodeHttp = typeof import("node:http");
type IncomingMessage = import("node:http").IncomingMessage;

/** node:http with a keep-alive agent, on Node only (loaded through getBuiltinModule: no node: import here); undefined elsewhere. */
export function nodeExchange(url: URL): Exchange | undefined {
  const global = globalThis as { process?: { versions?: Record<string, string>; getBuiltinModule?: (id: string) => unknown }; Deno?: unknown; Bun?: unknown };
  const versions = global.process?.versions;
  if (!versions?.node || versions.bun || global.Deno !== undefined || global.Bun !== undefined || !global.process?.getBuiltinModule) return undefined;
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  const http = global.process.getBuiltinModule(url.protocol === "https:" ? "node:https" : "node:http") as NodeHttp;
  if (!http?.request) return undefined;
  const agent = new http.Agent({ keepAlive: true });
  const target = { protocol: url.protocol, hostname: url.hostname.replace(/^\[|\]$/g, ""), port: url.port, path: `${url.pathname}${url.search}`, agent };
  const attempt = (method: string, headers: Record<string, string>, body: string | undefined, cancel: Cancel, retry: boolean): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = http.request({ ...target, method, headers }, (res) => resolve(nodeAnswer(res)));
      req.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as we reused it: the request never reached it (Node's documented retry).
        if (retry && req.reusedSocket && error.code === "ECONNRESET" && !cancel.aborted) resolve(attempt(method, headers, body, cancel, false));
        else reject(error);
      });
      cancel.onAbort(() => req.destroy(Object.assign(new Error("the request was aborted"), { name: "AbortError" })));
      req.end(body);
    });
  return { send: (method, headers, body, cancel) => attempt(method, headers, body, cancel, true), close: () => agent.destroy() };
}

function nodeAnswer(res: IncomingMessage): Answer {
  const read = (onText: (text: string) => boolean): Promise<void> =>
    new Promise<void>((resolve) => {
      res.setEncoding("utf8");
      const done = () => {
        res.off("data", onData);
        resolve();
      };
      const onData = (text: string) => {
        if (!onText(text)) return;
        done();
        drain(res);
      };
      res.on("data", onData);
      res.once("end", done);
      res.once("close", done);
      res.once("error", done);
    });
  return {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? "",
    header: (name) => {
      const value = res.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    text: (limit = MAX_ANSWER_CHARS) =>
      new Promise<string>((resolve, reject) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
          if (text.length <= limit) return;
          res.destroy();
          reject(tooLong(limit));
        });
        res.once("end", () => resolve(text));
        res.once("error", reject);
        res.once("close", () => (res.complete ? resolve(text) : reject(new Error("the response was cut short"))));
      }),
    read,
    discard: async () => drain(res),
  };
}

/**
 * The rest of a body is not wanted. It is read and dropped, so that the connection is kept: a
 * 202's body is empty, and a server ends a request's stream after its answer. One that goes on
 * past a second is cut.
 */
function drain(res: IncomingMessage): void {
  if (res.complete || res.destroyed) return;
  const cut = setTimeout(() => res.destroy(), 1_000);
  res.once("close", () => clearTimeout(cut)).resume();
}
