/**
 * `mcp-codegen generate --tools <manifest> --out <dir>` end to end: the files it writes, its
 * refusal (nothing written), and a server that takes the compiled validators
 * (`createServer({ toolValidators })`), called by our client in memory.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { generateTools } from "../../../codegen/tool-validators/generate.js";
import { createServer, type CompiledSchema } from "../../../runtime/index.js";
import type { Logger } from "../../../runtime/util/logger.js";
import { connectClient } from "../../support/mcp.js";
import { removeDir, tempDir } from "../../support/project.js";
import { compileToolSchemas } from "../../support/tool-validators.js";

const WEATHER = {
  type: "object",
  properties: { city: { type: "string", minLength: 1 }, days: { type: "integer", minimum: 1, maximum: 14 }, unit: { enum: ["c", "f"] } },
  required: ["city"],
  additionalProperties: false,
} as const;

/** The message a generation fails with ("" when it succeeds). */
async function refusal(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("codegen/tools: generate --tools", function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("writes tools.ts alone, importing its checks from @mcp-codegen/runtime/support, naming formats it leaves as annotations; refuses an unsupported keyword and writes nothing", async () => {
    const dir = tempDir("generate-tools");
    dirs.push(dir);
    const manifest = (tools: unknown[]) => JSON.stringify({ name: "demo", version: "0.1.0", transport: "stdio", tools });
    writeFileSync(join(dir, "mcp.server.json"), manifest([{ name: "get_weather", inputSchema: { ...WEATHER, properties: { ...WEATHER.properties, at: { type: "string", format: "date-time" } } }, outputSchema: { type: "object", properties: { temperature: { type: "number" } }, required: ["temperature"] } }]));
    const report = await generateTools(join(dir, "mcp.server.json"), join(dir, "out"));
    expect([...report.written]).to.deep.equal(["tools.ts"]);
    expect(report.annotatedFormats).to.deep.equal([{ pointer: "#/tools/0/inputSchema/properties/at/format", format: "date-time" }]);
    const tools = readFileSync(join(dir, "out", "tools.ts"), "utf8");
    expect(tools).to.contain("export const toolValidators").and.to.contain("function isGetWeatherInput(").and.to.contain("function checkGetWeatherOutput(");
    expect([...tools.matchAll(/from "([^"]+)"/g)].map((m) => m[1])).to.deep.equal(["@mcp-codegen/runtime/support"]);
    expect([...(await generateTools(join(dir, "mcp.server.json"), join(dir, "out"))).unchanged]).to.deep.equal(["tools.ts"]);

    // --assert-formats: date-time is checked, and `check` (a dry run, no option given) keeps that policy.
    const asserting = await generateTools(join(dir, "mcp.server.json"), join(dir, "asserting"), false, true);
    expect(asserting.annotatedFormats).to.deep.equal([]);
    expect(readFileSync(join(dir, "asserting", "tools.ts"), "utf8")).to.contain("isDateTime(");
    expect((await generateTools(join(dir, "mcp.server.json"), join(dir, "asserting"), true)).stale).to.deep.equal([]);
    expect((await generateTools(join(dir, "mcp.server.json"), join(dir, "asserting"), true, false)).stale.map((f) => f.path)).to.deep.equal(["tools.ts"]);

    writeFileSync(join(dir, "bad.json"), manifest([{ name: "t", inputSchema: { type: "object", $vocabulary: {} } }]));
    expect(await refusal(generateTools(join(dir, "bad.json"), join(dir, "bad-out")))).to.equal(
      'bad.json #/tools/0/inputSchema/$vocabulary: "$vocabulary" is not supported by the build-time validator compiler: rewrite the schema without it, or leave --tools out (the server then checks every tool with its run-time engine)',
    );
    expect(existsSync(join(dir, "bad-out"))).to.equal(false);
  });

  it("--tools-remotes: a $ref to a document the user supplies is compiled in, one not supplied is refused naming the option; check follows the remotes file", async () => {
    const dir = tempDir("generate-tools-remotes");
    dirs.push(dir);
    const point = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { x: { type: "number" } }, required: ["x"] };
    writeFileSync(join(dir, "remotes.json"), JSON.stringify({ "https://example.com/point.json": point }));
    const schema = { type: "object", properties: { at: { $ref: "https://example.com/point.json" } }, required: ["at"] };
    writeFileSync(join(dir, "mcp.server.json"), JSON.stringify({ name: "demo", version: "0.1.0", transport: "stdio", tools: [{ name: "move", inputSchema: schema, example: { at: { x: 1 } } }] }));
    expect(await refusal(generateTools(join(dir, "mcp.server.json"), join(dir, "none")))).to.equal(
      `${join(dir, "mcp.server.json")} has 1 problem (nothing was changed):\n  #/tools/0/inputSchema/properties/at/$ref: $ref "https://example.com/point.json" names no place in this schema nor in a remote document you supplied (--tools-remotes <file.json>, a map from URI to schema; nothing is fetched)`,
    );
    expect(existsSync(join(dir, "none"))).to.equal(false);

    const report = await generateTools(join(dir, "mcp.server.json"), join(dir, "out"), false, undefined, join(dir, "remotes.json"));
    expect([...report.written].sort()).to.deep.equal(["tools.ts"]);
    expect(readFileSync(join(dir, "out", "tools.ts"), "utf8")).to.contain("https://example.com/point.json#/required");
    const [validator] = (await compileToolSchemas([schema], "generate-tools-remotes", { remotes: { "https://example.com/point.json": point } })).validators;
    expect(validator!.is({ at: { x: 1 } })).to.equal(true);
    expect(validator!.check({ at: { x: "1" } })).to.deep.equal([{ path: "/at/x", schemaPath: "https://example.com/point.json#/properties/x/type", keyword: "type", message: "must be number, found string" }]);
    expect(validator!.is({ at: {} })).to.equal(false);

    // `check` (a dry run, no option given) reads the remotes file recorded, and sees it change.
    expect((await generateTools(join(dir, "mcp.server.json"), join(dir, "out"), true)).stale).to.deep.equal([]);
    writeFileSync(join(dir, "remotes.json"), JSON.stringify({ "https://example.com/point.json": { ...point, required: [] } }));
    const stale = (await generateTools(join(dir, "mcp.server.json"), join(dir, "out"), true)).stale;
    expect(stale.map((f) => f.path)).to.deep.equal(["tools.ts"]);
    expect(stale[0]!.why).to.contain("remotes.json");

    writeFileSync(join(dir, "remotes.json"), JSON.stringify({ "point.json": point }));
    expect(await refusal(generateTools(join(dir, "mcp.server.json"), join(dir, "out"), false, undefined, join(dir, "remotes.json")))).to.equal(`${join(dir, "remotes.json")} #/point.json: "point.json" is not an absolute URI without a fragment`);
  });

  it("a server given toolValidators checks a tool with them when its schema is the one they were compiled from, and falls back to its engine otherwise", async () => {
    const compiled = await compileToolSchemas([WEATHER], "generate-tools-server");
    dirs.push(compiled.dir);
    let calls = 0;
    const input: CompiledSchema = { ...compiled.validators[0]!, is: (value) => (calls++, compiled.validators[0]!.is(value)) };
    const warnings: string[] = [];
    const logger: Logger = (level, message) => void (level === "warn" && warnings.push(message));
    const ok = () => ({ content: [{ type: "text" as const, text: "ok" }] });
    const server = createServer({ name: "t", version: "1", logger, toolValidators: { same: { input }, changed: { input } } })
      .tool({ name: "same", inputSchema: { required: ["city"], additionalProperties: false, type: "object", properties: WEATHER.properties } }, ok)
      .tool({ name: "changed", inputSchema: { ...WEATHER, required: [] } }, ok);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain("tool changed: its schemas differ");
    const client = await connectClient(server, "2025-11-25");
    try {
      const text = (r: { content?: unknown }) => (r.content as { text: string }[])[0]!.text;
      expect(text(await client.callTool("same", { city: "Paris", days: 3 }))).to.equal("ok");
      expect(text(await client.callTool("same", { city: "", days: 0, extra: 1 }))).to.equal(
        "Invalid arguments for tool same: /city: must NOT have fewer than 1 characters; /days: must be >= 1; /extra: is not an allowed property",
      );
      expect(calls).to.equal(2);
      // The changed schema (city no longer required) is checked by the engine, not by the stale validators.
      expect(text(await client.callTool("changed", {}))).to.equal("ok");
      expect(calls).to.equal(2);
    } finally {
      await client.close();
    }
  });
});
