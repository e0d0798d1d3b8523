// SEP-2243, both halves: which x-mcp-header annotations make a tool invalid, what headers a call
// carries, the server's check of them (the same annotations, at the same depth), and, end to end,
// McpClient calling our own 2026-07-28 HTTP endpoint, which answers -32020 to a header that is
// missing or wrong.
import { expect } from "chai";
import fc from "fast-check";
import { checkParamHeaders, paramHeaders, scanHeaderAnnotations } from "../../../runtime/shared/param-headers.js";
import { RpcError } from "../../../runtime/jsonrpc/errors.js";
import { createServer, McpClient, type McpServer } from "../../../runtime/index.js";
import { http, HttpClientTransport, type HttpEndpoint } from "../../../runtime/transports/http/index.js";
import { decodeHeaderValue, encodeHeaderValue } from "../../../runtime/shared/header-value.js";
import { rejection } from "../../support/mcp.js";

const schema = (properties: Record<string, Record<string, unknown>>) => ({ type: "object" as const, properties });

describe("shared/param-headers", () => {
  describe("scanHeaderAnnotations", () => {
    it("collects annotations at any depth under properties", () => {
      const scan = scanHeaderAnnotations(
        schema({ region: { type: "string", "x-mcp-header": "Region" }, nested: { type: "object", properties: { n: { type: "integer", "x-mcp-header": "N" } } } }),
      );
      expect(scan).to.deep.equal({
        valid: true,
        declarations: [
          { path: ["region"], header: "Region" },
          { path: ["nested", "n"], header: "N" },
        ],
      });
    });

    // The invalid tools of the conformance scenario http-invalid-tool-headers, and the reachability rule.
    const invalid: Record<string, unknown> = {
      empty: schema({ v: { type: "string", "x-mcp-header": "" } }),
      "not a string": schema({ v: { type: "string", "x-mcp-header": 7 } }),
      object: schema({ v: { type: "object", "x-mcp-header": "Data" } }),
      array: schema({ v: { type: "array", items: { type: "string" }, "x-mcp-header": "Items" } }),
      null: schema({ v: { type: "null", "x-mcp-header": "Nil" } }),
      number: schema({ v: { type: "number", "x-mcp-header": "Score" } }),
      untyped: schema({ v: { "x-mcp-header": "Any" } }),
      "same name twice": schema({ a: { type: "string", "x-mcp-header": "Region" }, b: { type: "string", "x-mcp-header": "Region" } }),
      "names differing in case": schema({ a: { type: "string", "x-mcp-header": "MyField" }, b: { type: "string", "x-mcp-header": "myfield" } }),
      space: schema({ v: { type: "string", "x-mcp-header": "My Region" } }),
      colon: schema({ v: { type: "string", "x-mcp-header": "Region:Primary" } }),
      "non-ASCII": schema({ v: { type: "string", "x-mcp-header": "Région" } }),
      tab: schema({ v: { type: "string", "x-mcp-header": "Region\t1" } }),
      "under items": schema({ list: { type: "array", items: { type: "object", properties: { v: { type: "string", "x-mcp-header": "V" } } } } }),
      "under anyOf": { type: "object", anyOf: [{ properties: { v: { type: "string", "x-mcp-header": "V" } } }] },
      "under $defs": { type: "object", $defs: { d: { type: "string", "x-mcp-header": "D" } }, properties: { v: { $ref: "#/$defs/d" } } },
      "on the root": { type: "string", "x-mcp-header": "Root" },
    };
    for (const [name, inputSchema] of Object.entries(invalid))
      it(`refuses an annotation: ${name}`, () => {
        const scan = scanHeaderAnnotations(inputSchema);
        expect(scan.valid).to.equal(false);
        expect((scan as { reason: string }).reason).to.include("x-mcp-header");
      });
  });

  describe("paramHeaders", () => {
    const declarations = [
      { path: ["region"], header: "Region" },
      { path: ["priority"], header: "Priority" },
      { path: ["verbose"], header: "Verbose" },
      { path: ["missing"], header: "Missing" },
    ];

    it("mirrors strings, integers and booleans, and omits absent and null values", () => {
      expect(paramHeaders(declarations, { region: "us-west1", priority: 42, verbose: false, missing: null, query: "x" })).to.deep.equal({
        "Mcp-Param-Region": "us-west1",
        "Mcp-Param-Priority": "42",
        "Mcp-Param-Verbose": "false",
      });
    });

    it("wraps what is not plain visible ASCII, and what looks like the wrapper, so that decoding gives the value back", () => {
      for (const value of ["", " lead", "trail ", "日本語", "a\r\nb", "\tx", "=?base64?abc?="]) {
        const header = paramHeaders([{ path: ["v"], header: "V" }], { v: value })["Mcp-Param-V"]!;
        expect(header).to.match(/^=\?base64\?[A-Za-z0-9+/=]*\?=$/);
        expect(decodeHeaderValue(header)).to.equal(value);
      }
      fc.assert(
        fc.property(fc.string({ unit: "binary" }), (value) => {
          const header = paramHeaders([{ path: ["v"], header: "V" }], { v: value })["Mcp-Param-V"]!;
          return /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(header) && decodeHeaderValue(header) === value;
        }),
        { numRuns: 300 },
      );
    });
  });

  describe("checkParamHeaders (the server's half)", () => {
    const nested = schema({ region: { type: "string", "x-mcp-header": "Region" }, where: { type: "object", properties: { zone: { type: "integer", "x-mcp-header": "Zone" } } } });
    const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    const mismatch = (run: () => void): RpcError => {
      try {
        run();
      } catch (error) {
        return error as RpcError;
      }
      throw new Error("the check passed");
    };

    it("checks a nested annotation as the client writes it: missing, extra and different headers are -32020", () => {
      checkParamHeaders(nested, { region: "eu", where: { zone: 3 } }, { "mcp-param-region": "eu", "mcp-param-zone": "3" });
      expect(mismatch(() => checkParamHeaders(nested, { region: "eu", where: { zone: 3 } }, { "mcp-param-region": "eu" }))).to.include({ code: -32020 });
      expect(mismatch(() => checkParamHeaders(nested, { region: "eu" }, { "mcp-param-region": "eu", "mcp-param-zone": "3" })).data).to.deep.equal({ header: "Mcp-Param-Zone", argument: "where.zone" });
      expect(mismatch(() => checkParamHeaders(nested, { where: { zone: 3 } }, { "mcp-param-zone": "4" })).message).to.match(/Mcp-Param-Zone does not match/);
    });

    it("accepts exactly the headers the client writes, for any arguments; a changed value is refused", () => {
      const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));
      fc.assert(
        fc.property(value, value, fc.string({ minLength: 1 }), (region, zone, other) => {
          const args = { region, where: { zone } };
          const scan = scanHeaderAnnotations(nested);
          if (!scan.valid) throw new Error(scan.reason);
          const headers = lower(paramHeaders(scan.declarations, args));
          // Only strings, integers and booleans are the types the annotation allows; others would fail the schema first.
          checkParamHeaders(nested, args, headers);
          const [first] = Object.keys(headers);
          if (first === undefined) return;
          // Another text, as the client would write it: the server reads it back different.
          const changed = { ...headers, [first]: encodeHeaderValue(`${decodeHeaderValue(headers[first]!)}${other}`) };
          expect(mismatch(() => checkParamHeaders(nested, args, changed)).code).to.equal(-32020);
        }),
      );
    });
  });

  describe("McpClient against our 2026-07-28 endpoint, which checks the headers", () => {
    let server: McpServer;
    let endpoint: HttpEndpoint;
    const warnings: string[] = [];

    before(async () => {
      endpoint = http({ port: 0 });
      server = createServer({ name: "headers", version: "1.0.0", logger: () => {} })
        .tool(
          {
            name: "route",
            description: "echoes its region",
            inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, n: { type: "integer", "x-mcp-header": "N" } } },
          },
          (args: { region?: string; n?: number }) => ({ content: [{ type: "text", text: `${args.region}/${args.n}` }] }),
        )
        .tool({ name: "broken", description: "an invalid annotation", inputSchema: schema({ v: { type: "object", "x-mcp-header": "V" } }) }, () => ({
          content: [],
        }));
      await server.listen(endpoint);
    });
    after(() => server.close());

    const connect = () =>
      McpClient.connect(new HttpClientTransport(endpoint.url), { name: "t", version: "1", revision: "2026-07-28", logger: (_level, text) => warnings.push(text) });

    it("lists the tool, leaves out the invalid one with a warning, and its calls pass the server's header check", async () => {
      const client = await connect();
      const { items } = await client.listTools();
      expect(items.map((t) => t.name)).to.deep.equal(["route"]);
      expect(warnings.some((w) => w.includes("broken"))).to.equal(true);
      const result = await client.callTool("route", { region: "Zürich Nord", n: 7 });
      expect(result.content).to.deep.equal([{ type: "text", text: "Zürich Nord/7" }]);
      await client.close();
    });

    it("a call before any listing gets -32020, lists the tools again and retries once", async () => {
      const client = await connect();
      const result = await client.callTool("route", { region: "eu" });
      expect(result.content).to.deep.equal([{ type: "text", text: "eu/undefined" }]);
      await client.close();
    });

    it("without the headers, the server refuses the call with -32020 (the check the client satisfies is real)", async () => {
      const client = await connect();
      const error = await rejection(client.request("tools/call", { name: "route", arguments: { region: "eu" } }));
      expect(error.code).to.equal(-32020);
      await client.close();
    });
  });
});
