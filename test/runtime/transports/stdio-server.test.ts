import { expect } from "chai";
import { spawn } from "node:child_process";
import { setTimeout } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { spawnStdio, type ChildStdioTransport } from "../../../runtime/transports/stdio-child.js";
import { RecordingReceiver } from "./recording-receiver.js";

// stdio() on a real process's stdin and stdout, driven from this side by spawnStdio.
const SERVER = fileURLToPath(new URL("./fixtures/stdio-echo-server.ts", import.meta.url));

describe("stdio() in a child process", function () {
  this.timeout(30_000);
  let transport: ChildStdioTransport | undefined;

  async function startServer() {
    transport = await spawnStdio(process.execPath, ["--import", "tsx", SERVER], { stderr: "pipe", exitTimeoutMs: 5_000 });
    let stderr = "";
    transport.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    const receiver = new RecordingReceiver();
    transport.start(receiver);
    return { transport, receiver, stderr: () => stderr };
  }

  afterEach(() => {
    if (transport && transport.child.exitCode === null && transport.child.signalCode === null) transport.child.kill("SIGKILL");
  });

  it("answers on stdout only, survives bad and oversized lines, and exits once its stdin ends", async () => {
    const { transport, receiver, stderr } = await startServer();
    await transport.send({ n: 1 });
    const big = JSON.stringify({ big: "x".repeat(2000) }); // over the server's 1024-byte limit
    await transport.send(JSON.parse(big));
    await transport.send({ n: 2 });
    await receiver.until(() => receiver.messages.length === 3);
    expect(receiver.messages).to.deep.equal([
      { echo: { n: 1 } },
      { malformed: { kind: "oversized", bytes: big.length, limit: 1024, head: big.slice(0, 200), tail: big.slice(-200) } },
      { echo: { n: 2 } },
    ]);
    expect(receiver.problems).to.deep.equal([]);
    await transport.close();
    // It left on its own when its stdin ended: no SIGTERM needed.
    expect(transport.child.exitCode).to.equal(0);
    expect(transport.child.signalCode).to.equal(null);
    expect(stderr()).to.equal("ready\nclosed: cleanly\n");
  });

  it("lets its process exit after close(), although the other side keeps stdin open", async () => {
    // Raw spawn: a ChildStdioTransport would end the child's stdin as soon as its stdout ended.
    const child = spawn(process.execPath, ["--import", "tsx", SERVER], { stdio: ["pipe", "pipe", "ignore"] });
    try {
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.stdin.write('{"n":1}\n"close"\n'); // and stdin stays open
      const exitCode = await Promise.race([exited, setTimeout(10_000, "still running", { ref: false })]);
      expect(exitCode).to.equal(0);
      expect(stdout).to.equal('{"echo":{"n":1}}\n');
    } finally {
      child.kill("SIGKILL");
    }
  });
});
