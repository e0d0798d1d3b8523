/**
 * What every example's `main` shares: stdio by default, Streamable HTTP with `--http` (the
 * runtime's `http()` endpoint, bound to 127.0.0.1 unless told otherwise), and a clean exit when
 * the client goes away (stdin closes) or a signal arrives.
 */
import { stdio, type McpServer, type Receiver, type Transport } from "../../runtime/index.js";
import type { EndpointAuth } from "../../runtime/transports/auth-info.js";

/** The flags every example accepts, for `node:util` parseArgs. */
export const TRANSPORT_FLAGS = {
  http: { type: "boolean", default: false },
  port: { type: "string" },
  host: { type: "string", default: "127.0.0.1" },
  help: { type: "boolean", short: "h", default: false },
} as const;

export const TRANSPORT_USAGE = `  --http              serve Streamable HTTP instead of stdio
  --port N            HTTP port (with --http; 0 picks a free one)
  --host H            HTTP address to bind (with --http; default 127.0.0.1)`;

export interface ServeOptions {
  /** The example's name, for messages on stderr. */
  readonly name: string;
  readonly http: boolean;
  readonly port: string | undefined;
  readonly defaultPort: number;
  readonly host: string;
  /** OAuth for --http: given the endpoint's URL (the resource), the endpoint's `auth` (runtime/auth's bearerAuth). */
  readonly auth?: (url: string) => Promise<EndpointAuth>;
  /** Releases what the example holds (watchers, workers, timers) so that the process can exit. */
  readonly cleanup?: () => void | Promise<void>;
}

/**
 * Serves `server` until the client leaves. stdio: stdout carries only protocol messages, so
 * everything the example says goes to stderr.
 */
export async function serve(server: McpServer, options: ServeOptions): Promise<void> {
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      // Whatever still holds the event loop after this is a bug: say so, and do not hang the client's shutdown on it.
      setTimeout(() => {
        process.stderr.write(`${options.name}: still busy 3 s after the client left; exiting anyway\n`);
        process.exit(1);
      }, 3000).unref();
      try {
        await options.cleanup?.();
      } finally {
        await server.close();
      }
    })());
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop());

  if (!options.http) {
    await server.listen(onClosed(stdio(), () => void stop()));
    return;
  }

  const port = Number(options.port ?? options.defaultPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`${options.name}: --port must be an integer from 0 to 65535, not ${options.port}\n`);
    process.exit(2);
  }
  const { http } = await import("../../runtime/http.js"); // a stdio server never loads node:http
  // The resource URL is known once bound; requests wait for the auth built from it.
  let ready: Promise<EndpointAuth> | undefined;
  const auth: EndpointAuth | undefined = options.auth && {
    authenticate: async (request) => (await ready!).authenticate(request),
    routes: async (request) => (await ready!).routes?.(request),
  };
  const endpoint = http({ port, host: options.host, auth });
  await server.listen(endpoint);
  if (options.auth) await (ready = options.auth(endpoint.url));
  // Tests and scripts read this line to learn the URL (with --port 0, the port the system chose).
  process.stderr.write(`${options.name}: serving MCP over Streamable HTTP at ${endpoint.url}\n`);
}

/** A transport that also tells us when it is finished (EOF on stdin: the client is gone). */
function onClosed(transport: Transport, closed: () => void): Transport {
  return {
    start: (receiver: Receiver) =>
      transport.start({
        message: (value, context) => receiver.message(value, context),
        malformed: (problem) => receiver.malformed(problem),
        closed: (error) => {
          receiver.closed(error);
          closed();
        },
      }),
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
  };
}

/** Prints `message` and the usage on stderr, then exits: status 2 for a usage error, 0 for --help. */
export function usageError(message: string, usage: string, status = 2): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(status);
}
