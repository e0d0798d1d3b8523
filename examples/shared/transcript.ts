/**
 * Prints a real transcript of an example in use: the official SDK Client over stdio (session era,
 * 2025-11-25), then our McpClient speaking 2026-07-28, each message as it crossed the wire.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpClient, spawnStdio } from "../../runtime/index.js";
import { recording, RecordingSdkTransport, Transcript } from "./recorder.js";

export interface TranscriptScript {
  /** The server: a command and its arguments (stdio). */
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** What to do with the SDK client (session era). */
  readonly session: (client: Client) => Promise<void>;
  /** What to do with McpClient at 2026-07-28 (stateless era). */
  readonly stateless: (client: McpClient) => Promise<void>;
}

export async function printTranscripts(script: TranscriptScript): Promise<void> {
  const session = new Transcript();
  const stdio = new StdioClientTransport({ command: script.command, args: [...script.args], cwd: script.cwd, stderr: "ignore" });
  const client = new Client({ name: "transcript", version: "1.0.0" }, { capabilities: {} });
  await client.connect(new RecordingSdkTransport(stdio, session));
  try {
    await script.session(client);
  } finally {
    await client.close();
  }
  process.stdout.write(`## Session era: the official SDK Client (${"@modelcontextprotocol/sdk"}) over stdio\n\n${session.format()}\n\n`);

  const stateless = new Transcript();
  const child = await spawnStdio(script.command, script.args, { cwd: script.cwd, stderr: "ignore" });
  const ours = await McpClient.connect(recording(child, stateless), { name: "transcript", version: "1.0.0", revision: "2026-07-28" });
  try {
    await script.stateless(ours);
  } finally {
    await ours.close();
  }
  process.stdout.write(`## Stateless era (2026-07-28): McpClient over stdio\n\n${stateless.format()}\n`);
}

/** Waits for `promise` (a notification to arrive, say), for at most `ms`. */
export function within<T>(promise: Promise<T>, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`nothing arrived within ${ms} ms`)), ms)));
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
