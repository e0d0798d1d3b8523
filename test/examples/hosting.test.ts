// The "Hosting" snippets of docs/transports.md: each is a file of examples/hosting, shown there verbatim, and
// each runs where it says, talked to by the official SDK client over Streamable HTTP:
// - Workers on workerd, Bun and Deno from tools/runtimes (npm), each in its own process, the
//   snippet as their CLI serves it (workerd's config, `bun <file>`, `deno serve`);
// - express, fastify and hono on Node (their `app`, listening on a free port).
// Both eras' answers, a schema-checked tool (ajv, or the interpreter on workerd), and bad JSON
// answered by MCP itself.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "chai";
import { post, stateless } from "../runtime/transports/http/support.js";
import { freePort } from "../support/free-port.js";
import { asShown as showFile } from "../support/snippets.js";
import { ROOT, WAIT_MS } from "./support.js";

const HOSTING = join(ROOT, "examples", "hosting");
const RUNTIMES = join(ROOT, "tools", "runtimes", "node_modules", ".bin");

const asShown = (name: string) => showFile(`hosting/${name}.ts`);

interface Mounted {
  readonly url: string;
  close(): Promise<void>;
}

/** Spawns a runtime serving a snippet on `port`; resolves once the port accepts connections. */
async function served(command: string, args: string[], port: number, env: Record<string, string> = {}): Promise<Mounted> {
  const child: ChildProcess = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env, NO_COLOR: "1" } });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => void (stderr.length < 20_000 && (stderr += chunk)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  const deadline = Date.now() + WAIT_MS * 2;
  for (let attempt = 0; attempt < 1000; attempt++) {
    if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}): ${stderr}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return { url: `http://127.0.0.1:${port}/mcp`, close };
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await close();
  throw new Error(`${command} did not listen on ${port} within ${(WAIT_MS * 2) / 1000} s: ${stderr}`);
}

function listening(server: Server): Mounted {
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const HOSTS: Record<string, () => Promise<Mounted>> = {
  /** worker.ts bundled (esbuild, as wrangler does), served by workerd with a config naming the port. */
  async worker() {
    const dir = mkdtempSync(join(tmpdir(), "mcp-hosting-worker-"));
    const bundle = spawn(join(ROOT, "node_modules", ".bin", "esbuild"), [join(HOSTING, "worker.ts"), "--bundle", "--format=esm", "--platform=neutral", "--main-fields=module,main", "--conditions=workerd,worker,browser", "--log-level=warning", `--outfile=${join(dir, "worker.js")}`], { stdio: "inherit" });
    const code = await new Promise<number | null>((resolve) => bundle.once("exit", resolve));
    expect(code, "esbuild bundles examples/hosting/worker.ts").to.equal(0);
    const port = await freePort();
    writeFileSync(
      join(dir, "config.capnp"),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (services = [ (name = "main", worker = .w) ], sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ]);
const w :Workerd.Worker = (modules = [ (name = "worker", esModule = embed "worker.js") ], compatibilityDate = "2026-11-01");
`,
    );
    const mounted = await served(join(RUNTIMES, "workerd"), ["serve", join(dir, "config.capnp")], port);
    return { url: mounted.url, close: () => mounted.close().finally(() => rmSync(dir, { recursive: true, force: true })) };
  },
  async bun() {
    const port = await freePort();
    return served(join(RUNTIMES, "bun"), [join(HOSTING, "bun.ts")], port, { PORT: String(port) });
  },
  /** --sloppy-imports, as the snippet says: its imports name .ts files as .js, as TypeScript's do. */
  async deno() {
    const port = await freePort();
    return served(join(RUNTIMES, "deno"), ["serve", "--host", "127.0.0.1", "--port", String(port), "--allow-env", "--allow-read", "--sloppy-imports", join(HOSTING, "deno.ts")], port);
  },
  async express() {
    const { app } = await import("../../examples/hosting/express.js");
    return listening(
      await new Promise<Server>((resolve) => {
        const server = app.listen(0, "127.0.0.1", () => resolve(server));
      }),
    );
  },
  async fastify() {
    const { app } = await import("../../examples/hosting/fastify.js");
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    return { url: `${address}/mcp`, close: () => app.close() };
  },
  async hono() {
    const { app } = await import("../../examples/hosting/hono.js");
    return listening(
      await new Promise<Server>((resolve) => {
        const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(server as Server));
      }),
    );
  },
};

describe("examples/hosting", () => {
  it("are the Hosting snippets of docs/transports.md, line for line", () => {
    const page = readFileSync(join(ROOT, "docs", "transports.md"), "utf8");
    for (const name of ["server", ...Object.keys(HOSTS)]) expect(page, `docs/transports.md shows examples/hosting/${name}.ts`).to.contain("```ts\n" + asShown(name) + "```");
  });

  for (const [name, mount] of Object.entries(HOSTS))
    describe(`the ${name} snippet, with the SDK client`, () => {
      let mounted: Mounted;
      before(async () => {
        mounted = await mount();
      });
      after(() => mounted?.close());

      it("initializes, lists and calls the tool; bad arguments come back as a tool error", async () => {
        const client = new Client({ name: `${name}-test`, version: "1.0.0" });
        const transport = new StreamableHTTPClientTransport(new URL(mounted.url));
        await client.connect(transport);
        try {
          expect(transport.sessionId).to.be.a("string");
          const { tools } = await client.listTools();
          expect(tools.map((t) => t.name)).to.deep.equal(["greet"]);
          const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
          expect(result.content).to.deep.equal([{ type: "text", text: "Hello, Ada!" }]);
          const invalid = await client.callTool({ name: "greet", arguments: { name: "" } });
          expect(invalid.isError).to.equal(true);
          expect((invalid.content as { text: string }[])[0]!.text).to.match(/Invalid arguments for tool greet: \/name/);
          await transport.terminateSession();
        } finally {
          await client.close();
        }
      });

      it("serves a stateless 2026-07-28 call, and answers bad JSON with -32700 itself", async () => {
        const call = stateless(1, "tools/call", { name: "greet", arguments: { name: "Bo" } });
        const answer = await post(mounted.url, call.body, call.headers);
        expect(answer.status).to.equal(200);
        expect((answer.json as { result: { content: unknown } }).result.content).to.deep.equal([{ type: "text", text: "Hello, Bo!" }]);
        const broken = await post(mounted.url, "{not json", {});
        expect(broken.status).to.equal(400);
        expect((broken.json as { error: { code: number } }).error.code).to.equal(-32700);
      });
    });
});
