// Tools whose schemas are Standard Schemas (runtime/shared/standard-schema.ts), with the real
// libraries: zod 4, valibot (through @valibot/to-json-schema) and arktype. What tools/list
// publishes is each library's own JSON Schema, and ajv's verdicts on it agree with the library's
// on sample arguments; arguments are checked by the library and the handler gets its output;
// refusals are tool errors with the library's issues as paths; outputSchema results are checked
// and sent as the library outputs them; what is no schema is refused at registration. End to end
// through our McpClient (both eras) and the SDK v1 Client. The type assertions in this file are
// checked by `make typecheck` (tsc over test/): each `Same` and each `@ts-expect-error` fails the
// compile when inference goes wrong.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type } from "arktype";
import { expect } from "chai";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as z from "zod";
import * as z3 from "zod/v3";
import { createMemoryPair, createServer, type McpServer, type ToolDefinition } from "../../../runtime/index.js";
import type { StandardSchemaV1 } from "../../../runtime/shared/standard-schema.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { connectClient, rejection, STATELESS_REVISION } from "../../support/mcp.js";
import { ToSdkTransport } from "../../support/sdk-transport.js";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

function newServer(options: { applyDefaults?: boolean } = {}): McpServer {
  return createServer({ name: "standard-schema", version: "1.0.0", logger: silentLogger, ...options });
}

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;

/** The same tool in each library: a city, and a count that defaults to 3. */
const LIBRARIES = {
  zod: z.object({ city: z.string().min(1), count: z.number().int().default(3) }),
  valibot: toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(1)), count: v.optional(v.pipe(v.number(), v.integer()), 3) })),
  arktype: type({ city: "string > 0", count: "number.integer = 3" }),
} as const;

/** Arguments a client might send, valid and not. */
const SAMPLES: Record<string, unknown>[] = [{ city: "Lisbon" }, { city: "Lisbon", count: 2 }, { city: "" }, { city: 5 }, {}, { city: "Porto", count: 1.5 }, { city: "Porto", count: "2" }];

/** The library's own verdict on `value`. */
async function libraryVerdict(schema: StandardSchemaV1, value: unknown) {
  return await schema["~standard"].validate(value);
}

describe("tools with Standard Schemas", () => {
  for (const [library, schema] of Object.entries(LIBRARIES))
    describe(library, () => {
      it("publishes the library's own JSON Schema of its input, on which ajv agrees with the library", async () => {
        const server = newServer().tool({ name: "weather", inputSchema: schema }, () => ({ content: [] }));
        const client = await connectClient(server, "2025-11-25");
        const [tool] = (await client.listTools()).items;
        const expected = schema["~standard"].jsonSchema.input({ target: "draft-2020-12" });
        expect(tool!.inputSchema).to.deep.equal(expected);
        expect(tool!.inputSchema.type).to.equal("object");
        const ajv = new Ajv2020({ strict: false }).compile(tool!.inputSchema);
        for (const sample of SAMPLES) expect(ajv(sample), JSON.stringify(sample)).to.equal(!(await libraryVerdict(schema, sample)).issues);
        await client.close();
      });

      it("gives the handler the library's output (defaults applied), and refuses bad arguments with its issues as paths", async () => {
        const seen: unknown[] = [];
        const server = newServer().tool({ name: "weather", inputSchema: schema }, (args) => {
          seen.push(args);
          return { content: [{ type: "text", text: `${args.city} x${args.count}` }] };
        });
        const client = await connectClient(server, "2025-11-25");
        for (const sample of SAMPLES) {
          const verdict = await libraryVerdict(schema, sample);
          const result = await client.callTool("weather", sample);
          if (!verdict.issues) {
            expect(result.isError, JSON.stringify(sample)).to.equal(undefined);
            expect(seen.pop()).to.deep.equal(verdict.value);
            continue;
          }
          expect(result.isError, JSON.stringify(sample)).to.equal(true);
          const first = verdict.issues[0]!;
          const path = (first.path ?? []).map((segment) => `/${String(typeof segment === "object" ? segment.key : segment)}`).join("") || "(root)";
          expect(textOf(result)).to.equal(`Invalid arguments for tool weather: ${verdict.issues.map((i) => `${(i.path ?? []).map((s) => `/${String(typeof s === "object" ? s.key : s)}`).join("") || "(root)"}: ${i.message}`).join("; ")}`);
          expect(textOf(result)).to.include(`${path}: ${first.message}`);
        }
        expect(seen).to.deep.equal([]);
        await client.close();
      });
    });

  it("types the handler's arguments as the schema's output, in every library", () => {
    const server = newServer();
    server.tool({ name: "zod", inputSchema: LIBRARIES.zod }, (args) => {
      const exact: Same<typeof args, { city: string; count: number }> = true;
      // @ts-expect-error not in the schema
      void args.nope;
      // @ts-expect-error count is a number
      const wrong: string = args.count;
      return { content: [{ type: "text", text: `${exact} ${wrong}` }] };
    });
    server.tool({ name: "valibot", inputSchema: LIBRARIES.valibot }, (args) => {
      const exact: Same<typeof args, { city: string; count: number }> = true;
      // @ts-expect-error city is a string
      const wrong: number = args.city;
      return { content: [{ type: "text", text: `${exact} ${wrong}` }] };
    });
    server.tool({ name: "arktype", inputSchema: LIBRARIES.arktype }, (args) => {
      const exact: Same<typeof args, { city: string; count: number }> = true;
      return { content: [{ type: "text", text: `${exact}` }] };
    });
    // A transform's output type is what the handler gets.
    server.tool({ name: "transformed", inputSchema: z.object({ n: z.string().transform((s) => s.length) }) }, (args) => {
      const exact: Same<typeof args, { n: number }> = true;
      return { content: [{ type: "text", text: `${exact}` }] };
    });
    // The output schema types structuredContent: what the library accepts (defaults may be left out).
    server.tool({ name: "out", inputSchema: z.object({}), outputSchema: z.object({ id: z.number(), tag: z.string().default("x") }) }, () => ({
      content: [],
      structuredContent: { id: 1 },
    }));
    // @ts-expect-error structuredContent's id must be a number
    server.tool({ name: "out_wrong", inputSchema: z.object({}), outputSchema: z.object({ id: z.number() }) }, () => ({ content: [], structuredContent: { id: "one" } }));
    // A definition typed as ToolDefinition (either kind of schema): any object, as before Standard Schemas.
    const declared: ToolDefinition = { name: "declared", inputSchema: { type: "object" } };
    server.tool(declared, (args) => {
      const exact: Same<typeof args, Record<string, unknown>> = true;
      return { content: [{ type: "text", text: `${exact}` }] };
    });
    expect(() => server.tool({ name: "zod", inputSchema: LIBRARIES.zod }, () => ({ content: [] }))).to.throw(/already registered/);
  });

  it("validates asynchronously when the library does (zod's async refine), both ways", async () => {
    const server = newServer().tool({ name: "book", inputSchema: z.object({ day: z.string().refine(async (day) => day !== "sunday", "closed on sundays") }) }, ({ day }) => ({
      content: [{ type: "text", text: `booked ${day}` }],
    }));
    const client = await connectClient(server, "2025-11-25");
    expect(textOf(await client.callTool("book", { day: "monday" }))).to.equal("booked monday");
    const refused = await client.callTool("book", { day: "sunday" });
    expect(refused.isError).to.equal(true);
    expect(textOf(refused)).to.equal("Invalid arguments for tool book: /day: closed on sundays");
    await client.close();
  });

  describe("outputSchema", () => {
    const output = z.object({ id: z.number(), tag: z.string().default("none") });
    const tool = (structuredContent: Record<string, unknown>) =>
      newServer().tool<Record<string, unknown>>({ name: "make", inputSchema: z.object({}), outputSchema: output }, () => ({ structuredContent }) as never);

    it("publishes the library's JSON Schema of its output, and sends the library's output (defaults filled, unknown keys stripped)", async () => {
      const client = await connectClient(tool({ id: 7, extra: true }), "2025-11-25");
      const [listed] = (await client.listTools()).items;
      expect(listed!.outputSchema).to.deep.equal(output["~standard"].jsonSchema.output({ target: "draft-2020-12" }));
      const result = await client.callTool("make", {});
      const parsed = output.parse({ id: 7, extra: true });
      expect(result.structuredContent).to.deep.equal(parsed);
      expect(result.content).to.deep.equal([{ type: "text", text: JSON.stringify(parsed) }]);
      await client.close();
    });

    it("refuses structuredContent the library refuses: -32603 with its issue, nothing sent", async () => {
      const client = await connectClient(tool({ id: "seven" }), "2025-11-25");
      const error = await rejection(client.callTool("make", {}));
      expect(error.code).to.equal(-32603);
      const issue = output.safeParse({ id: "seven" }).error!.issues[0]!;
      expect(error.message).to.equal(`tool make returned structuredContent that does not match its outputSchema: /id: ${issue.message}`);
      await client.close();
    });
  });

  it("serves the stateless era the same way", async () => {
    const server = newServer().tool({ name: "weather", inputSchema: LIBRARIES.zod }, (args) => ({ content: [{ type: "text", text: `${args.city} x${args.count}` }] }));
    const client = await connectClient(server, STATELESS_REVISION);
    expect((await client.listTools()).items[0]!.inputSchema).to.deep.equal(LIBRARIES.zod["~standard"].jsonSchema.input({ target: "draft-2020-12" }));
    expect(textOf(await client.callTool("weather", { city: "Faro" }))).to.equal("Faro x3");
    const refused = await client.callTool("weather", { city: 1 });
    expect(refused.isError).to.equal(true);
    expect(textOf(refused)).to.match(/^Invalid arguments for tool weather: \/city: /);
    await client.close();
  });

  describe("registration refuses what is no schema, naming the tool", () => {
    it("a library schema without a JSON Schema converter (plain valibot), saying what to pass", () => {
      expect(() => newServer().tool({ name: "plain", inputSchema: v.object({ a: v.string() }) }, () => ({ content: [] }))).to.throw(
        /^tool plain: its inputSchema: this valibot schema has no JSON Schema converter for tools\/list: .*toStandardJsonSchema from @valibot\/to-json-schema/,
      );
    });

    it("a zod 3 schema (zod/v3: a Standard Schema with no JSON Schema), saying to use zod 4", () => {
      expect(() => newServer().tool({ name: "old", inputSchema: z3.object({ a: z3.string() }) as never }, () => ({ content: [] }))).to.throw(
        /^tool old: its inputSchema: this zod schema has no JSON Schema converter for tools\/list: .*\(zod 3: use zod 4/,
      );
    });

    it("a schema the library cannot express in JSON Schema, with the library's reason", () => {
      expect(() => newServer().tool({ name: "dated", inputSchema: z.object({ at: z.date() }) }, () => ({ content: [] }))).to.throw(
        /^tool dated: its inputSchema: zod could not convert it to JSON Schema \(Date cannot be represented in JSON Schema\)/,
      );
    });

    it("a Standard Schema that does not describe an object", () => {
      expect(() => newServer().tool({ name: "str", inputSchema: z.string() as never }, () => ({ content: [] }))).to.throw(
        /^tool str: its inputSchema must describe an object .* type "string"/,
      );
      expect(() => newServer().tool({ name: "arr", inputSchema: z.object({}), outputSchema: type("string[]") as never }, () => ({ content: [] }))).to.throw(
        /^tool arr: its outputSchema must describe an object/,
      );
    });

    it("an SDK-style shape of schemas, saying to wrap it", () => {
      expect(() => newServer().tool({ name: "shape", inputSchema: { city: z.string() } as never }, () => ({ content: [] }))).to.throw(
        /^tool shape: its inputSchema is an object of schemas \(an SDK-style shape\): pass one object schema, e\.g\. z\.object/,
      );
    });

    it("a schema library's object that is no Standard Schema, though it says type: object (zod before Standard Schema)", () => {
      // A zod object as zod 3.23 made it: its own class, `type`-less _def... here the zod 4 object with its ~standard taken away.
      const zod = z.object({ a: z.string() });
      const legacy = Object.create(Object.getPrototypeOf(zod), { ...Object.getOwnPropertyDescriptors(zod), "~standard": { value: undefined } });
      expect(legacy.type).to.equal("object");
      expect(() => newServer().tool({ name: "legacy", inputSchema: legacy }, () => ({ content: [] }))).to.throw(/^tool legacy: its inputSchema is not a JSON Schema: \(root\) is an instance of /);
      expect(() => newServer().tool({ name: "fn", inputSchema: { type: "object", properties: { a: { type: "string", check: () => true } } } }, () => ({ content: [] }))).to.throw(
        /^tool fn: its inputSchema is not a JSON Schema: \/properties\/a\/check is a function/,
      );
    });

    it("falls back to zod's own toJSONSchema where ~standard has no jsonSchema (zod 4 before Standard JSON Schema)", async () => {
      const zod = z.object({ a: z.string(), b: z.number().default(1) });
      const older = Object.create(zod, { "~standard": { value: { ...zod["~standard"], jsonSchema: undefined } } }) as typeof zod;
      const server = newServer().tool({ name: "older", inputSchema: older }, (args) => ({ content: [{ type: "text", text: `${args.a}${args.b}` }] }));
      const client = await connectClient(server, "2025-11-25");
      expect((await client.listTools()).items[0]!.inputSchema).to.deep.equal(z.toJSONSchema(zod, { io: "input" }));
      expect(textOf(await client.callTool("older", { a: "x" }))).to.equal("x1");
      await client.close();
    });
  });

  it("works with the SDK v1 Client: its tools/list, its tools/call, its own check of structuredContent against the published outputSchema", async () => {
    const server = newServer();
    for (const [library, schema] of Object.entries(LIBRARIES))
      server.tool({ name: library, inputSchema: schema, outputSchema: z.object({ city: z.string(), count: z.number() }) }, (args) => ({
        content: [],
        structuredContent: { city: args.city, count: args.count },
      }));
    const [serverEnd, clientEnd] = createMemoryPair();
    await server.listen(serverEnd);
    const client = new Client({ name: "sdk-v1", version: "1.0.0" });
    await client.connect(new ToSdkTransport(clientEnd));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.deep.equal(Object.keys(LIBRARIES));
    for (const [library, schema] of Object.entries(LIBRARIES)) {
      expect(tools.find((t) => t.name === library)!.inputSchema).to.deep.equal(schema["~standard"].jsonSchema.input({ target: "draft-2020-12" }));
      const result = await client.callTool({ name: library, arguments: { city: "Braga" } });
      expect(result.structuredContent, library).to.deep.equal({ city: "Braga", count: 3 });
      const refused = await client.callTool({ name: library, arguments: { city: 3 } });
      expect(refused.isError, library).to.equal(true);
      expect(textOf(refused as { content?: unknown })).to.match(new RegExp(`^Invalid arguments for tool ${library}: /city: `));
    }
    await client.close();
  });
});

describe("applyDefaults: JSON Schema defaults filled in when the server asks", () => {
  const inputSchema = {
    type: "object",
    properties: {
      units: { type: "string", default: "celsius" },
      days: { type: "integer", default: 1 },
      where: { type: "object", properties: { country: { type: "string", default: "PT" } } },
    },
  } as const;

  async function seen(applyDefaults: boolean | undefined, args: Record<string, unknown>) {
    let received: unknown;
    const server = newServer(applyDefaults === undefined ? {} : { applyDefaults }).tool({ name: "t", inputSchema }, (a) => ((received = a), { content: [] }));
    const client = await connectClient(server, "2025-11-25");
    await client.callTool("t", args);
    await client.close();
    return received;
  }

  it("by default, the handler sees the arguments as sent (default is an annotation)", async () => {
    expect(await seen(undefined, { where: {} })).to.deep.equal({ where: {} });
  });

  it("with applyDefaults, absent properties get their defaults, also inside objects that are present; sent values stay", async () => {
    expect(await seen(true, { where: {} })).to.deep.equal({ units: "celsius", days: 1, where: { country: "PT" } });
    expect(await seen(true, { units: "kelvin", days: 4 })).to.deep.equal({ units: "kelvin", days: 4 });
  });

  it("with applyDefaults, a default that breaks the schema is still refused (defaults are checked like sent values)", async () => {
    const server = newServer({ applyDefaults: true }).tool({ name: "t", inputSchema: { type: "object", properties: { n: { type: "integer", default: "x" } } } }, () => ({ content: [] }));
    const client = await connectClient(server, "2025-11-25");
    const result = await client.callTool("t", {});
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.equal("Invalid arguments for tool t: /n: must be integer, found string");
    await client.close();
  });
});
