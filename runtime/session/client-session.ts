import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Notification, Request } from "../jsonrpc/messages.js";
import { Peer, type RequestOptions, type Strays } from "../jsonrpc/peer.js";
import { HookExchange, reportClosed, runHooks, sendThroughHooks, type Hook } from "../shared/hooks.js";
import type { MessageContext, Transport } from "../jsonrpc/transport.js";
import { SchemaCompiler, type SchemaValidator } from "../shared/json-schema.js";
import type { Implementation, ServerCapabilities } from "../shared/types.js";
import type { Logger } from "../util/logger.js";
import { HttpStatusError } from "../transports/http/status-error.js";
import { shallowCopy } from "../util/shallow-copy.js";
import { withElicitationDefaults } from "./elicitation-defaults.js";
import { META } from "./meta.js";
import { ALL_REVISIONS, eraOf, isRevision, loadRevision, type Era, type LoadedRevision, type MethodDescriptor, type Revision } from "./revisions.js";
import { reported, resultCandidates, summarize, type Validating } from "./validate.js";

/** How the client answers what a server asks, in either era. Each one declares its capability where the revision defines it. */
export interface ClientHandlers {
  /** elicitation/create: ask the user. An accepted form's missing fields get the schema's defaults (SEP-1034). */
  readonly elicitation?: (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** sampling/createMessage: ask the model. */
  readonly sampling?: (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** roots/list. */
  readonly roots?: () => Record<string, unknown> | Promise<Record<string, unknown>>;
}

/**
 * What to do with a result, or a request from the server, that does not match the negotiated
 * revision's schema. "strict": refuse it (-32603 for a result, -32602 for a request), for tests
 * and for servers you build. "warn": log the issues and use the message, for servers you do not
 * control (many send newer content types at older revisions). "off": no check, for trusted servers
 * on a hot path.
 */
export type ValidationMode = "strict" | "warn" | "off";

export interface ClientSessionOptions {
  readonly name: string;
  readonly version: string;
  /** Declared capabilities; those of `handlers` are added where the revision defines them. */
  readonly capabilities?: Record<string, unknown>;
  readonly handlers?: ClientHandlers;
  /** Extension identifiers declared under `capabilities.extensions` in either era, and those declared in the stateless era only. */
  readonly extensions: readonly string[];
  readonly statelessExtensions: readonly string[];
  readonly requestTimeoutMs: number;
  /** PeerOptions.maxConcurrentRequests. */
  readonly maxConcurrentRequests?: number;
  /** The whole of `open` (every probe and retry) within this many milliseconds. */
  readonly connectTimeoutMs: number;
  readonly validate: ValidationMode;
  readonly logger: Logger;
  /** Around every message in and out (shared/hooks.ts); empty: none of that machinery runs. */
  readonly hooks: readonly Hook[];
}

/** How negotiation sends its own requests (server/discover, initialize): through the client's call path, checks included. */
export type Send = (method: string, params: Record<string, unknown>, options: { readonly fresh?: boolean; readonly timeoutMs?: number }) => Promise<Record<string, unknown>>;

/** How much of a line that is not JSON-RPC is quoted. */
const QUOTED_CHARS = 80;

/** A line from the server as the client quotes it: QUOTED_CHARS at most, as a JSON string. */
function quoted(line: string): string {
  return JSON.stringify(line.length > QUOTED_CHARS ? `${line.slice(0, QUOTED_CHARS)}…` : line);
}

/** What the server may ask, by method: the handler that answers it. */
const ANSWERS: Readonly<Record<string, keyof ClientHandlers>> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/**
 * One connection of a client, in both eras, as ServerSession is of a server: it negotiates (the
 * era found by discover, else initialize; -32022 retried once with a version the server names),
 * keeps what was negotiated, answers the server's requests (session era) and input requests
 * (stateless era) with `handlers`, checks results and requests against the revision's
 * validators, and writes each request's `_meta`. McpClient is the typed API over it.
 */
export class ClientSession {
  readonly peer: Peer;
  private negotiated!: LoadedRevision;
  /** The revision offered at initialize: what our capabilities were declared against. */
  private offered: LoadedRevision | undefined;
  private declaredCapabilities: Record<string, unknown> = {};
  /** Stateless era: the `_meta` of a request that adds nothing to it, built once per revision and shared (a sent message is never mutated). */
  private plainMeta: { readonly module: LoadedRevision; readonly capabilities: object; readonly meta: Readonly<Record<string, unknown>> } | undefined;
  private info: Implementation = { name: "", version: "" };
  private serverCaps: ServerCapabilities = {};
  private serverInstructions: string | undefined;
  private readonly resultSchemas = new WeakMap<object, SchemaValidator>();
  private schemas: SchemaCompiler | undefined;
  /** The lines that are not JSON-RPC were reported (once: in a failed open's error, or logged after one that worked). */
  private straysReported = false;
  /** After open: how many lines that are not JSON-RPC had been reported when last reported, and at what count they next are. */
  private straysLogged: number | undefined;
  private nextStraysLog = Number.POSITIVE_INFINITY;

  constructor(
    transport: Transport,
    private readonly options: ClientSessionOptions,
    notification: (notification: Notification) => void,
  ) {
    const { hooks } = options;
    const openedAt = hooks.length === 0 ? 0 : performance.now();
    this.peer = new Peer(
      transport,
      hooks.length === 0
        ? { request: (request) => this.answer(request), notification, closed: () => this.straysAtClose() }
        : {
            request: (request, inbound) => {
              const seen = this.exchange("incoming", "request", request.method, request.params, inbound.context, inbound);
              seen.id = request.id;
              return runHooks(hooks, seen, () => this.answer(seen.params === request.params ? request : { ...request, params: seen.params }));
            },
            notification: (message, context) => {
              const seen = this.exchange("incoming", "notification", message.method, message.params, context, undefined);
              runHooks(hooks, seen, () => notification(message)).catch((error: unknown) =>
                options.logger("warn", `notification ${message.method} refused by a hook: ${error instanceof Error ? error.message : String(error)}`),
              );
            },
            closed: (error) => {
              this.straysAtClose();
              const module = this.negotiated as LoadedRevision | undefined;
              reportClosed(hooks, { side: "client", revision: module?.revision, era: module?.era, transport: this.peer.facts, durationMs: performance.now() - openedAt, error });
            },
          },
      {
        logger: options.logger,
        requestTimeoutMs: options.requestTimeoutMs,
        maxConcurrentRequests: options.maxConcurrentRequests,
        cancel: (id, method, reason) => {
          if (method !== "initialize") void this.notify("notifications/cancelled", { requestId: id, reason }).catch(() => {});
        },
        onStray: (strays) => this.strayed(strays),
      },
    );
  }

  /** The negotiated revision's module. */
  get module(): LoadedRevision {
    return this.negotiated;
  }

  get era(): Era {
    return this.negotiated.era;
  }

  get serverInfo(): Implementation {
    return this.info;
  }

  get serverCapabilities(): ServerCapabilities {
    return this.serverCaps;
  }

  get instructions(): string | undefined {
    return this.serverInstructions;
  }

  // -- to the server ------------------------------------------------------------------------------------

  /** A request as sent on the wire (each retry of a call is one), through the hooks. */
  request(method: string, params: Record<string, unknown> | undefined, options?: RequestOptions): Promise<unknown> {
    const { hooks } = this.options;
    if (hooks.length === 0) return this.peer.request(method, params, options);
    return sendThroughHooks(hooks, this.exchange("outgoing", "request", method, params, undefined, undefined), this.peer, options);
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    const { hooks } = this.options;
    if (hooks.length === 0) return this.peer.notify(method, params);
    return sendThroughHooks(hooks, this.exchange("outgoing", "notification", method, params, undefined, undefined), this.peer).then(() => undefined);
  }

  /** What the hooks see of a message on this connection. */
  private exchange(
    direction: "incoming" | "outgoing",
    kind: "request" | "notification",
    method: string,
    params: Record<string, unknown> | undefined,
    context: MessageContext | undefined,
    signal: { readonly signal: AbortSignal } | undefined,
  ): HookExchange {
    // Before negotiation settles (server/discover, initialize) the revision is the one being tried.
    const revision = (this.negotiated as LoadedRevision | undefined)?.revision;
    return new HookExchange("client", direction, kind, method, params, undefined, revision, this.peer.facts, context, signal);
  }

  // -- negotiation ------------------------------------------------------------------------------------

  /**
   * Opens at `wanted`, or finds the era ("auto"); -32022 with `data.supported` is retried once with
   * one of those. All within `connectTimeoutMs`: each request gets its share of the time left, so a
   * server that answers nothing fails fast, and says so.
   */
  async open(wanted: Revision | "auto", send: Send, mayRetryVersion = true): Promise<void> {
    const total = this.options.connectTimeoutMs;
    const ends = Date.now() + total;
    const asked: string[] = [];
    let answered = false;
    // A request's share of the time left, `requests` still to share it: the first of two era probes leaves half to the second.
    const within = (requests: number): Send => (method, params, options) => {
      asked.push(`${method} at ${this.negotiated.revision}`);
      return send(method, params, { ...options, timeoutMs: Math.max(1, (ends - Date.now()) / requests) }).then(
        (result) => ((answered = true), result),
        (error: unknown) => {
          if (!timedOut(error)) answered = true;
          throw error;
        },
      );
    };
    try {
      await this.negotiate(wanted, within, mayRetryVersion);
    } catch (error) {
      if (answered || !timedOut(error)) throw error;
      throw new RpcError(ErrorCode.RequestTimeout, `the server answered nothing within ${total} ms (connectTimeoutMs): ${asked.join(", ")}${this.straysNote()}`, { timeout: total });
    }
    const strays = this.strays();
    if (strays) this.options.logger("warn", `the server ${strays}`);
    this.straysLogged = this.peer.strays?.count ?? 0;
    this.nextStraysLog = this.straysLogged + 1;
  }

  /** A line that is not JSON-RPC after open (a log line on stdout): logged, the first and then at ten times as many. */
  private strayed(strays: Strays): void {
    if (strays.count >= this.nextStraysLog) this.logStrays(strays);
  }

  /** The connection closed: lines not logged yet are, with the last (often a message the server's exit cut short). */
  private straysAtClose(): void {
    const strays = this.peer.strays;
    if (strays && this.straysLogged !== undefined && strays.count > this.straysLogged) this.logStrays(strays);
  }

  private logStrays(strays: Strays): void {
    this.straysLogged = strays.count;
    this.nextStraysLog = strays.count * 10;
    const why = strays.why === undefined ? "" : ` (${strays.why})`;
    this.options.logger("warn", `the server has written ${strays.count} ${strays.count === 1 ? "line that is" : "lines that are"} not JSON-RPC; the last: ${quoted(strays.last)}${why}`);
  }

  /** `open`'s steps; `share`: how many requests, this one included, are still to share the time left. */
  private async negotiate(wanted: Revision | "auto", within: (share: number) => Send, mayRetryVersion: boolean, share = 1): Promise<void> {
    if (wanted !== "auto") {
      if (!isRevision(wanted)) throw new Error(`unknown MCP revision ${String(wanted)} (generated: ${ALL_REVISIONS.join(", ")})`);
      const send = within(share);
      try {
        return await (eraOf(wanted) === "stateless" ? this.discoverAt(wanted, send) : this.initialize(wanted, send));
      } catch (error) {
        const other = mayRetryVersion ? this.supportedVersion(error) : undefined;
        if (other === undefined) throw error;
        return this.negotiate(other, within, false, share);
      }
    }
    const stateless = latest("stateless");
    const session = latest("session");
    let probe: unknown;
    try {
      return await this.negotiate(stateless, within, true, 2);
    } catch (error) {
      probe = error;
    }
    // 401 or 403: the server refuses this client, whatever the era; its error says what it requires.
    if (probe instanceof HttpStatusError && probe.unauthorized) throw probe;
    if (this.peer.closed) throw new Error(`server/discover at ${stateless} failed, and the connection closed: ${message(probe)}${this.straysNote()}`);
    try {
      await this.negotiate(session, within, true);
    } catch (error) {
      if (timedOut(probe) && timedOut(error)) throw error; // neither probe was answered: open says so
      // The second probe refused for authorization: that refusal is the answer, with its status and challenge.
      if (error instanceof HttpStatusError && error.unauthorized) throw error;
      throw new Error(`no MCP era works with this server: server/discover at ${stateless} failed (${message(probe)}), then initialize at ${session} failed (${message(error)})${this.straysNote()}`, {
        cause: error,
      });
    }
  }

  /** What arrived that is not JSON-RPC, said once: "wrote N lines that are not JSON-RPC; the first: ...". */
  private strays(): string | undefined {
    const strays = this.peer.strays;
    if (!strays || this.straysReported) return undefined;
    this.straysReported = true;
    return `wrote ${strays.count} ${strays.count === 1 ? "line that is" : "lines that are"} not JSON-RPC; the first: ${quoted(strays.first)}`;
  }

  private straysNote(): string {
    const strays = this.strays();
    return strays ? `; it ${strays}` : "";
  }

  private async discoverAt(revision: Revision, send: Send): Promise<void> {
    this.negotiated = await loadRevision(revision);
    this.declaredCapabilities = this.declared(this.negotiated);
    const discovered = await send("server/discover", {}, { fresh: true });
    const supported = discovered.supportedVersions;
    if (Array.isArray(supported) && !supported.includes(revision)) {
      const error = new RpcError(ErrorCode.UnsupportedProtocolVersion, `the server does not speak ${revision}`, { supported, requested: revision });
      throw error;
    }
    this.serverCaps = (discovered.capabilities ?? {}) as ServerCapabilities;
    this.serverInstructions = discovered.instructions as string | undefined;
    const meta = discovered._meta as Record<string, unknown> | undefined;
    const info = meta?.[META.serverInfo] ?? discovered.serverInfo;
    if (isObject(info)) this.info = info as unknown as Implementation;
  }

  private async initialize(revision: Revision, send: Send): Promise<void> {
    this.negotiated = this.offered = await loadRevision(revision);
    this.declaredCapabilities = this.declared(this.negotiated);
    const result = await send("initialize", { protocolVersion: revision, capabilities: this.declaredCapabilities, clientInfo: { name: this.options.name, version: this.options.version } }, {});
    const answered = result.protocolVersion as string;
    if (!isRevision(answered) || eraOf(answered) !== "session")
      throw new Error(`the server answered initialize with protocol version ${answered}, which this client does not speak`);
    this.negotiated = await loadRevision(answered);
    this.serverCaps = result.capabilities as ServerCapabilities;
    this.info = result.serverInfo as Implementation;
    this.serverInstructions = result.instructions as string | undefined;
    await this.notify("notifications/initialized");
  }

  /** The capabilities to declare at `module`: those of `handlers` only where the revision has the method. */
  private declared(module: LoadedRevision): Record<string, unknown> {
    const capabilities = { ...this.options.capabilities };
    const ids = module.era === "stateless" ? [...this.options.extensions, ...this.options.statelessExtensions] : this.options.extensions;
    if (ids.length > 0) {
      const extensions = { ...(capabilities.extensions as Record<string, unknown> | undefined) };
      for (const id of ids) extensions[id] ??= {};
      capabilities.extensions = extensions;
    }
    for (const [method, name] of Object.entries(ANSWERS)) {
      const defined = module.methods.get(method)?.senders.includes("server") || module.inputRequests.has(method);
      if (!defined) delete capabilities[name];
      else if (this.options.handlers?.[name]) capabilities[name] ??= {};
    }
    return capabilities;
  }

  /** -32022's `data.supported`: the newest version we speak, or undefined. */
  supportedVersion(error: unknown): Revision | undefined {
    if (!(error instanceof RpcError) || error.code !== ErrorCode.UnsupportedProtocolVersion) return undefined;
    const supported = (error.data as { supported?: unknown } | undefined)?.supported;
    if (!Array.isArray(supported)) return undefined;
    return [...ALL_REVISIONS].reverse().find((revision) => supported.includes(revision));
  }

  // -- from the server ----------------------------------------------------------------------------------

  /** Session era: a request from the server. */
  private async answer(request: Request): Promise<unknown> {
    if (request.method === "ping") return {};
    const name = ANSWERS[request.method];
    const handler = name ? this.options.handlers?.[name] : undefined;
    // Declared at initialize against the offered revision, so answered even when the server then chose an older one.
    const module = [this.negotiated, this.offered].find((m) => m?.methods.get(request.method)?.senders.includes("server"));
    const descriptor = module?.methods.get(request.method);
    if (!module || !descriptor || !handler) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: this client does not handle ${request.method}`);
    this.checkInbound(module, descriptor.message, request, request.method);
    return this.handle(request.method, handler, request.params ?? {});
  }

  /** Stateless era: the answers to an InputRequiredResult's questions, by key. */
  async answerInputs(requests: unknown): Promise<Record<string, unknown>> {
    const entries = Object.entries((requests ?? {}) as Record<string, { method: string; params?: Record<string, unknown> }>);
    const answers = await Promise.all(
      entries.map(async ([key, question]) => {
        const name = ANSWERS[question.method];
        const handler = name ? this.options.handlers?.[name] : undefined;
        if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `the server asked for ${question.method}, which this client does not handle`);
        const descriptor = this.negotiated.inputRequests.get(question.method);
        if (descriptor) this.checkInbound(this.negotiated, descriptor.message, question, `inputRequests.${key}`);
        return [key, await this.handle(question.method, handler, question.params ?? {})] as const;
      }),
    );
    return Object.fromEntries(answers);
  }

  private async handle(method: string, handler: NonNullable<ClientHandlers[keyof ClientHandlers]>, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const result = await (handler as (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>)(params);
    return method === "elicitation/create" ? withElicitationDefaults(params, result) : result;
  }

  // -- checks -------------------------------------------------------------------------------------------

  /** A result schema is about to be used (a method no revision defines): the schema engine may load asynchronously. */
  async loadSchemas(): Promise<void> {
    if (this.options.validate !== "off") await (this.schemas ??= new SchemaCompiler(this.options.logger)).load();
  }

  /** A result against its definition (or, for a method the revision does not define, against `resultSchema`). */
  checkResult(method: string, descriptor: MethodDescriptor | undefined, result: Record<string, unknown>, resultSchema: Record<string, unknown> | undefined, module: Validating): void {
    if (this.options.validate === "off") return;
    if (!descriptor) {
      if (!resultSchema) return;
      const problem = this.resultValidator(resultSchema)(result);
      if (problem !== undefined) this.report(`the server's ${method} result does not match its resultSchema: ${problem}`, ErrorCode.InternalError, { result });
      return;
    }
    const candidates = resultCandidates(descriptor.results ?? [], result);
    if (candidates.length === 0 || candidates.some((name) => module.validator(name).is(result))) return;
    const issues = module.validator(candidates[0]!).check(result);
    this.report(`the server's ${method} result is not a valid ${candidates[0]} of MCP ${module.revision}: ${summarize(issues)}`, ErrorCode.InternalError, {
      issues: reported(issues),
      result,
    });
  }

  /** A request from the server (or an input request) against its definition. */
  private checkInbound(module: LoadedRevision, definition: string, message: unknown, what: string): void {
    if (this.options.validate === "off") return;
    const validator = module.validator(definition);
    if (validator.is(message)) return;
    const issues = validator.check(message);
    this.report(`Invalid params for ${what} (MCP ${module.revision}): ${summarize(issues)}`, ErrorCode.InvalidParams, { issues: reported(issues) });
  }

  private report(text: string, code: number, data: unknown): void {
    if (this.options.validate === "strict") throw new RpcError(code, text, data);
    this.options.logger("warn", `${text} (validate: "warn", used as is)`);
  }

  private resultValidator(schema: Record<string, unknown>): SchemaValidator {
    let validate = this.resultSchemas.get(schema);
    if (!validate) this.resultSchemas.set(schema, (validate = (this.schemas ??= new SchemaCompiler(this.options.logger)).compile(schema)));
    return validate;
  }

  // -- _meta --------------------------------------------------------------------------------------------

  /** A request's params as sent: its progress token, and (stateless era) the version, capabilities, client info and log level in `_meta`. */
  withMeta(params: Record<string, unknown>, progressToken: number | undefined, logLevel: string | undefined): Record<string, unknown> {
    const stateless = this.negotiated.era === "stateless";
    if (!stateless && progressToken === undefined) return params;
    // Copies made key by key, not spread: see shallowCopy.
    const sent = shallowCopy(params);
    if (stateless && progressToken === undefined && logLevel === undefined && params._meta === undefined) {
      sent._meta = this.sharedMeta();
      return sent;
    }
    const meta = typeof params._meta === "object" && params._meta !== null ? shallowCopy(params._meta as Record<string, unknown>) : {};
    if (progressToken !== undefined) meta.progressToken = progressToken;
    if (stateless) {
      meta[META.protocolVersion] = this.negotiated.revision;
      meta[META.clientCapabilities] = this.declaredCapabilities;
      meta[META.clientInfo] = { name: this.options.name, version: this.options.version };
      if (logLevel !== undefined) meta[META.logLevel] = logLevel;
    }
    sent._meta = meta;
    return sent;
  }

  /** The stateless `_meta` every request carries, for the current revision: frozen, since every request shares it. */
  private sharedMeta(): Readonly<Record<string, unknown>> {
    if (this.plainMeta?.module !== this.negotiated || this.plainMeta.capabilities !== this.declaredCapabilities) {
      const meta = {
        [META.protocolVersion]: this.negotiated.revision,
        [META.clientCapabilities]: this.declaredCapabilities,
        [META.clientInfo]: { name: this.options.name, version: this.options.version },
      };
      this.plainMeta = { module: this.negotiated, capabilities: this.declaredCapabilities, meta: Object.freeze(meta) };
    }
    return this.plainMeta.meta;
  }
}

function timedOut(error: unknown): boolean {
  return error instanceof RpcError && error.code === ErrorCode.RequestTimeout;
}

/** The newest generated revision of an era. */
function latest(era: Era): Revision {
  return [...ALL_REVISIONS].reverse().find((revision) => eraOf(revision) === era)!;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function message(error: unknown): string {
  return error instanceof RpcError ? `${error.message} [${error.code}]` : error instanceof Error ? error.message : String(error);
}
