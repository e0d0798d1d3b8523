// Tools through the server API, called by our client in memory: name rules, argument validation
// with ajv in the dialect `$schema` names, errors as isError results, outputSchema, the context.
import { expect } from "chai";
import { createServer, RpcError, type McpServer, type RequestContext, type ToolDefinition } from "../../../runtime/index.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { connectClient, rejection } from "../../support/mcp.js";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";

function newServer(): McpServer {
  return createServer({ name: "tools-test", version: "1.0.0", logger: silentLogger });
}

const ok = () => ({ content: [{ type: "text" as const, text: "ok" }] });

function textOf(result: { content?: unknown }): string {
  return (result.content as { text: string }[])[0]!.text;
}

describe("server tools", () => {
  describe("registration", () => {
    it("accepts names of 1 to 128 characters of A-Z a-z 0-9 _ . -", () => {
      const server = newServer();
      for (const name of ["a", "Z", "get_weather", "v1.2-beta", "A.b_C-d", "x".repeat(128), "0"]) server.tool({ name, inputSchema: { type: "object" } }, ok);
    });

    it("refuses any other name, naming it", () => {
      const server = newServer();
      for (const name of ["", "x".repeat(129), "has space", "slash/name", "colon:name", "ümlaut", "emoji😀", "tab\t", "comma,"])
        expect(() => server.tool({ name, inputSchema: { type: "object" } }, ok), JSON.stringify(name)).to.throw(/invalid tool name/);
    });

    it("refuses a second tool of the same name", () => {
      const server = newServer().tool({ name: "t", inputSchema: { type: "object" } }, ok);
      expect(() => server.tool({ name: "t", inputSchema: { type: "object" } }, ok)).to.throw(/already registered/);
    });

    it("refuses at registration a schema that is not an object schema, naming the tool and which schema", () => {
      const server = newServer();
      expect(() => server.tool({ name: "no_type", inputSchema: { properties: {} } as never }, ok)).to.throw(/tool no_type: its inputSchema must be a JSON Schema object/);
      expect(() => server.tool({ name: "array_out", inputSchema: { type: "object" }, outputSchema: { type: "array" } as never }, ok)).to.throw(
        /tool array_out: its outputSchema must be a JSON Schema object/,
      );
    });

    it("compiles a schema on the tool's first call: one ajv refuses fails the call with -32603 naming the tool and which schema", async () => {
      const server = newServer();
      server.tool({ name: "bad_in", inputSchema: { type: "object", properties: { a: { type: "nope" } } } }, ok);
      // Given its type: the handler never runs, so it need not return the structuredContent an outputSchema asks for.
      server.tool<Record<string, unknown>>({ name: "bad_out", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { a: { type: "nope" } } } }, ok);
      const client = await connectClient(server, "2025-11-25");
      const bad = await rejection(client.callTool("bad_in", {}));
      expect(bad.code).to.equal(-32603);
      expect(bad.message).to.match(/tool bad_in: its inputSchema is not a valid JSON Schema/);
      const badOut = await rejection(client.callTool("bad_out", {}));
      expect(badOut.code).to.equal(-32603);
      expect(badOut.message).to.match(/tool bad_out: its outputSchema is not a valid JSON Schema/);
      expect((await client.listTools()).items.map((t) => t.name)).to.deep.equal(["bad_in", "bad_out"]);
      await client.close();
    });

    it("lists tools as declared (title, annotations, schemas), including ones added after connecting", async () => {
      const server = newServer();
      server.tool({ name: "first", title: "First", description: "d", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }, ok);
      const client = await connectClient(server, "2025-11-25");
      server.tool({ name: "second", inputSchema: { type: "object" }, outputSchema: { type: "object" } }, () => ({ content: [], structuredContent: {} }));
      const { items } = await client.listTools();
      expect(items).to.deep.equal([
        { name: "first", title: "First", description: "d", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
        { name: "second", inputSchema: { type: "object" }, outputSchema: { type: "object" } },
      ]);
      await client.close();
    });
  });

  describe("arguments, validated with ajv in the dialect of $schema", () => {
    type Schema = ToolDefinition["inputSchema"];
    async function call(schema: Schema, args: Record<string, unknown>, toolSchemaFormats?: "assert") {
      const server = createServer({ name: "tools-test", version: "1.0.0", logger: silentLogger, ...(toolSchemaFormats && { toolSchemaFormats }) }).tool({ name: "t", inputSchema: schema }, ok);
      const client = await connectClient(server, "2025-11-25");
      try {
        return await client.callTool("t", args);
      } finally {
        await client.close();
      }
    }
    const tuple = (keyword: "items" | "prefixItems", $schema?: string): Schema => ({
      ...($schema ? { $schema } : {}),
      type: "object",
      properties: { p: { type: "array", [keyword]: [{ type: "string" }] } },
    });

    it("2020-12 by default and by $schema: prefixItems is enforced", async () => {
      for (const schema of [tuple("prefixItems"), tuple("prefixItems", DRAFT_2020)]) {
        const bad = await call(schema, { p: [1] });
        expect(bad.isError).to.equal(true);
        expect(textOf(bad)).to.equal("Invalid arguments for tool t: /p/0: must be string, found integer");
        expect((await call(schema, { p: ["a", 1] })).isError).to.equal(undefined);
      }
    });

    it("draft-07 by $schema: prefixItems means nothing, and the array form of items is a tuple", async () => {
      expect((await call(tuple("prefixItems", DRAFT_07), { p: [1] })).isError).to.equal(undefined);
      expect((await call(tuple("items", DRAFT_07), { p: [1] })).isError).to.equal(true);
      expect((await call(tuple("items", DRAFT_07), { p: ["a", 1] })).isError).to.equal(undefined);
      // The same tuple is not a valid 2020-12 schema at all: its first call says so.
      expect((await rejection(call(tuple("items"), { p: ["a"] }))).message).to.match(/not a valid JSON Schema/);
    });

    it("an invalid result is -32603 naming the tool, not only tools/call, and the server's log says so; a const failure names the value", async () => {
      const logged: string[] = [];
      const server = createServer({ name: "tools-test", version: "1.0.0", logger: (level, message) => logged.push(`${level} ${message}`) })
        .tool<Record<string, unknown>>({ name: "notes_add", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text" }] }) as never)
        .tool({ name: "k", inputSchema: { type: "object", properties: { v: { const: "on" } } } }, ok);
      const client = await connectClient(server, "2025-11-25");
      const error = await rejection(client.callTool("notes_add", {}));
      expect(error.code).to.equal(-32603);
      expect(error.message).to.match(/^the handler for tools\/call \(tool "notes_add"\) returned an invalid CallToolResult for MCP 2025-11-25: \/content\/0/);
      expect(logged).to.include(`error ${error.message}`);
      expect(textOf(await client.callTool("k", { v: "off" }))).to.equal('Invalid arguments for tool k: /v: must be "on"');
      await client.close();
    });

    it("every result a handler may not send is logged where it is answered: structuredContent against the outputSchema, none at all, an extension method's result", async () => {
      const logged: string[] = [];
      const server = createServer({ name: "tools-test", version: "1.0.0", logger: (level, message) => logged.push(`${level} ${message}`) })
        .tool({ name: "wrong", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { n: { type: "number" } } } }, () => ({ structuredContent: { n: "x" } }) as never)
        .tool({ name: "none", inputSchema: { type: "object" }, outputSchema: { type: "object" } }, () => ({ content: [] }) as never);
      server.handle("acme/broken", () => ({ echo: 5 }), { result: { type: "object", properties: { echo: { type: "string" } } } });
      const client = await connectClient(server, "2025-11-25");
      for (const call of [client.callTool("wrong", {}), client.callTool("none", {}), client.request("acme/broken", {})]) {
        const error = await rejection(call);
        expect(error.code).to.equal(-32603);
        expect(logged).to.include(`error ${error.message}`);
      }
      expect(logged.filter((line) => line.startsWith("error"))).to.have.length(3);
      await client.close();
    });

    it("reports every broken argument with its path, and never calls the handler", async () => {
      let called = false;
      const server = newServer().tool(
        {
          name: "t",
          inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "string", enum: ["x", "y"] } }, required: ["a", "b"] },
        },
        () => ((called = true), ok()),
      );
      const client = await connectClient(server, "2025-06-18");
      const result = await client.callTool("t", { a: "1", b: "z" });
      expect(result).to.deep.equal({
        content: [{ type: "text", text: `Invalid arguments for tool t: /a: must be number, found string; /b: must be one of "x", "y"` }],
        isError: true,
      });
      const missing = await client.callTool("t", {});
      expect(textOf(missing)).to.match(/\(root\): must have required property 'a'/);
      expect(called).to.equal(false);
      await client.close();
    });

    it("a $ref to another document resolves from toolSchemaRemotes, never fetched; without it the call fails naming the reference", async () => {
      const schema: Schema = { type: "object", properties: { id: { $ref: "https://example.com/defs.json#/$defs/id" } }, required: ["id"] };
      const remotes = { "https://example.com/defs.json": { $defs: { id: { type: "string", pattern: "^[a-z]+$" } } } };
      const server = createServer({ name: "tools-test", version: "1.0.0", logger: silentLogger, toolSchemaRemotes: remotes }).tool({ name: "t", inputSchema: schema }, ok);
      const client = await connectClient(server, "2025-11-25");
      expect((await client.callTool("t", { id: "abc" })).isError).to.equal(undefined);
      expect(textOf(await client.callTool("t", { id: "ABC" }))).to.match(/\/id: must match pattern/);
      await client.close();
      const bare = await connectClient(newServer().tool({ name: "t", inputSchema: schema }, ok), "2025-11-25");
      const refused = await rejection(bare.callTool("t", { id: "abc" }));
      expect(refused.code).to.equal(-32603);
      expect(refused.message).to.contain("https://example.com/defs.json#/$defs/id").and.to.contain("nothing is fetched");
      await bare.close();
    });

    it("formats are annotations by default; toolSchemaFormats: \"assert\" checks uri, byte, email... by the protocol's rules", async () => {
      const schema: Schema = {
        type: "object",
        properties: { u: { type: "string", format: "uri" }, b: { type: "string", format: "byte" }, e: { type: "string", format: "email" } },
      };
      for (const bad of [{ u: "not a uri" }, { b: "abc" }, { e: "not an email" }]) {
        expect((await call(schema, bad)).isError, JSON.stringify(bad)).to.equal(undefined);
        expect((await call(schema, bad, "assert")).isError, JSON.stringify(bad)).to.equal(true);
      }
      expect((await call(schema, { u: "https://example.com/x", b: "YWJj", e: "a@example.com" }, "assert")).isError).to.equal(undefined);
    });
  });

  describe("calling", () => {
    let client: Awaited<ReturnType<typeof connectClient>>;
    before(async () => {
      const server = newServer()
        .tool({ name: "throws", inputSchema: { type: "object" } }, () => {
          throw new Error("sync failure");
        })
        .tool({ name: "rejects", inputSchema: { type: "object" } }, () => Promise.reject(new Error("async failure")))
        .tool({ name: "throws_string", inputSchema: { type: "object" } }, () => {
          throw "a bare string"; // eslint-disable-line no-throw-literal
        })
        .tool({ name: "rpc_error", inputSchema: { type: "object" } }, () => {
          throw new RpcError(-32042, "chosen by the handler", { detail: 1 });
        })
        .tool(
          {
            name: "structured",
            inputSchema: { type: "object", properties: { give: {} } },
            outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
          },
          ({ give }: { give?: unknown }) => give as never,
        )
        .tool({ name: "context", inputSchema: { type: "object" } }, (_args, context: RequestContext) => ({
          content: [],
          structuredContent: {
            revision: context.revision,
            era: context.era,
            client: context.client.info?.name ?? null,
            method: context.method,
            aborted: context.signal.aborted,
          },
        }));
      client = await connectClient(server, "2025-11-25");
    });
    after(() => client.close());

    it("a throw, a rejection, even a thrown string, become isError results with the message", async () => {
      expect(await client.callTool("throws")).to.deep.equal({ content: [{ type: "text", text: "sync failure" }], isError: true });
      expect(await client.callTool("rejects")).to.deep.equal({ content: [{ type: "text", text: "async failure" }], isError: true });
      expect(await client.callTool("throws_string")).to.deep.equal({ content: [{ type: "text", text: "a bare string" }], isError: true });
      expect(await client.ping()).to.deep.equal({});
    });

    it("an RpcError thrown by a handler is the JSON-RPC error it names", async () => {
      const error = await rejection(client.callTool("rpc_error"));
      expect(error.toJSON()).to.deep.equal({ code: -32042, message: "chosen by the handler", data: { detail: 1 } });
    });

    it("an unknown tool is -32602 naming it", async () => {
      const error = await rejection(client.callTool("nope"));
      expect(error.toJSON()).to.deep.equal({ code: -32602, message: "Unknown tool: nope", data: { name: "nope" } });
    });

    it("structuredContent matching the outputSchema is sent, with a text copy when content is absent", async () => {
      expect(await client.callTool("structured", { give: { structuredContent: { n: 1 } } })).to.deep.equal({
        content: [{ type: "text", text: '{"n":1}' }],
        structuredContent: { n: 1 },
      });
      expect(await client.callTool("structured", { give: { content: [{ type: "text", text: "own copy" }], structuredContent: { n: 2 } } })).to.deep.equal({
        content: [{ type: "text", text: "own copy" }],
        structuredContent: { n: 2 },
      });
    });

    it("structuredContent breaking the outputSchema, or missing, is -32603 and is not sent", async () => {
      const broken = await rejection(client.callTool("structured", { give: { content: [], structuredContent: { n: "one" } } }));
      expect(broken.code).to.equal(-32603);
      expect(broken.message).to.equal("tool structured returned structuredContent that does not match its outputSchema: /n: must be number, found string");
      const missing = await rejection(client.callTool("structured", { give: { content: [] } }));
      expect(missing.code).to.equal(-32603);
      expect(missing.message).to.match(/declares an outputSchema but returned no structuredContent/);
    });

    it("an isError result is not held to the outputSchema", async () => {
      const result = await client.callTool("structured", { give: { content: [{ type: "text", text: "failed" }], isError: true } });
      expect(result).to.deep.equal({ content: [{ type: "text", text: "failed" }], isError: true });
    });

    it("the handler's context has the revision, era, client, method and a live signal", async () => {
      expect((await client.callTool("context")).structuredContent).to.deep.equal({
        revision: "2025-11-25",
        era: "session",
        client: "test-client",
        method: "tools/call",
        aborted: false,
      });
    });

    it("in the stateless era too, with the client's identity from _meta", async () => {
      const server = newServer().tool({ name: "context", inputSchema: { type: "object" } }, (_args, context: RequestContext) => ({
        content: [],
        structuredContent: { revision: context.revision, era: context.era, client: context.client.info?.name ?? null },
      }));
      const stateless = await connectClient(server, "2026-07-28");
      expect((await stateless.callTool("context")).structuredContent).to.deep.equal({ revision: "2026-07-28", era: "stateless", client: "test-client" });
      await stateless.close();
    });
  });
});
