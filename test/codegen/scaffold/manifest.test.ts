/**
 * mcp.server.json checks (issue 18, item 3): each mistake a user made, refused with the file, the
 * JSON Pointer and what to do, before anything is written.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "chai";
import { MANIFEST_FILE, parseManifest, starterManifest } from "../../../codegen/scaffold/manifest.js";
import { MANIFEST_SCHEMA, MANIFEST_SCHEMA_REF } from "../../../codegen/scaffold/manifest-schema.js";
import { scaffold } from "../../../codegen/scaffold/scaffold.js";
import { removeDir, ROOT, snapshot, tempDir } from "../../support/project.js";

type Json = Record<string, unknown>;
const starter = () => JSON.parse(JSON.stringify(starterManifest("notes", "stdio"))) as Json & { tools: Json[]; resourceTemplates: Json[] };
const WHERE = "/tmp/notes/mcp.server.json";

/** The problems parseManifest reports for a manifest edited by `edit`. */
function problems(edit: (manifest: ReturnType<typeof starter>) => void): string {
  const manifest = starter();
  edit(manifest);
  try {
    parseManifest(JSON.stringify(manifest), WHERE);
  } catch (error) {
    return (error as Error).message;
  }
  return "accepted";
}

const input = (m: ReturnType<typeof starter>) => m.tools[0]!.inputSchema as Json & { properties: Record<string, Json> };

describe("codegen/scaffold/manifest: every mistake named with its file, pointer and fix", () => {
  it("accepts the starter manifest, and one using any common schema keyword", () => {
    expect(problems(() => {})).to.equal("accepted");
    // A revision generated into the project may have any name `generate --out --name` takes, not only a date.
    expect(problems((m) => Object.assign(m, { revisions: ["2025-11-25", "2026-12-01-draft.2"] }))).to.equal("accepted");
    expect(
      problems((m) => Object.assign(input(m), { additionalProperties: false, title: "Echo", description: "d", $defs: { n: { type: "integer" } }, allOf: [{}] })),
    ).to.equal("accepted");
  });

  /** `structural`: a mistake the published schema itself refuses (the rest need the checker's deeper checks). */
  const CASES: { name: string; edit: (m: ReturnType<typeof starter>) => void; expected: string; structural?: true }[] = [
    {
      name: "a misspelt top-level key (tols)",
      edit: (m) => ((m.tols = m.tools), delete (m as Json).tools),
      expected: `#/tols: unknown key (did you mean "tools"?)`,
      structural: true,
    },
    { name: "a misspelt key in a tool (requird)", edit: (m) => (m.tools[0]!.requird = ["x"]), expected: `#/tools/0/requird: unknown key; allowed:`, structural: true },
    {
      name: "a misspelt key in a prompt argument",
      edit: (m) => ((m.prompts as Json[])[0]!.arguments as Json[]).push({ name: "tone", requird: true }),
      expected: `#/prompts/0/arguments/2/requird: unknown key (did you mean "required"?)`,
      structural: true,
    },
    { name: "an unknown transport", edit: (m) => (m.transport = "htp"), expected: `#/transport: "htp" is not one of "stdio", "http" (did you mean "http"?)`, structural: true },
    { name: "a version that is not a string", edit: (m) => (m.version = 1), expected: "#/version: must be string; the server's version", structural: true },
    {
      name: "a tool name with a space",
      edit: (m) => (m.tools[0]!.name = "bad name"),
      expected: `#/tools/0/name: "bad name" does not match ^[A-Za-z0-9_.-]{1,128}$; use 1 to 128 of A-Z a-z 0-9 _ . -`,
      structural: true,
    },
    {
      name: "an inputSchema that is not an object schema",
      edit: (m) => (m.tools[0]!.inputSchema = { type: "string" }),
      expected: `#/tools/0/inputSchema/type: must be "object", not "string"; a tool's inputSchema describes a JSON object`,
      structural: true,
    },
    { name: "a tool without an inputSchema", edit: (m) => delete m.tools[0]!.inputSchema, expected: `#/tools/0: "inputSchema" is missing; a tool's inputSchema:`, structural: true },
    {
      name: "two tools that would share a stub file",
      edit: (m) => m.tools.push({ ...m.tools[0]!, name: "Echo" }),
      expected: "#/tools/1/name: echo and Echo would share the stub file echo.ts and the type Echo; rename one",
    },
    {
      name: "enum that is not a list",
      edit: (m) => (input(m).properties.message!.enum = "low"),
      expected: "#/tools/0/inputSchema/properties/message/enum: must be array",
    },
    {
      name: "a misspelt type (strng)",
      edit: (m) => (input(m).properties.message!.type = "strng"),
      expected: `#/tools/0/inputSchema/properties/message/type: "strng" is not one of "array", "boolean", "integer", "null", "number", "object", "string" (did you mean "string"?)`,
    },
    {
      name: "a dangling $ref",
      edit: (m) => (input(m).properties.message = { $ref: "#/$defs/Nope" }),
      expected: `#/tools/0/inputSchema/properties/message/$ref: $ref "#/$defs/Nope" names no place in this schema`,
    },
    {
      name: "a pattern that is not a regular expression, in a $defs entry",
      edit: (m) => {
        input(m).properties.message = { $ref: "#/$defs/Tag" };
        Object.assign(input(m), { $defs: { Tag: { type: "string", pattern: "^[a-z+$" } } });
      },
      expected: "#/tools/0/inputSchema/$defs/Tag/pattern: pattern is not a valid regular expression with the u flag (as ajv compiles it): Invalid regular expression: /^[a-z+$/u: Unterminated character class",
    },
    {
      name: "required naming an undeclared property (mesage)",
      edit: (m) => (input(m).required = ["mesage"]),
      expected: `#/tools/0/inputSchema/required/0: "mesage" is not one of its properties (did you mean "message"?)`,
    },
    {
      name: "an example that violates its schema",
      edit: (m) => (m.tools[0]!.example = { message: "hi", times: 99 }),
      expected: "#/tools/0/example/times: must be <= 10; make the example satisfy its inputSchema",
    },
    {
      name: "arguments it cannot derive (minProperties) without an example",
      edit: (m) => {
        input(m).properties.patch = { type: "object", minProperties: 1 };
        input(m).required = ["message", "patch"];
      },
      expected: `#/tools/0: cannot make arguments that satisfy its inputSchema (tried {"message":"example","patch":{}}: /patch: must NOT have fewer than 1 properties); add an "example"`,
    },
    {
      name: "a revision name that cannot be a folder and an export name",
      edit: (m) => Object.assign(m, { revisions: ["2025-11-25", "../next"] }),
      expected: `#/revisions/1`,
      structural: true,
    },
    {
      name: "an unbalanced URI template",
      edit: (m) => (m.resourceTemplates[0]!.uriTemplate = "notes://note/{id"),
      expected: `#/resourceTemplates/0/uriTemplate: invalid URI template "notes://note/{id": unbalanced braces; write RFC 6570 expressions`,
    },
  ];
  for (const { name, edit, expected } of CASES)
    it(name, () => {
      const message = problems(edit);
      expect(message).to.contain(`${WHERE} has`).and.to.contain("(nothing was changed)");
      expect(message).to.contain(expected);
    });

  it("a misspelt type, alone or in a list, is one problem: the name it likely meant, not the meta-schema's anyOf and its other branch", () => {
    for (const [type, expected] of [
      ["strnig", `#/tools/0/inputSchema/properties/message/type: "strnig" is not one of`],
      [["string", "nul"], `#/tools/0/inputSchema/properties/message/type/1: "nul" is not one of`],
    ] as const) {
      const message = problems((m) => (input(m).properties.message!.type = type as never));
      expect(message).to.contain(`${WHERE} has 1 problem`).and.contain(expected).and.contain("(did you mean").and.not.contain("anyOf");
    }
  });

  it("draft-07's items (an anyOf of a schema or a list): every problem of the schema meant, none of the list's, in the dialect's name", () => {
    const message = problems((m) => {
      Object.assign(input(m), { $schema: "http://json-schema.org/draft-07/schema#" });
      input(m).properties.message = { type: "array", items: { type: "strin", minimum: "x" } };
    });
    expect(message).to.contain(`${WHERE} has 2 problems`);
    expect(message).to.contain(`#/tools/0/inputSchema/properties/message/items/type: "strin" is not one of`).and.contain('(did you mean "string"?)');
    expect(message).to.contain("#/tools/0/inputSchema/properties/message/items/minimum: must be number (not a valid JSON Schema draft-07 keyword value)");
  });

  it("the published schema (as mcp.server.schema.json holds it) agrees with the checker: what it refuses is refused, what the checker accepts it accepts", () => {
    // A separate ajv in strict mode, on the JSON the package ships: the schema must be valid
    // 2020-12 itself, and no case may pass one and fail the other except the deep checks'.
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    const published = JSON.parse(JSON.stringify(MANIFEST_SCHEMA)) as object;
    expect(ajv.validateSchema(published), JSON.stringify(ajv.errors)).to.equal(true);
    const validate = ajv.compile(published);
    const accepted = [starter(), starterManifest("web", "http", ["2025-06-18", "2026-07-28"]), JSON.parse(JSON.stringify(starter())) as Json];
    (accepted[2] as ReturnType<typeof starter>).tools[0]!.example = { message: "hi" };
    for (const manifest of accepted) {
      expect(parseManifest(JSON.stringify(manifest), WHERE).name).to.be.a("string");
      expect(validate(manifest), JSON.stringify(validate.errors)).to.equal(true);
    }
    for (const { name, edit, structural } of CASES) {
      const manifest = starter();
      edit(manifest);
      expect(problems(edit), name).not.to.equal("accepted");
      expect(validate(manifest), `${name}: ${JSON.stringify(validate.errors)}`).to.equal(!structural);
    }
  });

  it("a new manifest's $schema is the package's copy in node_modules", () => {
    expect(starter().$schema).to.equal(MANIFEST_SCHEMA_REF).and.to.equal("./node_modules/mcp-codegen/mcp.server.schema.json");
  });

  it("the same tool with a valid example is accepted", () => {
    expect(
      problems((m) => {
        input(m).properties.patch = { type: "object", minProperties: 1 };
        input(m).required = ["message", "patch"];
        m.tools[0]!.example = { message: "hi", patch: { body: "b" } };
      }),
    ).to.equal("accepted");
  });

  it("a project whose manifest has a mistake is left byte for byte as it was", async () => {
    const dir = tempDir("manifest-refused");
    try {
      const manifest = starter();
      manifest.tols = manifest.tools;
      writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest));
      mkdirSync(join(dir, "src", "tools"), { recursive: true });
      writeFileSync(join(dir, "src", "tools", "echo.ts"), "// mine\n");
      const before = snapshot(dir);
      const error = await scaffold({ dir, toolkit: ROOT }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).to.contain(`${join(dir, MANIFEST_FILE)} has`).and.to.contain(`#/tols: unknown key (did you mean "tools"?)`);
      expect(snapshot(dir)).to.deep.equal(before);
    } finally {
      removeDir(dir);
    }
  });
});
