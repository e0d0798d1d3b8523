import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnStdio, type ChildStdioTransport } from "../../../runtime/transports/stdio-child.js";
import { TransportClosedError } from "../../../runtime/transports/closed-error.js";
import { RecordingReceiver } from "./recording-receiver.js";

// Tiny children, plain JavaScript so they start fast. None reads the protocol: framing is ours.
const CHILDREN = {
  /** Echoes stdin to stdout byte for byte, logs to stderr, exits when stdin ends. */
  echo: `process.stderr.write("echo: ready\\n"); process.stdin.pipe(process.stdout);`,
  /** Says one line and exits with code 3. */
  failing: `process.stdout.write('{"bye":true}\\n', () => process.exit(3));`,
  /** Ignores stdin's end and SIGTERM: only SIGKILL stops it. */
  stubborn: `process.on("SIGTERM", () => {}); setInterval(() => {}, 1000); process.stdin.resume(); process.stdout.write('{"up":true}\\n');`,
};

describe("spawnStdio", function () {
  let directory: string;
  const script = (name: keyof typeof CHILDREN) => join(directory, `${name}.mjs`);
  const spawned: ChildStdioTransport[] = [];
  const spawnChild = async (name: keyof typeof CHILDREN, options = {}) => {
    const transport = await spawnStdio(process.execPath, [script(name)], options);
    spawned.push(transport);
    return transport;
  };

  before(() => {
    directory = mkdtempSync(join(tmpdir(), "mcp-stdio-child-"));
    for (const [name, source] of Object.entries(CHILDREN)) writeFileSync(join(directory, `${name}.mjs`), source);
  });

  after(async () => {
    // Whatever a failed test left running.
    for (const transport of spawned) if (transport.child.exitCode === null && transport.child.signalCode === null) transport.child.kill("SIGKILL");
    rmSync(directory, { recursive: true, force: true });
  });

  it("round-trips messages with a child, a 20 MiB one included, with its stderr kept apart", async () => {
    const transport = await spawnChild("echo", { stderr: "pipe" });
    let stderr = "";
    transport.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    const receiver = new RecordingReceiver();
    transport.start(receiver);
    const big = { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "é".repeat(10 * 1024 * 1024) }] } };
    const sent = [{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", method: "notifications/x", params: { s: "a\nb" } }, big, { jsonrpc: "2.0", id: 4, result: {} }];
    for (const message of sent) await transport.send(message);
    await receiver.until(() => receiver.messages.length === sent.length, 30_000);
    expect(receiver.messages).to.deep.equal(sent);
    expect(receiver.problems).to.deep.equal([]);
    await transport.close();
    expect(stderr).to.equal("echo: ready\n");
    expect(receiver.closings).to.deep.equal([undefined]);
  });

  it("close() ends the child's stdin and the child exits on its own", async () => {
    const transport = await spawnChild("echo", { stderr: "ignore" });
    const receiver = new RecordingReceiver();
    transport.start(receiver);
    await transport.close();
    expect(transport.child.exitCode).to.equal(0);
    expect(receiver.closings).to.deep.equal([undefined]);
    let rejected: unknown;
    await transport.send({ late: true }).catch((error: unknown) => (rejected = error));
    expect(rejected).to.be.instanceOf(TransportClosedError);
  });

  it("close() kills a child that ignores its stdin's end and SIGTERM, within the timeouts", async () => {
    const transport = await spawnChild("stubborn", { stderr: "ignore", exitTimeoutMs: 200 });
    const receiver = new RecordingReceiver();
    transport.start(receiver);
    await receiver.until(() => receiver.messages.length === 1);
    await transport.close();
    expect(transport.child.signalCode).to.equal("SIGKILL");
    expect(receiver.closings).to.deep.equal([undefined]);
  });

  it("reports a child that exits by itself with closed(error) naming its exit code", async () => {
    const transport = await spawnChild("failing", { stderr: "ignore" });
    const receiver = new RecordingReceiver();
    transport.start(receiver);
    await receiver.until(() => receiver.closings.length === 1);
    expect(receiver.messages).to.deep.equal([{ bye: true }]);
    expect(receiver.closings[0]?.message).to.match(/exited with code 3/);
    await transport.close();
    expect(receiver.closings).to.have.length(1);
  });

  it("rejects when the command cannot be started", async () => {
    let rejected: NodeJS.ErrnoException | undefined;
    await spawnStdio(join(directory, "no-such-command")).catch((error: NodeJS.ErrnoException) => (rejected = error));
    expect(rejected?.code).to.equal("ENOENT");
  });
});
