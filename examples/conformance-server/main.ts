// The conformance fixture server, runnable:
//   node --import tsx examples/conformance-server/main.ts              (stdio)
//   node --import tsx examples/conformance-server/main.ts --port 3000  (Streamable HTTP on 127.0.0.1:3000/mcp)
// Options: --port N (0 picks a free port; the URL is printed on stderr as "listening on URL"),
// --host H (default 127.0.0.1).
// Many instances behind a load balancer (the scale-out tests): --redis URL keeps sessions, SSE
// events, requestState nonces, tasks and messages between instances in that Redis; --secret S seals
// cursors and requestState alike on every instance.
import { parseArgs } from "node:util";
import { stdio, type NonceStore } from "../../runtime/index.js";
import { http, type EndpointOptions, type HttpEndpoint } from "../../runtime/transports/http/index.js";
import { applyChange, createConformanceServer, type Change, type ConformanceServerOptions } from "./server.js";

const { values } = parseArgs({ options: { port: { type: "string" }, host: { type: "string" }, redis: { type: "string" }, secret: { type: "string" } }, strict: true });

let shared: Pick<EndpointOptions, "sessions" | "events" | "bus"> = {};
let nonces: NonceStore | undefined;
let tasks: ConformanceServerOptions["tasks"];
let changes: ConformanceServerOptions["changes"];
let onChange = (_apply: (change: Change) => void): Promise<unknown> => Promise.resolve();
let closeRedis = async () => {};
if (values.redis !== undefined) {
  const { connectRedis, RedisSessionStore, RedisEventStore, RedisEventBus, RedisNonceStore, RedisTaskStore } = await import("../../runtime/redis.js");
  const redis = await connectRedis(values.redis);
  shared = { sessions: new RedisSessionStore(redis.commands), events: new RedisEventStore(redis.commands), bus: new RedisEventBus(redis) };
  nonces = new RedisNonceStore(redis.commands);
  tasks = { store: new RedisTaskStore(redis) };
  const bus = shared.bus!;
  changes = { publish: (change) => bus.publish("fixture:changes", change) };
  onChange = (apply) => bus.subscribe("fixture:changes", (change) => apply(change as Change));
  closeRedis = () => redis.close();
}

let endpoint: HttpEndpoint | undefined;
const server = createConformanceServer({ closeStream: (ctx) => endpoint?.closeStream(ctx.session, ctx.requestId) ?? false, secret: values.secret, nonces, tasks, changes });
await onChange((change) => applyChange(server, change));

if (values.port !== undefined) {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not ${values.port}`);
  endpoint = http({ port, host: values.host ?? "127.0.0.1", retryMs: 500, ...shared });
  await server.listen(endpoint);
  process.stderr.write(`listening on ${endpoint.url}\n`);
} else {
  await server.listen(stdio());
}

const stop = () => {
  void server
    .close()
    .then(closeRedis)
    .finally(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
