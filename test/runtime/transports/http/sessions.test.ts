// Scale-out, session era (issue 13): three server processes behind a round-robin proxy with no
// affinity, sharing one real Redis (sessions, SSE events, requestState nonces, the bus). Every
// request lands on the next instance: a session initialized on one is served by the others, a
// client's answer to a question reaches the instance that asked, and a GET stream survives the
// death of the instance that held it (Last-Event-ID on another). SDK v1 and v2 clients hold a
// session through it, and the official conformance server suites run through the same kind of proxy.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { SseParser, type SseEvent } from "../../../../runtime/transports/http/index.js";
import { startProxy, type RoundRobinProxy } from "../../../support/round-robin-proxy.js";
import { startRedis, type RedisServer } from "../../../support/redis-server.js";
import { startConformanceInstance, startInstance, type Instance } from "../../../support/scale-out.js";
import { interopPeers } from "../../../interop/support/peers.js";
import { until } from "./support.js";

const SECRET = "one secret for the service";
const CONFORMANCE = fileURLToPath(new URL("../../../../tools/conformance/run.mjs", import.meta.url));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function startService(start: () => Promise<Instance>): Promise<{ instances: Instance[]; proxy: RoundRobinProxy }> {
  const instances = await Promise.all([0, 1, 2].map(start));
  return { instances, proxy: await startProxy(instances.map((instance) => instance.url)) };
}

describe("scale-out, session era: three instances sharing one Redis behind a round-robin proxy", function () {
  this.timeout(180_000);
  let redis: RedisServer;
  before(async () => void (redis = await startRedis()));
  after(async () => redis?.stop());

  describe("the official conformance server suites, through the proxy", () => {
    let instances: Instance[] = [];
    let proxy: RoundRobinProxy;
    before(async () => ({ instances, proxy } = await startService(() => startConformanceInstance(redis.url, SECRET))));
    after(async () => {
      await proxy?.close();
      await Promise.all(instances.map((instance) => instance.stop()));
    });

    it("pass: 0.1.16 active, 0.2.0-alpha 2025-11-25 (sessions) and 2026-07-28 (stateless), every check", async () => {
      const suites = ["0.1.16 active", "0.2.0-alpha 2025-11-25", "0.2.0-alpha 2026-07-28"];
      const child = spawn(process.execPath, [CONFORMANCE, "--url", proxy.url, ...suites.flatMap((suite) => ["--suite", suite])], { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code, output).to.equal(0);
      for (const suite of suites) expect(output).to.match(new RegExp(`ok +${suite}: \\d+ passed, 0 failed, 0 warnings`));
      expect(Math.min(...proxy.counts), "every instance served requests").to.be.greaterThan(50);
    });
  });

  describe("clients of a session spread over the instances", () => {
    let instances: Instance[] = [];
    let proxy: RoundRobinProxy;
    before(async () => ({ instances, proxy } = await startService(() => startInstance({ MCP_SECRET: SECRET, REDIS_URL: redis.url }))));
    after(async () => {
      await proxy?.close();
      await Promise.all(instances.map((instance) => instance.stop()));
    });

    it("SDK v1 client: lists, calls with progress and logs, answers an elicitation asked by another instance, and gets resources/updated raised by any instance", async () => {
      await sessionThroughProxy(proxy.url, async (url, on) => {
        const client = new Client({ name: "sdk-v1-scale-out", version: "1.0.0" }, { capabilities: { elicitation: {} } });
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => on.log(notification.params.data));
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => on.updated(notification.params.uri));
        client.setRequestHandler(ElicitRequestSchema, () => ELICITED);
        const transport = new StreamableHTTPClientTransport(new URL(url));
        await client.connect(transport);
        return { client, transport, call: (params, onprogress) => client.callTool(params, undefined, onprogress && { onprogress: (p) => onprogress(p.progress) }) };
      });
    });

    it("SDK v2 client: the same session, from @modelcontextprotocol/client 2.4", async function () {
      const peers = await interopPeers(this);
      await sessionThroughProxy(proxy.url, async (url, on) => {
        const client = new peers.Client({ name: "sdk-v2-scale-out", version: "2.4.0" }, { capabilities: { elicitation: {} } });
        client.setNotificationHandler("notifications/message", (notification: Json) => on.log(notification.params.data));
        client.setNotificationHandler("notifications/resources/updated", (notification: Json) => on.updated(notification.params.uri));
        client.setRequestHandler("elicitation/create", async () => ELICITED);
        const transport = new peers.StreamableHTTPClientTransport(new URL(url));
        await client.connect(transport);
        expect(client.getNegotiatedProtocolVersion(), "the session era").to.equal("2025-11-25");
        return { client, transport, call: (params, onprogress) => client.callTool(params, onprogress && { onprogress: (p: Json) => onprogress(p.progress) }) };
      });
    });

    it("kill the instance holding the GET stream: the client resumes with Last-Event-ID on another, nothing lost or duplicated", async () => {
      const session = await initialize(proxy.url);
      const post = (body: Json) => rpc(proxy.url, session, body);
      expect((await post({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "test://watched" } })).result).to.deep.equal({});

      const before = [...proxy.counts];
      const first = await openGet(proxy.url, session);
      const holder = proxy.counts.findIndex((count, i) => count > before[i]!);
      let seq = 0;
      const touch = async () => {
        const answer = await post({ jsonrpc: "2.0", id: 100 + seq, method: "tools/call", params: { name: "touch", arguments: { uri: "test://watched", seq: ++seq } } });
        expect(answer.result?.isError, JSON.stringify(answer)).to.not.equal(true);
      };
      for (let i = 0; i < 3; i++) await touch();
      await until(() => first.messages().filter(isSeq).length === 3 && first.messages().filter(isUpdate).length === 3, "three messages and three updates on the first GET stream", 10_000);

      // The holder dies; the load balancer's health check takes it out.
      process.kill(instances[holder]!.pid, "SIGKILL");
      await instances[holder]!.stop();
      proxy.exclude(holder);
      await Promise.race([first.ended, new Promise((_, reject) => setTimeout(() => reject(new Error("the first GET stream did not break")), 10_000))]);
      for (let i = 0; i < 3; i++) await touch(); // no instance holds the GET stream now: kept in the event store

      const lastEventId = first.events.at(-1)!.id!;
      const resumed = await openGet(proxy.url, session, lastEventId);
      await until(() => resumed.messages().filter(isSeq).length === 3, "the three kept messages replayed", 10_000);
      for (let i = 0; i < 2; i++) await touch(); // the new holder carries them live
      await until(() => resumed.messages().filter(isSeq).length === 5, "two more, live", 10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));

      const seqs = [...first.messages(), ...resumed.messages()].filter(isSeq).map((message) => message.params.data.seq);
      expect(seqs, "every message once, in order").to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
      const ids = [...first.events, ...resumed.events].map((event) => event.id).filter((id) => id !== undefined);
      expect(new Set(ids).size, "no event id twice").to.equal(ids.length);
      expect(resumed.messages().filter(isUpdate).length, "resources/updated raised while the stream is held").to.be.at.least(2);
      resumed.close();
    });
  });
});

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };

const ELICITED = { action: "accept", content: { name: "Ada" } } as const;

/** One SDK client, connected through the proxy; `call` hides the SDKs' different callTool signatures. */
interface SdkSession {
  client: {
    getServerVersion(): { name: string } | undefined;
    listTools(params?: { cursor?: string }): Promise<{ tools: { name: string }[]; nextCursor?: string }>;
    setLoggingLevel(level: "info" | "error"): Promise<unknown>;
    subscribeResource(params: { uri: string }): Promise<unknown>;
    unsubscribeResource(params: { uri: string }): Promise<unknown>;
    close(): Promise<void>;
  };
  transport: { readonly sessionId?: string; terminateSession(): Promise<void> };
  call(params: { name: string; arguments: Json }, onprogress?: (progress: number) => void): Promise<unknown>;
}
type ConnectSdk = (url: string, on: { log(data: unknown): void; updated(uri: string): void }) => Promise<SdkSession>;

/**
 * A session of an SDK client through the round-robin proxy: lists, calls with progress and logs,
 * answers elicitations asked by any instance, gets resources/updated raised by any instance, and
 * ends with DELETE.
 */
async function sessionThroughProxy(url: string, connect: ConnectSdk): Promise<void> {
  const logs: unknown[] = [];
  const updates: string[] = [];
  const { client, transport, call } = await connect(url, { log: (data) => void logs.push(data), updated: (uri) => void updates.push(uri) });
  try {
    expect(client.getServerVersion()).to.deep.include({ name: "scale-out" });
    const pids = new Set<number>();
    for (let i = 0; i < 3; i++) pids.add(jsonOf(await call({ name: "whoami", arguments: {} })).pid);
    expect(pids.size, "three calls of one session, three instances").to.equal(3);

    const names: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const listed = await client.listTools(cursor === undefined ? {} : { cursor });
      names.push(...listed.tools.map((tool) => tool.name));
      if ((cursor = listed.nextCursor) === undefined) break;
    }
    expect(names).to.deep.equal(["whoami", "ask", "touch", "tool-0", "tool-1", "tool-2", "tool-3", "tool-4"]);

    for (let i = 0; i < 3; i++) expect(jsonOf(await call({ name: "ask", arguments: {} })).answer).to.deep.equal(ELICITED);

    await client.setLoggingLevel("info");
    await client.subscribeResource({ uri: "test://watched" });
    const progress: number[] = [];
    const touchedBy = new Set<number>();
    for (let i = 0; i < 3; i++) touchedBy.add(jsonOf(await call({ name: "touch", arguments: { uri: "test://watched" } }, (p) => void progress.push(p))).pid);
    expect(touchedBy.size, "touched on every instance").to.equal(3);
    expect(progress).to.deep.equal([1, 1, 1]);
    expect(logs.filter((data) => (data as Json).touching === "test://watched")).to.have.length(3);
    await until(() => updates.length >= 3, "three resources/updated", 10_000);
    expect(updates).to.deep.equal(["test://watched", "test://watched", "test://watched"]);

    await client.setLoggingLevel("error");
    await call({ name: "touch", arguments: { uri: "test://watched" } });
    expect(logs.filter((data) => (data as Json).touching === "test://watched"), "the level set on one instance holds on the others").to.have.length(3);
    // Received before unsubscribing: every instance decides delivery by the session's subscriptions
    // when the bus brings it the update, and an unsubscribe handled first elsewhere would win.
    await until(() => updates.length >= 4, "the fourth resources/updated", 10_000);
    await client.unsubscribeResource({ uri: "test://watched" });
    await call({ name: "touch", arguments: { uri: "test://watched" } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updates, "one more before unsubscribing, none after").to.have.length(4);
  } finally {
    await transport.terminateSession().catch(() => {});
    await client.close();
  }
  const gone = await fetch(url, { method: "POST", headers: { ...HEADERS, "mcp-session-id": transport.sessionId ?? "none" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
  expect(gone.status, "DELETE on one instance ends the session on all").to.equal(404);
}

async function initialize(url: string): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } } }),
  });
  expect(response.status).to.equal(200);
  const session = response.headers.get("mcp-session-id")!;
  await response.body?.cancel();
  await rpc(url, session, { jsonrpc: "2.0", method: "notifications/initialized" });
  return session;
}

/** One POST; its answer (the last message of an SSE answer, or the JSON body); undefined for 202. */
async function rpc(url: string, session: string, body: Json): Promise<Json> {
  const response = await fetch(url, { method: "POST", headers: { ...HEADERS, "mcp-session-id": session }, body: JSON.stringify(body) });
  if (response.status === 202) return {};
  const text = await response.text();
  if (!response.headers.get("content-type")?.includes("text/event-stream")) return JSON.parse(text);
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event));
  parser.push(text);
  return JSON.parse(events.filter((event) => event.data).at(-1)!.data);
}

interface OpenStream {
  readonly events: SseEvent[];
  messages(): Json[];
  readonly ended: Promise<void>;
  close(): void;
}

/** A GET stream of the session, read in the background (bounded by the test's timeout). */
async function openGet(url: string, session: string, lastEventId?: string): Promise<OpenStream> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  const response = await fetch(url, { headers, signal: abort.signal });
  expect(response.status).to.equal(200);
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event));
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.push(value);
      }
    } catch {
      // the connection broke (its instance died) or the test closed it
    }
  })();
  return { events, messages: () => events.filter((event) => event.data).map((event) => JSON.parse(event.data)), ended, close: () => abort.abort() };
}

const jsonOf = (result: unknown): Json => JSON.parse((result as { content: { text: string }[] }).content[0]!.text);
const isSeq = (message: Json) => message.method === "notifications/message" && typeof message.params?.data?.seq === "number";
const isUpdate = (message: Json) => message.method === "notifications/resources/updated";
