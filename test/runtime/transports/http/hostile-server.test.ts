/**
 * The HTTP client against servers that misbehave on purpose (found by an abuse test): a body that
 * never ends is read up to a bound and the caller told why (it grew a string until V8 threw, out
 * of reach of any catch); a redirect is not followed (fetch took the session id, the headers and
 * the body to the other origin); a malformed response is never answered (the client and such a
 * server traded -32600s for ever).
 */
import { expect } from "chai";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpClient } from "../../../../runtime/index.js";
import { HttpClientTransport, HttpStatusError } from "../../../../runtime/http.js";
import { Cancel, fetchExchange, nodeExchange } from "../../../../runtime/transports/http/exchange.js";
import { silentLogger } from "../../../../runtime/util/logger.js";
import { rejection } from "../../../support/mcp.js";

async function listening(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<{ server: Server; url: string }> {
  const server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
}

async function shut(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe("transports/http: the client against a hostile server", function () {
  this.timeout(30_000);

  for (const [name, exchangeOf] of [
    ["node:http", (url: URL) => nodeExchange(url)!],
    ["fetch", (url: URL) => fetchExchange(url, fetch)],
  ] as const)
    it(`${name}: a body that never ends is read up to the bound, then refused with why`, async () => {
      const { server, url } = await listening((_req, res) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        const chunk = "x".repeat(64 * 1024);
        let sent = 0;
        // Bounded here too: 64 MiB at most, far past the 1 MiB the reader is given.
        const more = () => {
          while (sent < 1024 && res.write(chunk)) sent++;
          if (sent < 1024) res.once("drain", more);
          else res.end();
        };
        more();
      });
      try {
        const answer = await exchangeOf(new URL(url)).send("POST", { "Content-Type": "application/json" }, "{}", new Cancel());
        const refused = await rejection(answer.text(1024 * 1024));
        expect(refused.message).to.equal("the answer's body exceeds 1048576 characters: not read further");
      } finally {
        await shut(server);
      }
    });

  for (const [name, exchangeOf] of [
    ["node:http", (url: URL) => nodeExchange(url)!],
    ["fetch", (url: URL) => fetchExchange(url, fetch)],
  ] as const)
    it(`${name}: a body cut short rejects, never gives what came of it`, async () => {
      const { server, url } = await listening((_req, res) => {
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "1000" });
        res.write('{"jsonrpc":"2.0",', () => res.destroy());
      });
      try {
        const answer = await exchangeOf(new URL(url)).send("POST", { "Content-Type": "application/json" }, "{}", new Cancel());
        await rejection(answer.text());
      } finally {
        await shut(server);
      }
    });

  it("fetch: a redirect is not followed; the other origin gets nothing of the request", async () => {
    let stolen = 0;
    const other = await listening((_req, res) => {
      stolen++;
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
    });
    const { server, url } = await listening((_req, res) => res.writeHead(307, { Location: other.url.replace("127.0.0.1", "localhost") }).end());
    try {
      const answer = await fetchExchange(new URL(url), fetch).send("POST", { "Content-Type": "application/json", "Mcp-Session-Id": "secret" }, "{}", new Cancel());
      expect(answer.status).to.equal(307);
      expect(stolen).to.equal(0);
    } finally {
      await shut(server);
      await shut(other.server);
    }
  });

  it("a malformed response is not answered: no -32600 sent back, so no endless exchange", async () => {
    let answersBack = 0;
    const { server, url } = await listening((req, res, body) => {
      if (req.method !== "POST") return void res.writeHead(405).end();
      const message = JSON.parse(body) as { id?: number; method?: string; params?: { protocolVersion?: string } };
      if (message.method === undefined) answersBack++;
      if (message.method === "initialize") {
        res.writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "s1" });
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: message.params!.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "hostile", version: "0" } } }));
      }
      if (message.id === undefined && message.method !== undefined) return void res.writeHead(202).end();
      // Every other POST (our request, or an error we might send back): a response with id null and a result, which is invalid.
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"jsonrpc":"2.0","id":null,"result":{}}');
    });
    const client = await McpClient.connect(new HttpClientTransport(url, { openStream: false }), { name: "c", version: "1", revision: "2025-11-25", logger: silentLogger, requestTimeoutMs: 1_000 });
    try {
      await rejection(client.listTools());
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answersBack, "responses the client sent back").to.equal(0);
    } finally {
      await client.close();
      await shut(server);
    }
  });

  it("a GET stream that opens and ends at once, with retry: 0, is reopened a bounded number of times, not for ever", async () => {
    let gets = 0;
    const { server, url } = await listening((req, res, body) => {
      if (req.method === "GET") {
        gets++;
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        return void res.end("retry: 0\nid: 1\ndata: \n\n");
      }
      if (req.method === "DELETE") return void res.writeHead(200).end();
      const message = JSON.parse(body) as { id?: number; method?: string; params?: { protocolVersion?: string } };
      if (message.method === "initialize") {
        res.writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "s1" });
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: message.params!.protocolVersion, capabilities: {}, serverInfo: { name: "hostile", version: "0" } } }));
      }
      res.writeHead(202).end();
    });
    const client = await McpClient.connect(new HttpClientTransport(url, { reconnectDelayMs: 10 }), { name: "c", version: "1", revision: "2025-11-25", logger: silentLogger });
    try {
      // The first GET and maxReconnects (5) more, each at least 100 ms apart (retry: 0 is raised to that floor).
      for (let waited = 0; gets < 6 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(gets, "GETs before the client gave up").to.equal(6);
      // Then none: three more of the floor's intervals pass with no seventh.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(gets, "GETs after the client gave up").to.equal(6);
    } finally {
      await client.close();
      await shut(server);
    }
  });

  it("a GET stream whose headers never come: connect waits for it a bounded time, then goes on", async () => {
    let gets = 0;
    const { server, url } = await listening((req, res, body) => {
      if (req.method === "GET") return void gets++; // never answered
      if (req.method === "DELETE") return void res.writeHead(200).end();
      const message = JSON.parse(body) as { id?: number; method?: string; params?: { protocolVersion?: string } };
      if (message.method === "initialize") {
        res.writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "s1" });
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: message.params!.protocolVersion, capabilities: {}, serverInfo: { name: "hostile", version: "0" } } }));
      }
      if (message.id === undefined) return void res.writeHead(202).end();
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {} }));
    });
    try {
      const client = await McpClient.connect(new HttpClientTransport(url), { name: "c", version: "1", revision: "2025-11-25", logger: silentLogger });
      try {
        expect(gets, "the GET was sent").to.equal(1);
        await client.ping();
      } finally {
        await client.close();
      }
    } finally {
      await shut(server);
    }
  });

  it("a session id that is not visible ASCII is refused at connect, with why", async () => {
    const { server, url } = await listening((_req, res, body) => {
      const message = JSON.parse(body) as { id?: number; params?: { protocolVersion?: string } };
      res.writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "a b" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: message.params?.protocolVersion, capabilities: {}, serverInfo: { name: "hostile", version: "0" } } }));
    });
    try {
      const refused = await rejection(McpClient.connect(new HttpClientTransport(url, { openStream: false }), { name: "c", version: "1", revision: "2025-11-25", logger: silentLogger }));
      expect(refused.message).to.contain("Mcp-Session-Id is not 1 to 1024 visible ASCII characters");
    } finally {
      await shut(server);
    }
  });

  it("a 401 to the second era's probe is the HttpStatusError itself, its server text without control characters", async () => {
    const { server, url } = await listening((_req, res, body) => {
      const message = JSON.parse(body) as { id?: number; method?: string };
      if (message.method === "server/discover")
        return void res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } }));
      res.writeHead(401, { "Content-Type": "text/plain", "WWW-Authenticate": 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"' });
      res.end("auth \u0007 please\r\nInjected: yes");
    });
    try {
      const refused = await rejection(McpClient.connect(new HttpClientTransport(url, { openStream: false }), { name: "c", version: "1", logger: silentLogger }));
      expect(refused).to.be.instanceOf(HttpStatusError);
      expect((refused as HttpStatusError).status).to.equal(401);
      expect(refused.message).to.contain("the server requires authorization").and.contain("resource_metadata");
      expect(refused.message).not.to.match(/[\x00-\x1f\x7f]/);
    } finally {
      await shut(server);
    }
  });
});
