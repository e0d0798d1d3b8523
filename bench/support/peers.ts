/**
 * The official TypeScript SDK v2 (@modelcontextprotocol/server, /client 2.4.x), installed in
 * tools/bench-peers with its own lock file (`make tools`), loaded from there. SDK v1
 * (@modelcontextprotocol/sdk) is a root devDependency and imported directly.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const PEERS = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "tools", "bench-peers", "node_modules");
if (!existsSync(join(PEERS, "@modelcontextprotocol", "server"))) throw new Error("tools/bench-peers is not installed: run `make tools`");

const load = (path: string) => import(join(PEERS, path));
/* eslint-disable @typescript-eslint/no-explicit-any */
export const v2Server: any = await load("@modelcontextprotocol/server/dist/index.mjs");
export const v2ServerStdio: any = await load("@modelcontextprotocol/server/dist/stdio.mjs");
export const v2Client: any = await load("@modelcontextprotocol/client/dist/index.mjs");
export const v2ClientStdio: any = await load("@modelcontextprotocol/client/dist/stdio.mjs");
export const zod4: any = await load("zod/index.js");
