/**
 * Runs an example server as a child process and talks to it as a real client would: the official
 * SDK Client for the session era, our McpClient for 2026-07-28 (the SDK cannot speak it). Every
 * wait is bounded.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { HttpClientTransport } from "../../runtime/http.js";
import { McpClient, spawnStdio, type ChildStdioTransport, type Transport } from "../../runtime/index.js";
import { recording, RecordingSdkTransport, Transcript } from "../../examples/shared/recorder.js";
import { servedOverHttp, type ServedProcess } from "../support/served-process.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** How long any single wait in these tests may take before it fails. */
export const WAIT_MS = 15_000;

/** node --import tsx examples/<name>/<script> ...args */
export function exampleCommand(name: string, script: string, args: readonly string[] = []): { command: string; args: string[] } {
  return { command: process.execPath, args: ["--import", "tsx", join(ROOT, "examples", name, script), ...args] };
}

/** Notifications as they arrive, and a bounded wait for the next one that matches. */
export class Notifications {
  readonly received: { method: string; params: Record<string, unknown> }[] = [];
  private waiters: (() => void)[] = [];

  push(method: string, params: Record<string, unknown> | undefined): void {
    this.received.push({ method, params: params ?? {} });
    for (const wake of this.waiters.splice(0)) wake();
  }

  of(method: string): Record<string, unknown>[] {
    return this.received.filter((n) => n.method === method).map((n) => n.params);
  }

  /** The `count`th notification (1-based) of `method` that matches, waiting for it. */
  async wait(method: string, match: (params: Record<string, unknown>) => boolean = () => true, count = 1): Promise<Record<string, unknown>> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const found = this.of(method).filter(match);
      if (found.length >= count) return found[count - 1]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${count > 1 ? `${count}th ` : ""}${method} arrived within ${WAIT_MS} ms; received: ${JSON.stringify(this.received)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

export interface SdkSession {
  readonly client: Client;
  readonly transport: RecordingSdkTransport;
  readonly notifications: Notifications;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** The example under the official SDK Client over stdio (it negotiates 2025-11-25). */
export async function sdkSession(name: string, args: readonly string[] = [], env?: Record<string, string>): Promise<SdkSession> {
  const { command, args: argv } = exampleCommand(name, "server.ts", args);
  const stdio = new StdioClientTransport({ command, args: argv, cwd: ROOT, stderr: "pipe", env: env ? { ...(process.env as Record<string, string>), ...env } : undefined });
  let stderr = "";
  stdio.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const transport = new RecordingSdkTransport(stdio);
  const client = new Client({ name: "example-tests", version: "1.0.0" }, { capabilities: {} });
  const notifications = new Notifications();
  client.fallbackNotificationHandler = async (notification) => notifications.push(notification.method, notification.params as Record<string, unknown>);
  await client.connect(transport, { timeout: WAIT_MS });
  return { client, transport, notifications, stderr: () => stderr, close: () => client.close() };
}

export interface StatelessSession {
  readonly client: McpClient;
  readonly transcript: Transcript;
  readonly notifications: Notifications;
  readonly child: ChildStdioTransport;
  close(): Promise<void>;
}

/** The example under our McpClient speaking 2026-07-28 (stateless) over stdio. */
export async function statelessSession(name: string, args: readonly string[] = []): Promise<StatelessSession> {
  const { command, args: argv } = exampleCommand(name, "server.ts", args);
  const child = await spawnStdio(command, argv, { cwd: ROOT, stderr: "ignore" });
  return { ...(await statelessClient(child)), child };
}

/** McpClient at 2026-07-28 over `transport`, recording the exchange and collecting the notifications the tests wait for. */
async function statelessClient(transport: Transport): Promise<Omit<StatelessSession, "child">> {
  const transcript = new Transcript();
  const client = await McpClient.connect(recording(transport, transcript), {
    name: "example-tests",
    version: "1.0.0",
    revision: "2026-07-28",
    requestTimeoutMs: WAIT_MS,
  });
  const notifications = new Notifications();
  for (const method of ["notifications/message", "notifications/resources/updated", "notifications/subscriptions/acknowledged", "notifications/progress"])
    client.on(method, (params) => notifications.push(method, params));
  return { client, transcript, notifications, close: () => client.close() };
}

/** The text of a tool result's first content block. */
export function text(result: { content?: unknown }): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  const first = content[0];
  if (!first || first.type !== "text" || typeof first.text !== "string") throw new Error(`expected a text block, got ${JSON.stringify(result)}`);
  return first.text;
}

/** The error a promise rejects with (fails when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: number; data?: unknown }> {
  try {
    const value = await promise;
    throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("expected a rejection")) throw error;
    return error as Error & { code?: number };
  }
}

type Json = Record<string, unknown>;
export interface ToolResult {
  content?: unknown;
  isError?: boolean;
  structuredContent?: unknown;
  [key: string]: unknown;
}

/** The same calls through either client, so that one test body covers both eras. */
export interface Api {
  readonly era: "session" | "stateless";
  /** The code of a resource that does not exist: -32002 in the session era, -32602 in the stateless era. */
  readonly notFound: number;
  readonly notifications: Notifications;
  listTools(): Promise<Json[]>;
  callTool(name: string, args: Json, options?: { logLevel?: string }): Promise<ToolResult>;
  listResources(): Promise<Json[]>;
  listTemplates(): Promise<Json[]>;
  readResource(uri: string): Promise<{ contents: Json[] }>;
  listPrompts(): Promise<Json[]>;
  getPrompt(name: string, args: Record<string, string>): Promise<{ description?: string; messages: Json[] }>;
  complete(ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string }, argument: { name: string; value: string }): Promise<string[]>;
  close(): Promise<void>;
}

export function sdkApi(session: SdkSession): Api {
  const { client } = session;
  const options = { timeout: WAIT_MS };
  return {
    era: "session",
    notFound: -32002,
    notifications: session.notifications,
    listTools: async () => (await client.listTools({}, options)).tools as Json[],
    callTool: async (name, args) => (await client.callTool({ name, arguments: args }, undefined, options)) as ToolResult,
    listResources: async () => (await client.listResources({}, options)).resources as Json[],
    listTemplates: async () => (await client.listResourceTemplates({}, options)).resourceTemplates as Json[],
    readResource: async (uri) => (await client.readResource({ uri }, options)) as { contents: Json[] },
    listPrompts: async () => (await client.listPrompts({}, options)).prompts as Json[],
    getPrompt: async (name, args) => (await client.getPrompt({ name, arguments: args }, options)) as { description?: string; messages: Json[] },
    complete: async (ref, argument) => (await client.complete({ ref, argument }, options)).completion.values,
    close: () => session.close(),
  };
}

export function statelessApi(session: Pick<StatelessSession, "client" | "notifications" | "close">): Api {
  const { client } = session;
  return {
    era: "stateless",
    notFound: -32602,
    notifications: session.notifications,
    listTools: async () => (await client.listTools()).items as unknown as Json[],
    callTool: async (name, args, options) => (await client.callTool(name, args, options)) as unknown as ToolResult,
    listResources: async () => (await client.listResources()).items as unknown as Json[],
    listTemplates: async () => (await client.listResourceTemplates()).items as unknown as Json[],
    readResource: async (uri) => (await client.readResource(uri)) as unknown as { contents: Json[] },
    listPrompts: async () => (await client.listPrompts()).items as unknown as Json[],
    getPrompt: async (name, args) => (await client.getPrompt(name, args)) as unknown as { description?: string; messages: Json[] },
    complete: async (ref, argument) => ((await client.complete(ref, argument)).completion as { values: string[] }).values,
    close: () => session.close(),
  };
}

/** Starts the example for one era and gives the shared API (plus the raw session, for era-specific checks). */
export async function connect(
  era: "session" | "stateless",
  name: string,
  args: readonly string[] = [],
): Promise<{ api: Api; sdk?: SdkSession; stateless?: StatelessSession }> {
  if (era === "session") {
    const sdk = await sdkSession(name, args);
    return { api: sdkApi(sdk), sdk };
  }
  const stateless = await statelessSession(name, args);
  return { api: statelessApi(stateless), stateless };
}

export const ERAS = [
  { era: "session", label: "2025-11-25 through the official SDK Client" },
  { era: "stateless", label: "2026-07-28 through McpClient" },
] as const;

export type HttpServer = ServedProcess;

/** Starts the example with `--http --port 0` and reads the URL it reports on stderr. */
export async function httpServer(name: string, args: readonly string[] = []): Promise<HttpServer> {
  const { command, args: argv } = exampleCommand(name, "server.ts", [...args, "--http", "--port", "0"]);
  const child = spawn(command, argv, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  return servedOverHttp(child, name, WAIT_MS);
}

/** The official SDK Client over Streamable HTTP (session era). */
export async function sdkHttpSession(url: string): Promise<SdkSession> {
  const transport = new RecordingSdkTransport(new StreamableHTTPClientTransport(new URL(url)));
  const client = new Client({ name: "example-tests", version: "1.0.0" }, { capabilities: {} });
  const notifications = new Notifications();
  client.fallbackNotificationHandler = async (notification) => notifications.push(notification.method, notification.params as Record<string, unknown>);
  await client.connect(transport, { timeout: WAIT_MS });
  return { client, transport, notifications, stderr: () => "", close: () => client.close() };
}

/** McpClient over Streamable HTTP at 2026-07-28. */
export function statelessHttpSession(url: string): Promise<Omit<StatelessSession, "child">> {
  return statelessClient(new HttpClientTransport(url));
}

/** Either era over HTTP, through the shared API. */
export async function connectHttp(era: "session" | "stateless", url: string): Promise<{ api: Api; sdk?: SdkSession; stateless?: Omit<StatelessSession, "child"> }> {
  if (era === "session") {
    const sdk = await sdkHttpSession(url);
    return { api: sdkApi(sdk), sdk };
  }
  const stateless = await statelessHttpSession(url);
  return { api: statelessApi(stateless), stateless };
}
