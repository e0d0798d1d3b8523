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
  /** The whole body as text. */
  text(): Promise<string>;
  /** Feeds the body's text to `onText` as it arrives, until it ends, fails, or `onText` returns true (then the rest is dropped). */
  read(onText: (text: string) => boolean): Promise<void>;
  /** Drops the body. */
  discard(): Promise<void>;
}

export interface Exchange {
  send(method: "POST" | "GET" | "DELETE", headers: Record<string, string>, body: string | undefined, signal: AbortSignal): Promise<Answer>;
  /** Lets go of kept-alive connections. */
  close(): void;
}

export function fetchExchange(url: URL, fetcher: typeof fetch): Exchange {
  return {
    send: async (method, headers, body, signal) => fetchAnswer(await fetcher(url, { method, headers, body, signal })),
    close: () => {},
  };
}

function fetchAnswer(response: Response): Answer {
  return {
    status: response.status,
    statusText: response.statusText,
    header: (name) => response.headers.get(name),
    text: () => response.text(),
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
  const attempt = (method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal, retry: boolean): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = http.request({ ...target, method, headers, signal }, (res) => resolve(nodeAnswer(res)));
      req.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as we reused it: the request never reached it (Node's documented retry).
        if (retry && req.reusedSocket && error.code === "ECONNRESET" && !signal.aborted) resolve(attempt(method, headers, body, signal, false));
        else reject(error);
      });
      req.end(body);
    });
  return { send: (method, headers, body, signal) => attempt(method, headers, body, signal, true), close: () => agent.destroy() };
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
        if (res.complete) return;
        // The rest is not wanted. A server ends a request's stream after its answer: drained, the
        // connection is kept; one that goes on past a second is cut.
        const cut = setTimeout(() => res.destroy(), 1_000);
        res.once("close", () => clearTimeout(cut)).resume();
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
    text: () =>
      new Promise<string>((resolve, reject) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.once("end", () => resolve(text));
        res.once("error", reject);
        res.once("close", () => (res.complete ? resolve(text) : reject(new Error("the response was cut short"))));
      }),
    read,
    discard: async () => {
      if (res.complete) return;
      // An empty body (202) ends at once and keeps the connection; anything longer is cut.
      if (res.headers["content-length"] === "0") res.resume();
      else res.destroy();
    },
  };
}
