/**
 * runtime/server/schema-types.ts, the types a tool's JSON Schema literal gives its handler.
 * Two proofs: (1) at compile time (this file type-checks only if they hold), our FromSchema is
 * mutually assignable with json-schema-to-ts's, the reference implementation, on a corpus of
 * schemas; (2) through tsc on a server written as a user would, every wrong use of an inferred
 * argument or output fails to compile, naming the field, and every common keyword compiles.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import type { JSONSchema, FromSchema as Reference } from "json-schema-to-ts";
import type { FromSchema, ToolArguments } from "../../../runtime/server/schema-types.js";
import { removeDir, ROOT, tempDir } from "../../support/project.js";
import { STRICT_FLAGS, TSC } from "../../support/tsc.js";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile unless ours and the reference agree on `S`. */
type Agrees<S extends JSONSchema> = Same<FromSchema<S>, Reference<S>>;

const notes = {
  type: "object",
  title: "Create a note",
  description: "A note with a priority and tags",
  properties: {
    title: { type: "string", minLength: 1 },
    priority: { type: "string", enum: ["low", "normal", "high"] },
    score: { type: "number" },
    count: { type: "integer", minimum: 0 },
    done: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    due: { type: ["string", "null"] },
    kind: { const: "note" },
    patch: { type: "object", properties: { body: { type: "string" } }, minProperties: 1 },
    closed: { type: "object", properties: { a: { type: "number" } }, required: ["a"], additionalProperties: false },
    either: { anyOf: [{ type: "string" }, { type: "number" }] },
    one: { oneOf: [{ type: "boolean" }, { type: "null" }] },
    both: { allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { type: "object", properties: { b: { type: "number" } } }] },
  },
  required: ["title", "priority"],
  additionalProperties: false,
} as const;

// Each line compiles only when both implementations agree.
export const agreements: [
  Agrees<typeof notes>,
  Agrees<(typeof notes)["properties"]["priority"]>,
  Agrees<(typeof notes)["properties"]["tags"]>,
  Agrees<(typeof notes)["properties"]["due"]>,
  Agrees<(typeof notes)["properties"]["kind"]>,
  Agrees<(typeof notes)["properties"]["patch"]>,
  Agrees<(typeof notes)["properties"]["closed"]>,
  Agrees<(typeof notes)["properties"]["either"]>,
  Agrees<(typeof notes)["properties"]["one"]>,
  Agrees<{ readonly type: "object" }>,
  Agrees<{ readonly type: "object"; readonly required: readonly ["x"] }>,
  Agrees<{ readonly type: "array"; readonly items: { readonly type: "object"; readonly properties: { readonly n: { readonly type: "integer" } } } }>,
  Agrees<{ readonly enum: readonly [1, 2, "three", null] }>,
  Agrees<true>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true];

// Beyond the reference: what the JSON Schema Test Suite holds sound (schema-types-suite.test.ts), each exact here.
const tree = { type: "object", properties: { name: { type: "string" }, child: { $ref: "#/$defs/leaf" } }, $defs: { leaf: { type: "array", items: { type: "integer" } } } } as const;
export const inferred: [
  Same<FromSchema<{ readonly prefixItems: readonly [{ readonly type: "string" }, { readonly type: "number" }]; readonly items: false; readonly type: "array" }>, [] | [string] | [string, number]>,
  Same<FromSchema<{ readonly type: "array"; readonly prefixItems: readonly [{ readonly type: "string" }]; readonly items: { readonly type: "boolean" } }>, [string?, ...boolean[]]>,
  Same<FromSchema<typeof tree>, { name?: string; child?: number[]; [key: string]: unknown }>,
  Same<FromSchema<{ readonly type: "object"; readonly patternProperties: { readonly "^x-": { readonly type: "number" } }; readonly additionalProperties: false }>, { [key: string]: number }>,
  Same<FromSchema<{ readonly type: "object"; readonly additionalProperties: { readonly type: "string" } }>, { [key: string]: string }>,
  Same<FromSchema<{ readonly const: { readonly a: readonly [1, "b"] } }>, { a: [1, "b"] }>,
  Same<FromSchema<{ readonly if: { readonly type: "string" }; readonly then: { readonly enum: readonly ["a"] }; readonly else: { readonly type: "number" } }>, "a" | number>,
  Same<FromSchema<{ readonly not: { readonly type: "null" }; readonly type: readonly ["string", "null"] }>, string>,
  Same<FromSchema<{ readonly $schema: "http://json-schema.org/draft-07/schema#"; readonly $ref: "#/definitions/s"; readonly type: "number"; readonly definitions: { readonly s: { readonly type: "string" } } }>, string>,
  Same<FromSchema<{ readonly $ref: "#/$defs/s"; readonly maxLength: 3; readonly $defs: { readonly s: { readonly type: "string" } } }>, string>,
  Same<FromSchema<{ readonly properties: { readonly a: { readonly type: "string" } } }>, string | number | boolean | null | unknown[] | { a?: string; [key: string]: unknown }>,
  Same<FromSchema<{ readonly $ref: "#name"; readonly $defs: { readonly x: { readonly $anchor: "name"; readonly type: "boolean" } } }>, boolean>,
] = [true, true, true, true, true, true, true, true, true, true, true, true];

// What we do not infer reads as unknown, and a tool's arguments then as any object.
export const fallbacks: [
  Same<FromSchema<{ readonly $ref: "#/$defs/x" }>, unknown>,
  Same<ToolArguments<{ readonly type: "object"; readonly $ref: "#/$defs/x" }>, { [key: string]: unknown }>,
  Same<ToolArguments<{ readonly if: { readonly type: "string" } }>, Record<string, unknown>>,
  Same<FromSchema<{ readonly $ref: "https://example.com/remote.json" }>, unknown>,
  Same<FromSchema<{ readonly type: "string"; readonly pattern: "^a" }>, string>,
] = [true, true, true, true, true];

describe("runtime/server/schema-types through tsc, as a user writes a server", function () {
  this.timeout(120_000);
  let dir: string;
  let output: string;
  const lines: Record<string, number> = {};
  before(() => {
    dir = tempDir("schema-types");
    mkdirSync(join(dir, "src"));
    const source: string[] = [
      `import { createServer } from ${JSON.stringify(join(ROOT, "runtime", "index.js"))};`,
      `const server = createServer({ name: "notes", version: "1.0.0" });`,
      // Item 1: every common keyword at the top level of an inline schema compiles, and reaches tools/list as written.
      `server.tool({ name: "keywords", inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", title: "t", description: "d", additionalProperties: false, $defs: { x: { type: "string" } }, oneOf: [{ required: ["a"] }], allOf: [{}] } }, () => ({ content: [] }));`,
      `server.tool({`,
      `  name: "create_note",`,
      `  inputSchema: { type: "object", properties: { title: { type: "string" }, priority: { enum: ["low", "high"] }, tags: { type: "array", items: { type: "string" } } }, required: ["title", "priority"], additionalProperties: false },`,
      `  outputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },`,
      `}, (args) => { // the handler: where tsc reports one whose result does not fit (one signature, no overload dump at the call)`,
      `  const title: string = args.title;`,
      `  const tags: string[] | undefined = args.tags;`,
      `  const priority: "low" | "high" = args.priority;`,
    ];
    const mark = (name: string, line: string) => {
      source.push(line);
      lines[name] = source.length;
    };
    mark("wrong argument type", `  const wrong: number = args.title;`);
    mark("argument not in the schema", `  void args.nope;`);
    mark("optional used as required", `  const first: string = args.tags[0] ?? "";`);
    mark("enum value outside it", `  const low: "medium" = args.priority;`);
    source.push(`  void title; void tags; void priority; void wrong; void first; void low;`);
    source.push(`  return { content: [], structuredContent: { id: "one" } };`);
    lines["structuredContent of the wrong type"] = source.findIndex((line) => line.includes("the handler: where tsc reports")) + 1;
    source.push(`});`);
    // Declared apart, `as const`: the same inference.
    source.push(`const input = { type: "object", properties: { n: { type: "number" } }, required: ["n"] } as const;`);
    mark("as const schema", `server.tool({ name: "apart", inputSchema: input }, ({ n }) => ({ content: [{ type: "text", text: n.toFixed(1) }] , nope: n.length }));`);
    // structuredContent without content: the runtime adds the text copy, so the types let it be left out.
    source.push(`server.tool({ name: "structured", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } }, () => ({ structuredContent: { id: 7 } }));`);
    source.push(`server.tool({ name: "structured_plain", inputSchema: { type: "object" } }, () => ({ structuredContent: { id: 7 } }));`);
    mark("neither content nor structuredContent", `server.tool({ name: "empty", inputSchema: { type: "object" } }, () => ({ isError: false }));`);
    // A prompt's arguments from its definition: required ones strings, the others possibly absent, no others.
    source.push(`server.prompt({ name: "summarize", arguments: [{ name: "note", required: true }, { name: "tone" }] }, (args) => {`);
    source.push(`  const note: string = args.note;`);
    source.push(`  const tone: string | undefined = args.tone;`);
    mark("optional prompt argument used as required", `  const sure: string = args.tone;`);
    mark("prompt argument not declared", `  void args.nott;`);
    source.push(`  void note; void tone; void sure;`);
    source.push(`  return { messages: [] };`);
    source.push(`});`);
    source.push(`server.prompt<{ any: string }>({ name: "typed" }, ({ any }) => ({ messages: [{ role: "user", content: { type: "text", text: any } }] }));`);
    // What the client answers ctx.listRoots and ctx.elicit with: the revisions' results.
    source.push(`server.tool({ name: "asks", inputSchema: { type: "object" } }, async (_args, ctx) => {`);
    source.push(`  const { roots } = await ctx.listRoots();`);
    source.push(`  const uri: string = roots[0]?.uri ?? "";`);
    source.push(`  const answer = await ctx.elicit({ message: "sure?", requestedSchema: { type: "object", properties: {} } });`);
    source.push(`  const action: "accept" | "decline" | "cancel" = answer.action;`);
    mark("a root's uri taken for a number", `  const wrongUri: number = roots[0]!.uri;`);
    source.push(`  return { content: [{ type: "text", text: uri + action + String(wrongUri) }] };`);
    source.push(`});`);
    // A resource template's variables from its uriTemplate (RFC 6570): a query's possibly absent, no others.
    source.push(`server.resourceTemplate({ name: "note", uriTemplate: "notes://{+folder}/{id}{?tag,page}" }, (uri, vars) => {`);
    source.push(`  const id: string | string[] = vars.id;`);
    source.push(`  const folder: string | string[] = vars.folder;`);
    source.push(`  const tag: string | string[] | undefined = vars.tag;`);
    mark("template query variable used as always present", `  const page: string | string[] = vars.page;`);
    mark("template variable not in the template", `  void vars.nam;`);
    source.push(`  void id; void folder; void tag; void page;`);
    source.push(`  return { contents: [{ uri, text: "" }] };`);
    source.push(`});`);
    // The explicit form still works: the type given wins.
    source.push(`server.tool<{ n: number }>({ name: "explicit", inputSchema: { type: "object" } }, ({ n }) => ({ content: [{ type: "text", text: n.toFixed(1) }] }));`);
    writeFileSync(join(dir, "src", "notes.ts"), `${source.join("\n")}\n`);
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    const run = spawnSync(process.execPath, [TSC, ...STRICT_FLAGS.filter((flag) => flag !== "--exactOptionalPropertyTypes"), "--types", "node", "--typeRoots", join(ROOT, "node_modules", "@types"), join(dir, "src", "notes.ts")], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
    });
    output = `${run.stdout}${run.stderr}`;
  });
  after(() => removeDir(dir));

  /** The errors reported at a line, each with its indented continuation (an overload failure spans many lines). */
  const errorsAt = (line: number) => output.split(/\n(?=\S)/).filter((l) => l.includes(`notes.ts(${line},`));

  it("compiles every common keyword and the correct uses: errors only on the marked lines", () => {
    const marked = new Set(Object.values(lines));
    const elsewhere = output.split("\n").filter((l) => /notes\.ts\((\d+),/.test(l) && !marked.has(Number(/notes\.ts\((\d+),/.exec(l)![1])));
    expect(elsewhere, output).to.deep.equal([]);
    expect(output.split("\n").filter((l) => l.includes("error TS") && !l.includes("notes.ts(")), "only the user's file has errors").to.deep.equal([]);
  });

  const EXPECTED: Record<string, RegExp> = {
    "wrong argument type": /TS2322: Type 'string' is not assignable to type 'number'/,
    "argument not in the schema": /TS2339: Property 'nope' does not exist/,
    "optional used as required": /TS(18048|2532|2322).*(undefined)/,
    "enum value outside it": /TS2322: Type '("low" \| "high"|"high" \| "low")' is not assignable to type '"medium"'/,
    "structuredContent of the wrong type": /^[^\n]*error TS2345: Argument of type '\(args[^]*The types of 'structuredContent\.id' are incompatible[^]*Type 'string' is not assignable to type 'number'/,
    "as const schema": /Property 'length' does not exist on type 'number'/,
    "neither content nor structuredContent": /error TS2(322|345)/,
    "optional prompt argument used as required": /TS2322: Type 'string \| undefined' is not assignable to type 'string'/,
    "prompt argument not declared": /TS2339: Property 'nott' does not exist/,
    "a root's uri taken for a number": /TS2322: Type 'string' is not assignable to type 'number'/,
    "template query variable used as always present": /TS2322: Type 'string \| string\[\] \| undefined' is not assignable/,
    "template variable not in the template": /TS2339: Property 'nam' does not exist/,
  };
  for (const [name, pattern] of Object.entries(EXPECTED))
    it(`fails where a user gets it wrong: ${name}`, () => {
      const errors = errorsAt(lines[name]!);
      expect(errors, output).to.have.length.greaterThan(0);
      expect(errors.join("\n"), output).to.match(pattern);
    });
});
