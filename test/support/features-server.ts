/**
 * Shared by the issue-5 feature tests (test/runtime/features/): peers for one of our servers
 * over the in-memory transport, and a tap that records what crosses the server's transport.
 *
 * - {@link connectSdk}: the official SDK Client (session era, 2024-11-05 .. 2025-11-25).
 * - {@link RawPeer}: raw JSON-RPC messages, for the stateless era (2026-07-28) and for looking at
 *   exactly what the server sent.
 * - {@link WireTap}: wraps the server's transport; records every message each way and the
 *   `relatedRequestId` each outbound one was sent with (the stream it would take over HTTP).
 *
 * Every wait here is bounded: it rejects naming what it waited for.
 */
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import type { Implementation } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import { validators as v2026 } from "../../generated/2026-07-28/validators.js";
import { createMemoryPair, type McpServer, type ServerSession } from "../../runtime/index.js";
import type { Receiver, SendOptions, Transport } from "../../runtime/jsonrpc/transport.js";
import { ToSdkTransport } from "./sdk-transport.js";

export const STATELESS = "2026-07-28";
export const SESSION_ERA = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
export const ALL_ERAS = [...SESSION_ERA, STATELESS] as const;

/** How long any single wait in these tests may take before it fails, naming what it waited for. */
export const WAIT_MS = 5_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Tapped {
  readonly direction: "in" | "out";
  readonly message: Json;
  /** Outbound only: the request the server said this message belongs to. */
  readonly relatedRequestId?: string | number;
}

/** A server-side transport that records both directions; optional hooks see each message as it passes. */
export class WireTap implements Transport {
  readonly log: Tapped[] = [];

  constructor(
    private readonly inner: Transport,
    private readonly options: { keep?: boolean; onIn?: (message: Json) => void; onOut?: (message: Json, options?: SendOptions) => void } = {},
  ) {}

  start(receiver: Receiver): void {
    this.inner.start({
      message: (value, context) => {
        if (this.options.keep !== false) this.log.push({ direction: "in", message: value });
        this.options.onIn?.(value);
        receiver.message(value, context);
      },
      malformed: (problem) => receiver.malformed(problem),
      closed: (error) => receiver.closed(error),
    });
  }

  send(message: unknown, options?: SendOptions): Promise<void> {
    if (this.options.keep !== false) this.log.push({ direction: "out", message, relatedRequestId: options?.relatedRequestId });
    this.options.onOut?.(message, options);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** What the server sent, in order. */
  sent(): Tapped[] {
    return this.log.filter((entry) => entry.direction === "out");
  }

  /** The notifications the server sent with `method`. */
  notifications(method: string): Tapped[] {
    return this.sent().filter((entry) => entry.message.method === method && entry.message.id === undefined);
  }

  /** The responses (results or errors) the server sent for `id`. */
  responses(id: string | number): Tapped[] {
    return this.sent().filter((entry) => entry.message.method === undefined && entry.message.id === id);
  }
}

/** Lets every queued microtask and one macrotask turn run: what is already on its way arrives. */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** `promise`, or a rejection naming `what` after {@link WAIT_MS}. */
export async function bounded<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`waited ${ms} ms for ${what}`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** A promise with its resolve exposed. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** The rejection of `promise`; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Json> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  expect.fail("expected a rejection, got a result");
}

// -- the official SDK client -------------------------------------------------------------------

export interface SdkConnection {
  readonly client: Client;
  readonly session: ServerSession;
  readonly tap: WireTap;
  /** What the SDK client reported through onerror (unknown progress tokens and the like). */
  readonly errors: Error[];
  close(): Promise<void>;
}

/**
 * The SDK's Client on one of our server's in-memory connections. The SDK always offers
 * 2025-11-25; a server built with `revisions: [R]` makes it negotiate R.
 */
export async function connectSdk(server: McpServer, options: ClientOptions = {}, setup?: (client: Client) => void): Promise<SdkConnection> {
  const [serverEnd, clientEnd] = createMemoryPair();
  const tap = new WireTap(serverEnd);
  const session = server.connect(tap);
  const client = new Client({ name: "sdk-features-client", version: "1.0.0" } satisfies Implementation, options);
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  setup?.(client);
  await bounded(client.connect(new ToSdkTransport(clientEnd)), "the SDK client to initialize");
  return { client, session, tap, errors, close: () => client.close() };
}

// -- raw messages --------------------------------------------------------------------------------

/** The stateless era's per-request `_meta`. */
export function statelessMeta(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": STATELESS,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "raw-features-client", version: "1.0.0" },
    ...extra,
  };
}

/**
 * Raw JSON-RPC against one of our server's in-memory connections: send any message, wait for
 * the response to an id, and read everything the server sent (also through {@link tap}).
 */
export class RawPeer {
  readonly received: Json[] = [];
  readonly session: ServerSession;
  readonly tap: WireTap;
  private readonly clientEnd: Transport;
  private waiters: { check: () => boolean; resolve: () => void }[] = [];
  private nextId = 1;

  constructor(server: McpServer) {
    const [serverEnd, clientEnd] = createMemoryPair();
    this.tap = new WireTap(serverEnd);
    this.session = server.connect(this.tap);
    this.clientEnd = clientEnd;
    clientEnd.start({
      message: (value) => {
        this.received.push(value);
        this.waiters = this.waiters.filter((waiter) => (waiter.check() ? (waiter.resolve(), false) : true));
      },
      malformed: () => {},
      closed: () => {},
    });
  }

  send(message: Json): Promise<void> {
    return this.clientEnd.send(message);
  }

  /** Sends a request (a fresh numeric id unless `id` is given) and resolves with its whole response message. */
  async request(method: string, params: Record<string, unknown>, id: string | number = this.nextId++): Promise<Json> {
    await this.send({ jsonrpc: "2.0", id, method, params });
    return this.response(id, method);
  }

  /** Sends a stateless-era request: `_meta` is filled in (merged over any given). */
  stateless(method: string, params: Record<string, unknown> = {}, capabilities: Record<string, unknown> = {}, id?: string | number): Promise<Json> {
    const meta = statelessMeta(capabilities, params._meta as Record<string, unknown> | undefined);
    return this.request(method, { ...params, _meta: meta }, id);
  }

  /** The response to `id`, once it has arrived. */
  response(id: string | number, what = `request ${JSON.stringify(id)}`): Promise<Json> {
    return this.until(() => this.received.find((m) => m.id === id && m.method === undefined), `the response to ${what}`);
  }

  /** The first value `find` returns that is not undefined, re-checked as messages arrive. */
  until<T>(find: () => T | undefined, what: string): Promise<T> {
    const found = find();
    if (found !== undefined) return Promise.resolve(found);
    const done = deferred<T>();
    this.waiters.push({
      check: () => {
        const value = find();
        if (value !== undefined) done.resolve(value);
        return value !== undefined;
      },
      resolve: () => {},
    });
    return bounded(done.promise, what);
  }

  /** Notifications received with `method`. */
  notifications(method: string): Json[] {
    return this.received.filter((m) => m.method === method && m.id === undefined);
  }

  /** Responses received for `id` (0 or 1 unless the server misbehaves). */
  responses(id: string | number): Json[] {
    return this.received.filter((m) => m.method === undefined && m.id === id);
  }

  close(): Promise<void> {
    return this.clientEnd.close();
  }
}

/** Sends `initialize` at `revision` and notifications/initialized; the result. */
export async function initializeRaw(peer: RawPeer, revision: string, capabilities: Record<string, unknown> = {}): Promise<Json> {
  const response = await peer.request("initialize", {
    protocolVersion: revision,
    capabilities,
    clientInfo: { name: "raw-features-client", version: "1.0.0" },
  });
  expect(response.error, JSON.stringify(response.error)).to.equal(undefined);
  await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return response.result;
}

/** Asserts that `value` is a valid `definition` of 2026-07-28, by the generated validator. */
export function expectStateless(definition: string, value: unknown): void {
  const check = v2026[definition as keyof typeof v2026];
  if (!check) expect.fail(`2026-07-28 has no definition ${definition}`);
  if (check.is(value)) return;
  expect.fail(`not a valid 2026-07-28 ${definition}: ${JSON.stringify(check.check(value).slice(0, 5))}\nvalue: ${JSON.stringify(value).slice(0, 400)}`);
}

/** A server that logs nothing to stderr (the tests look at the wire, not at the server's notes). */
export const quiet = (): void => {};
