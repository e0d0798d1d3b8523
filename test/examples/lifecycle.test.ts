import { expect } from "chai";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpClient, spawnStdio } from "../../runtime/index.js";
import { ROOT, WAIT_MS, exampleCommand } from "./support.js";

/**
 * A stdio server's client ends it by closing stdin. The examples hold watchers, workers and
 * timers; none of that may keep the process alive once the client is gone.
 */
describe("examples: a stdio server exits on its own when the client closes stdin", function () {
  let dir: string;
  before(async function () {
    dir = await mkdtemp(join(tmpdir(), "mcp-example-life-"));
  });
  after(async function () {
    await rm(dir, { recursive: true, force: true });
  });

  for (const [name, args] of [
    ["node-introspection", []],
    ["database", ["--db", "DIR/example.sqlite"]],
    ["message-bridge", ["--queue", "DIR/queue"]],
  ] as const)
    it(name, async function () {
      const { command, args: argv } = exampleCommand(
        name,
        "server.ts",
        args.map((arg) => arg.replace("DIR", dir)),
      );
      // exitTimeoutMs: how long close() waits for a voluntary exit before it sends SIGTERM.
      const transport = await spawnStdio(command, argv, { cwd: ROOT, stderr: "ignore", exitTimeoutMs: WAIT_MS });
      const client = await McpClient.connect(transport, { name: "lifecycle", version: "1.0.0" });
      expect((await client.listTools()).items).to.have.length(1);
      await client.close();
      expect({ code: transport.child.exitCode, signal: transport.child.signalCode }).to.deep.equal({ code: 0, signal: null });
    });
});
