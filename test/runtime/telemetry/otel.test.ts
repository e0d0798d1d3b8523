// OpenTelemetry through the hooks, with the real SDK: spans and metrics as the GenAI semantic
// conventions' MCP page names them (names checked against @opentelemetry/semantic-conventions),
// the trace carried in params._meta from client to server, in memory and over Streamable HTTP, at
// 2025-11-25 and 2026-07-28; nothing emitted and nothing broken without a provider.
import { context, metrics, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { AggregationTemporality, DataPointType, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type HistogramMetricData } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import * as semconv from "@opentelemetry/semantic-conventions/incubating";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { expect } from "chai";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createMemoryPair, createServer, ErrorCode, McpClient, StdioTransport, type Hook, type McpServer, type Transport } from "../../../runtime/index.js";
import { otel } from "../../../runtime/otel.js";
import { ATTR, METRIC } from "../../../runtime/telemetry/otel.js";
import { http, HttpClientTransport, type HttpEndpoint } from "../../../runtime/transports/http/index.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { FromSdkTransport } from "../../support/sdk-transport.js";

const REVISIONS = ["2025-11-25", "2026-07-28"] as const;

/** The tracer and meter providers of one test, and what they recorded. */
function telemetry() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: () => spans.getFinishedSpans(),
    /** Every histogram point recorded so far, by metric name. */
    async histograms(): Promise<Map<string, HistogramMetricData["dataPoints"]>> {
      await reader.forceFlush();
      const found = new Map<string, HistogramMetricData["dataPoints"]>();
      for (const resource of metricExporter.getMetrics())
        for (const scope of resource.scopeMetrics)
          for (const metric of scope.metrics) if (metric.dataPointType === DataPointType.HISTOGRAM) found.set(metric.descriptor.name, (metric as HistogramMetricData).dataPoints);
      return found;
    },
    shutdown: () => Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]),
  };
}

function newServer(hooks: Hook[]): McpServer {
  const server = createServer({ name: "traced", version: "1.0.0", logger: silentLogger, hooks });
  server.tool({ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }, ({ a, b }: { a: number; b: number }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  server.tool({ name: "fails", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "no" }], isError: true }));
  server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
    return { content: [{ type: "text", text: String((answer.content as { name?: string } | undefined)?.name) }] };
  });
  server.tool({ name: "slow", inputSchema: { type: "object" } }, (_args, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("stopped")))));
  server.prompt({ name: "greet", arguments: [] }, () => ({ messages: [{ role: "user", content: { type: "text", text: "hello" } }] }));
  server.resource({ uri: "file:///notes.txt", name: "notes" }, () => ({ contents: [{ uri: "file:///notes.txt", text: "n" }] }));
  return server;
}

type Connect = (server: McpServer, revision: string, clientHooks: Hook[]) => Promise<{ client: McpClient; done: () => Promise<void>; network?: string; port?: number }>;

const overStdio: Connect = async (server, revision, hooks) => {
  const [toServer, toClient] = [new PassThrough(), new PassThrough()];
  server.connect(new StdioTransport(toServer, toClient));
  const client = await McpClient.connect(new StdioTransport(toClient, toServer), { name: "c", version: "1.0.0", revision, logger: silentLogger, hooks });
  return { client, done: () => client.close(), network: "pipe" };
};

const inMemory: Connect = async (server, revision, hooks) => {
  const [serverEnd, clientEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = await McpClient.connect(clientEnd, { name: "c", version: "1.0.0", revision, logger: silentLogger, hooks });
  return { client, done: () => client.close() };
};

const overHttp: Connect = async (server, revision, hooks) => {
  const endpoint: HttpEndpoint = http({ port: 0 });
  await server.listen(endpoint);
  const transport: Transport = new HttpClientTransport(endpoint.url);
  const client = await McpClient.connect(transport, { name: "c", version: "1.0.0", revision, logger: silentLogger, hooks });
  return { client, done: () => client.close(), network: "tcp", port: Number(new URL(endpoint.url).port) };
};

interface SdkLike {
  callTool(params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

const attrs = (span: ReadableSpan) => span.attributes;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("runtime/telemetry/otel", () => {
  before(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  });
  after(() => {
    context.disable();
    propagation.disable();
  });

  it("every attribute and metric name it writes is the one @opentelemetry/semantic-conventions publishes", () => {
    expect(ATTR).to.deep.equal({
      methodName: semconv.ATTR_MCP_METHOD_NAME,
      protocolVersion: semconv.ATTR_MCP_PROTOCOL_VERSION,
      sessionId: semconv.ATTR_MCP_SESSION_ID,
      resourceUri: semconv.ATTR_MCP_RESOURCE_URI,
      requestId: semconv.ATTR_JSONRPC_REQUEST_ID,
      toolName: semconv.ATTR_GEN_AI_TOOL_NAME,
      promptName: semconv.ATTR_GEN_AI_PROMPT_NAME,
      operationName: semconv.ATTR_GEN_AI_OPERATION_NAME,
      statusCode: semconv.ATTR_RPC_RESPONSE_STATUS_CODE,
      errorType: semconv.ATTR_ERROR_TYPE,
      networkTransport: semconv.ATTR_NETWORK_TRANSPORT,
      serverAddress: semconv.ATTR_SERVER_ADDRESS,
      serverPort: semconv.ATTR_SERVER_PORT,
    });
    expect(METRIC).to.deep.equal({
      serverOperation: semconv.METRIC_MCP_SERVER_OPERATION_DURATION,
      clientOperation: semconv.METRIC_MCP_CLIENT_OPERATION_DURATION,
      serverSession: semconv.METRIC_MCP_SERVER_SESSION_DURATION,
      clientSession: semconv.METRIC_MCP_CLIENT_SESSION_DURATION,
    });
  });

  for (const [transportName, connect] of [
    ["in memory", inMemory],
    ["Streamable HTTP", overHttp],
    ["stdio", overStdio],
  ] as const)
    for (const revision of REVISIONS)
      describe(`${transportName}, ${revision}`, () => {
        let t: ReturnType<typeof telemetry>;
        let server: McpServer;
        let session: Awaited<ReturnType<Connect>>;
        /** The `_meta` of each tools/call as the server received it. */
        let received: Record<string, unknown>[];
        beforeEach(async () => {
          t = telemetry();
          received = [];
          const watch: Hook = (exchange, next) => {
            if (exchange.method === "tools/call") received.push({ ...(exchange.params?._meta as Record<string, unknown>) });
            return next();
          };
          const hook = otel({ tracerProvider: t.tracerProvider, meterProvider: t.meterProvider });
          server = newServer([watch, hook]);
          session = await connect(server, revision, [otel({ tracerProvider: t.tracerProvider, meterProvider: t.meterProvider })]);
        });
        afterEach(async () => {
          await session.done();
          await server.close();
          await t.shutdown();
        });

        it("a tool call: a CLIENT span and its SERVER child in one trace, named and attributed as the conventions say", async () => {
          await session.client.callTool("add", { a: 1, b: 2 });
          const calls = t.spans().filter((span) => span.name === "tools/call add");
          const client = calls.find((span) => span.kind === SpanKind.CLIENT)!;
          const served = calls.find((span) => span.kind === SpanKind.SERVER)!;
          expect(client, "client span").to.not.equal(undefined);
          expect(served, "server span").to.not.equal(undefined);
          expect(served.spanContext().traceId).to.equal(client.spanContext().traceId);
          expect(parentOf(served)).to.equal(client.spanContext().spanId);
          // Carried on the wire (in one process the async context alone could link them): W3C trace context, unprefixed in _meta.
          expect(received).to.have.length(1);
          expect(received[0]!.traceparent).to.equal(`00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`);
          for (const span of [client, served]) {
            expect(attrs(span)).to.include({
              [semconv.ATTR_MCP_METHOD_NAME]: "tools/call",
              [semconv.ATTR_GEN_AI_TOOL_NAME]: "add",
              [semconv.ATTR_GEN_AI_OPERATION_NAME]: semconv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
              [semconv.ATTR_MCP_PROTOCOL_VERSION]: revision,
            });
            expect(attrs(span)[semconv.ATTR_JSONRPC_REQUEST_ID]).to.be.a("string");
            expect(span.status.code).to.equal(SpanStatusCode.UNSET);
            expect(attrs(span)).to.not.have.property(semconv.ATTR_ERROR_TYPE);
          }
          expect(attrs(client)[semconv.ATTR_JSONRPC_REQUEST_ID]).to.equal(attrs(served)[semconv.ATTR_JSONRPC_REQUEST_ID]);
          if (session.network === "pipe") for (const span of [client, served]) expect(attrs(span)).to.include({ [semconv.ATTR_NETWORK_TRANSPORT]: semconv.NETWORK_TRANSPORT_VALUE_PIPE });
          else if (session.network) {
            expect(attrs(client)).to.include({ [semconv.ATTR_NETWORK_TRANSPORT]: "tcp", [semconv.ATTR_SERVER_ADDRESS]: "127.0.0.1", [semconv.ATTR_SERVER_PORT]: session.port });
            expect(attrs(served)).to.include({ [semconv.ATTR_NETWORK_TRANSPORT]: "tcp" });
            if (revision === "2025-11-25") {
              // The session id the server issued, on both sides.
              expect(attrs(served)[semconv.ATTR_MCP_SESSION_ID]).to.be.a("string").and.to.equal(attrs(client)[semconv.ATTR_MCP_SESSION_ID]);
            } else expect(attrs(served)).to.not.have.property(semconv.ATTR_MCP_SESSION_ID);
          } else expect(attrs(client)).to.not.have.property(semconv.ATTR_NETWORK_TRANSPORT);

          const histograms = await t.histograms();
          for (const name of [semconv.METRIC_MCP_CLIENT_OPERATION_DURATION, semconv.METRIC_MCP_SERVER_OPERATION_DURATION]) {
            const point = histograms.get(name)?.find((p) => p.attributes[semconv.ATTR_MCP_METHOD_NAME] === "tools/call");
            expect(point, name).to.not.equal(undefined);
            expect(point!.value.count).to.equal(1);
            expect(point!.attributes).to.include({ [semconv.ATTR_GEN_AI_TOOL_NAME]: "add" });
            // Unbounded values stay out of metric attributes.
            expect(point!.attributes).to.not.have.property(semconv.ATTR_JSONRPC_REQUEST_ID);
          }
        });

        it("error spans: an unknown method and invalid params carry the JSON-RPC code; an isError result is a tool_error", async () => {
          await session.client.request("no/such", {}).catch(() => undefined);
          await session.client.request("prompts/get", {}).catch(() => undefined);
          await session.client.callTool("fails", {});
          const find = (name: string, kind: SpanKind) => t.spans().find((span) => span.name === name && span.kind === kind)!;
          for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
            const unknown = find("no/such", kind);
            expect(attrs(unknown)).to.include({ [semconv.ATTR_ERROR_TYPE]: String(ErrorCode.MethodNotFound), [semconv.ATTR_RPC_RESPONSE_STATUS_CODE]: String(ErrorCode.MethodNotFound) });
            expect(unknown.status.code).to.equal(SpanStatusCode.ERROR);
            expect(unknown.status.message).to.match(/no\/such/);
            const invalid = find("prompts/get", kind);
            expect(attrs(invalid)).to.include({ [semconv.ATTR_ERROR_TYPE]: String(ErrorCode.InvalidParams) });
            expect(invalid.status.code).to.equal(SpanStatusCode.ERROR);
            const failed = find("tools/call fails", kind);
            expect(attrs(failed)).to.include({ [semconv.ATTR_ERROR_TYPE]: "tool_error" });
            expect(attrs(failed)).to.not.have.property(semconv.ATTR_RPC_RESPONSE_STATUS_CODE);
            expect(failed.status.code).to.equal(SpanStatusCode.ERROR);
          }
          const point = (await t.histograms()).get(semconv.METRIC_MCP_SERVER_OPERATION_DURATION)!.find((p) => p.attributes[semconv.ATTR_MCP_METHOD_NAME] === "no/such");
          expect(point!.attributes[semconv.ATTR_ERROR_TYPE]).to.equal(String(ErrorCode.MethodNotFound));
        });

        it("prompts and resources: gen_ai.prompt.name in the name, mcp.resource.uri as an attribute only", async () => {
          await session.client.getPrompt("greet");
          await session.client.readResource("file:///notes.txt");
          const prompt = t.spans().find((span) => span.name === "prompts/get greet" && span.kind === SpanKind.SERVER)!;
          expect(attrs(prompt)).to.include({ [semconv.ATTR_GEN_AI_PROMPT_NAME]: "greet" });
          expect(attrs(prompt)).to.not.have.property(semconv.ATTR_GEN_AI_OPERATION_NAME);
          const read = t.spans().find((span) => span.name === "resources/read" && span.kind === SpanKind.SERVER)!;
          expect(attrs(read)).to.include({ [semconv.ATTR_MCP_RESOURCE_URI]: "file:///notes.txt" });
        });
      });

  it("the server continues a trace the application started around the client call, and baggage crosses too", async () => {
    const t = telemetry();
    let baggage: string | undefined;
    // After the server's otel hook, so it sees the context that hook extracted.
    const spy: Hook = (exchange, next) => {
      if (exchange.method === "tools/call") baggage = propagation.getBaggage(context.active())?.getEntry("user")?.value;
      return next();
    };
    const server = newServer([otel({ tracerProvider: t.tracerProvider, meterProvider: t.meterProvider }), spy]);
    const session = await inMemory(server, "2026-07-28", [otel({ tracerProvider: t.tracerProvider, meterProvider: t.meterProvider })]);
    try {
      const tracer = t.tracerProvider.getTracer("app");
      const outer = tracer.startSpan("agent step");
      const withBaggage = propagation.setBaggage(trace.setSpan(context.active(), outer), propagation.createBaggage({ user: { value: "alice" } }));
      await context.with(withBaggage, () => session.client.callTool("add", { a: 2, b: 2 }));
      outer.end();
      const client = t.spans().find((span) => span.name === "tools/call add" && span.kind === SpanKind.CLIENT)!;
      const served = t.spans().find((span) => span.name === "tools/call add" && span.kind === SpanKind.SERVER)!;
      expect(parentOf(client)).to.equal(outer.spanContext().spanId);
      expect(served.spanContext().traceId).to.equal(outer.spanContext().traceId);
      expect(parentOf(served)).to.equal(client.spanContext().spanId);
      expect(baggage).to.equal("alice");
    } finally {
      await session.done();
      await server.close();
      await t.shutdown();
    }
  });

  for (const revision of REVISIONS)
    it(`${revision}: session duration, on each side when the connection closes, for a session-era session only`, async () => {
      const t = telemetry();
      const hook = () => otel({ tracerProvider: t.tracerProvider, meterProvider: t.meterProvider });
      const server = newServer([hook()]);
      const session = await overStdio(server, revision, [hook()]);
      await session.client.callTool("add", { a: 1, b: 2 });
      await session.done();
      await server.close();
      try {
        const histograms = await t.histograms();
        for (const name of [semconv.METRIC_MCP_SERVER_SESSION_DURATION, semconv.METRIC_MCP_CLIENT_SESSION_DURATION]) {
          const points = histograms.get(name) ?? [];
          if (revision === "2026-07-28") expect(points.reduce((sum, point) => sum + point.value.count, 0), name).to.equal(0);
          else {
            expect(points, name).to.have.length(1);
            expect(points[0]!.value.count).to.equal(1);
            expect(points[0]!.attributes).to.deep.equal({ [semconv.ATTR_MCP_PROTOCOL_VERSION]: revision, [semconv.ATTR_NETWORK_TRANSPORT]: "pipe" });
          }
        }
      } finally {
        await t.shutdown();
      }
    });

  it("a request from the server (elicitation) continues the trace the other way: tool span -> server CLIENT span -> client SERVER span", async () => {
    const t = telemetry();
    const hook = () => otel({ tracerProvider: t.tracerProvider, meterProvider: t.meterProvider });
    const server = newServer([hook()]);
    const [serverEnd, clientEnd] = createMemoryPair();
    server.connect(serverEnd);
    const client = await McpClient.connect(clientEnd, {
      name: "c",
      version: "1.0.0",
      revision: "2025-11-25",
      logger: silentLogger,
      hooks: [hook()],
      handlers: { elicitation: () => ({ action: "accept", content: { name: "ada" } }) },
    });
    try {
      const result = await client.callTool("ask", {});
      expect((result.content[0] as { text: string }).text).to.equal("ada");
      const spans = t.spans();
      const find = (name: string, kind: SpanKind) => spans.find((span) => span.name === name && span.kind === kind)!;
      const tool = find("tools/call ask", SpanKind.SERVER);
      const asked = find("elicitation/create", SpanKind.CLIENT);
      const answered = find("elicitation/create", SpanKind.SERVER);
      expect(parentOf(asked)).to.equal(tool.spanContext().spanId);
      expect(parentOf(answered)).to.equal(asked.spanContext().spanId);
      expect(new Set([tool, asked, answered].map((span) => span.spanContext().traceId)).size).to.equal(1);
    } finally {
      await client.close();
      await server.close();
      await t.shutdown();
    }
  });

  it("a cancelled request: the client span ends in error with the abort, the server span when its handler stops", async () => {
    const t = telemetry();
    const hook = () => otel({ tracerProvider: t.tracerProvider, meterProvider: t.meterProvider });
    let arrived!: () => void;
    const served = new Promise<void>((resolve) => (arrived = resolve));
    const onArrival: Hook = (exchange, next) => {
      if (exchange.method === "tools/call") arrived();
      return next();
    };
    const server = newServer([hook(), onArrival]);
    const session = await inMemory(server, "2025-11-25", [hook()]);
    try {
      const controller = new AbortController();
      const call = session.client.callTool("slow", {}, { signal: controller.signal });
      await served;
      controller.abort();
      expect(await call.catch((error: Error) => error.name)).to.equal("AbortError");
      // The server's handler stops once notifications/cancelled arrives: its span then ends.
      for (let turns = 0; turns < 1000 && !t.spans().some((span) => span.name === "tools/call slow" && span.kind === SpanKind.SERVER); turns++) await new Promise((resolve) => setImmediate(resolve));
      const client = t.spans().find((span) => span.name === "tools/call slow" && span.kind === SpanKind.CLIENT)!;
      expect(client.status.code).to.equal(SpanStatusCode.ERROR);
      expect(attrs(client)[semconv.ATTR_ERROR_TYPE]).to.equal("AbortError");
      const handled = t.spans().find((span) => span.name === "tools/call slow" && span.kind === SpanKind.SERVER)!;
      expect(handled.status.code).to.equal(SpanStatusCode.ERROR);
      expect(parentOf(handled)).to.equal(client.spanContext().spanId);
      // The client told the server: a notifications/cancelled span on each side.
      expect(t.spans().filter((span) => span.name === "notifications/cancelled").map((span) => span.kind).sort()).to.deep.equal([SpanKind.SERVER, SpanKind.CLIENT].sort());
    } finally {
      await session.done();
      await server.close();
      await t.shutdown();
    }
  });

  type SdkEnd = ConstructorParameters<typeof FromSdkTransport>[0];
  /** The official SDK's clients, v1 (a root devDependency) and v2 (tools/bench-peers, `make tools`): each serves the other end of its in-memory pipe with `serve`, then connects. */
  const SDK_CLIENTS: [string, (serve: (end: SdkEnd) => void) => Promise<SdkLike>][] = [
    [
      "v1",
      async (serve) => {
        const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
        serve(serverEnd);
        const client = new SdkClient({ name: "sdk-v1", version: "1.0.0" });
        await client.connect(clientEnd);
        return client;
      },
    ],
    [
      "v2",
      async (serve) => {
        const peers = join(import.meta.dirname, "..", "..", "..", "tools", "bench-peers", "node_modules", "@modelcontextprotocol");
        if (!existsSync(join(peers, "client"))) throw new Error("tools/bench-peers is not installed: run `make tools`");
        const { Client } = (await import(join(peers, "client", "dist", "index.mjs"))) as { Client: new (info: object) => SdkLike & { connect(end: unknown): Promise<void> } };
        const { InMemoryTransport: V2Memory } = (await import(join(peers, "server", "dist", "index.mjs"))) as { InMemoryTransport: { createLinkedPair(): [unknown, SdkEnd] } };
        const [clientEnd, serverEnd] = V2Memory.createLinkedPair();
        serve(serverEnd);
        const client = new Client({ name: "sdk-v2", version: "1.0.0" });
        await client.connect(clientEnd);
        return client;
      },
    ],
  ];

  for (const [version, connectSdk] of SDK_CLIENTS)
    it(`the official SDK ${version} client sending traceparent in _meta: our server span continues its trace`, async () => {
      const t = telemetry();
      const server = newServer([otel({ tracerProvider: t.tracerProvider, meterProvider: t.meterProvider })]);
      const client = await connectSdk((end) => server.connect(new FromSdkTransport(end)));
      try {
        const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        const spanId = "00f067aa0ba902b7";
        await client.callTool({ name: "add", arguments: { a: 1, b: 1 }, _meta: { traceparent: `00-${traceId}-${spanId}-01`, tracestate: "rojo=00f067aa0ba902b7" } });
        const served = t.spans().find((span) => span.name === "tools/call add" && span.kind === SpanKind.SERVER)!;
        expect(served.spanContext().traceId).to.equal(traceId);
        expect(parentOf(served)).to.equal(spanId);
        expect(served.parentSpanContext?.isRemote).to.equal(true);
        expect(served.spanContext().traceState?.get("rojo")).to.equal("00f067aa0ba902b7");
      } finally {
        await client.close();
        await server.close();
        await t.shutdown();
      }
    });

  it("without a registered provider nothing is recorded, no trace context is sent, and calls work; a provider registered later is used from then on", async () => {
    // The globals are the API's no-ops (nothing registered): otel() with its defaults.
    const sent: unknown[] = [];
    const watch: Hook = (exchange, next) => {
      if (exchange.method === "tools/call") sent.push(exchange.params?._meta);
      return next();
    };
    const server = newServer([watch, otel()]);
    const session = await inMemory(server, "2025-11-25", [otel()]);
    const t = telemetry();
    try {
      const result = await session.client.callTool("add", { a: 3, b: 4 });
      expect((result.content[0] as { text: string }).text).to.equal("7");
      expect(sent).to.have.length(1);
      expect(sent[0] ?? {}).to.not.have.property("traceparent");
      expect(trace.getActiveSpan()).to.equal(undefined);

      // The application registers its SDK after the server and client were made.
      expect(trace.setGlobalTracerProvider(t.tracerProvider)).to.equal(true);
      expect(metrics.setGlobalMeterProvider(t.meterProvider)).to.equal(true);
      await session.client.callTool("add", { a: 1, b: 1 });
      expect((sent[1] as Record<string, unknown>).traceparent).to.be.a("string");
      expect(t.spans().filter((span) => span.name === "tools/call add").map((span) => span.kind).sort()).to.deep.equal([SpanKind.SERVER, SpanKind.CLIENT].sort());
      expect((await t.histograms()).get(semconv.METRIC_MCP_SERVER_OPERATION_DURATION)?.[0]?.value.count).to.equal(1);
    } finally {
      trace.disable();
      metrics.disable();
      await session.done();
      await server.close();
      await t.shutdown();
    }
  });
});
