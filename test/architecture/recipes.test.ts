// docs/architecture.md's "add a transport" recipe, followed: a transport over a MessageChannel,
// written against the contract alone (runtime/jsonrpc/transport.ts), serves a server and a client
// with no other change, reports a frame that is not JSON instead of dropping it, and closes once.
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { expect } from "chai";
import type { Receiver, SendOptions, Transport } from "../../runtime/jsonrpc/transport.js";
import { createServer, McpClient } from "../../runtime/index.js";
import { TransportClosedError } from "../../runtime/transports/closed-error.js";

/** Step 1: one end of a MessageChannel, carrying JSON text. */
class PortTransport implements Transport {
  private receiver: Receiver | undefined;
  private isClosed = false;

  constructor(
    private readonly port: MessagePort,
    private readonly onClose?: () => void,
  ) {}

  start(receiver: Receiver): void {
    this.receiver = receiver;
    this.port.on("message", (data: string) => {
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch (error) {
        return receiver.malformed({ kind: "parse", message: (error as Error).message });
      }
      receiver.message(value);
    });
  }

  send(message: unknown, _options?: SendOptions): Promise<void> {
    if (this.isClosed) return Promise.reject(new TransportClosedError());
    this.port.postMessage(JSON.stringify(message));
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.isClosed) return Promise.resolve();
    this.isClosed = true;
    this.port.close();
    this.onClose?.();
    this.receiver?.closed();
    return Promise.resolve();
  }
}

describe("architecture: the add-a-transport recipe, followed", () => {
  it("a MessageChannel transport serves a server and a client, both eras, with nothing else changed", async () => {
    for (const revision of ["2025-11-25", "2026-07-28"] as const) {
      const channel = new MessageChannel();
      const server = createServer({ name: "ports", version: "1.0.0" }).tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args: { text?: string }) => ({
        content: [{ type: "text", text: args.text ?? "" }],
      }));
      await server.listen(new PortTransport(channel.port1));
      const client = await McpClient.connect(new PortTransport(channel.port2), { name: "c", version: "1", revision });
      expect(client.revision).to.equal(revision);
      expect((await client.callTool("echo", { text: "through a port" })).content).to.deep.equal([{ type: "text", text: "through a port" }]);
      await client.close();
      await server.close();
    }
  });

  it("a frame that is not JSON gets -32700 from the peer, and the connection stays usable; close is reported once", async () => {
    const channel = new MessageChannel();
    const server = createServer({ name: "ports", version: "1.0.0" });
    let closes = 0;
    await server.listen(new PortTransport(channel.port1, () => closes++));
    const answers: unknown[] = [];
    const arrived = new Promise<void>((resolve) => {
      channel.port2.on("message", (data: string) => {
        answers.push(JSON.parse(data));
        if (answers.length === 2) resolve();
      });
    });
    channel.port2.postMessage("{not json");
    channel.port2.postMessage(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
    await arrived;
    expect(answers[0]).to.deep.include({ jsonrpc: "2.0", id: null }).and.have.nested.property("error.code", -32700);
    expect(answers[1]).to.deep.equal({ jsonrpc: "2.0", id: 1, result: {} });
    await server.close();
    channel.port2.close();
    expect(closes).to.equal(1);
  });
});
