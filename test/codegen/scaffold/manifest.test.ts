/**
 * mcp.server.json checks (issue 18, item 3): each mistake a user made, refused with the file, the
 * JSON Pointer and what to do, before anything is written.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { MANIFEST_FILE, parseManifest, starterManifest } from "../../../codegen/scaffold/manifest.js";
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
    expect(
      problems((m) => Object.assign(input(m), { additionalProperties: false, title: "Echo", description: "d", $defs: { n: { type: "integer" } }, allOf: [{}] })),
    ).to.equal("accepted");
  });

  const CASES: { name: string; edit: (m: ReturnType<typeof starter>) => void; expected: string }[] = [
    {
      name: "a misspelt top-level key (tols)",
      edit: (m) => ((m.tols = m.tools), delete (m as Json).tools),
      expected: `#/tols: unknown key (did you mean "tools"?)`,
    },
    { name: "a misspelt key in a tool (requird)", edit: (m) => (m.tools[0]!.requird = ["x"]), expected: `#/tools/0/requird: unknown key; allowed:` },
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
      expected: "#/tools/0/inputSchema: can't resolve reference #/$defs/Nope",
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
