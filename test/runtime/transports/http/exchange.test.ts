// The client transport's HTTP on Node (runtime/transports/http/exchange.ts): node:http with a
// keep-alive agent of the transport's own, so calls reuse connections instead of opening one each,
// and closing the transport lets go of them. Counted at the server's sockets, our endpoint behind
// a node:http server of the test's own (httpHandler).
import { expect } from "chai";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createServer, McpClient } from "../../../../runtime/index.js";
import { HttpClientTransport, httpHandler } from "../../../../runtime/http.js";
import { LATEST_SESSION, STATELESS, until } from "./support.js";

const CALLS = 40;

describe("transports/http/exchange: the client's connections on Node", () => {
  let http: Server;
  let url: string;
  const opened: Socket[] = [];
  const open = () => opened.filter((socket) => !socket.destroyed).length;

  before(async () => {
    const server = createServer({ name: "exchange-test", version: "1.0.0", revisions: [LATEST_SESSION, STATELESS], logger: () => {} });
    server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }: { text?: string }) => ({ content: [{ type: "text", text: text ?? "" }] }));
    http = createHttpServer(httpHandler(server));
    http.on("connection", (socket: Socket) => opened.push(socket));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
  });
  after(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  for (const revision of [LATEST_SESSION, STATELESS])
    it(`${revision}: ${CALLS} calls one after the other reuse kept-alive connections, and close lets them go`, async () => {
      const client = await McpClient.connect(new HttpClientTransport(url), { name: "t", version: "1", revision: revision as never, logger: () => {} });
      const call = async (i: number) => expect(((await client.callTool("echo", { text: `n${i}` })).content as { text: string }[])[0]!.text).to.equal(`n${i}`);
      // The first calls settle the connections (session era: the GET stream's, and a second for the POSTs that overlapped the handshake).
      for (let i = 0; i < 3; i++) await call(i);
      const settled = opened.length;
      for (let i = 3; i < CALLS; i++) await call(i);
      expect(opened.length - settled, "connections opened by the later calls").to.equal(0);
      await client.close();
      await until(() => open() === 0, "the client to close its kept-alive connections");
    });

  it("16 calls in flight open at most 16 connections, then reuse them", async () => {
    const before = opened.length;
    const client = await McpClient.connect(new HttpClientTransport(url), { name: "t", version: "1", revision: STATELESS as never, logger: () => {} });
    for (let round = 0; round < 4; round++) {
      const texts = await Promise.all(Array.from({ length: 16 }, (_, i) => client.callTool("echo", { text: `${round}.${i}` })));
      expect(texts.map((result) => (result.content as { text: string }[])[0]!.text)).to.deep.equal(Array.from({ length: 16 }, (_, i) => `${round}.${i}`));
    }
    expect(opened.length - before).to.be.at.most(16);
    await client.close();
    await until(() => open() === 0, "the client to close its kept-alive connections");
  });
});
