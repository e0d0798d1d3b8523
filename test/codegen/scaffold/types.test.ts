/**
 * codegen/scaffold: the types a scaffolded project gets for what users write in mcp.server.json:
 * a tool schema with `$defs` + `$ref` and no `example` (the sample maker follows the reference),
 * an optional array with `maxItems` (an array type, not a union of tuples; tuples only from
 * `prefixItems`), and a template's optional RFC 6570 variables (`{?tag}`: optional). The generated
 * files are compiled with tsc against this checkout's runtime, beside code a user would write.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "chai";
import { emitManifest, emitTypes } from "../../../codegen/scaffold/generated.js";
import { parseManifest, type Manifest } from "../../../codegen/scaffold/manifest.js";
import { sampleOf } from "../../../codegen/scaffold/samples.js";
import { ROOT } from "../../support/project.js";
import { TSC } from "../../support/tsc.js";

const MANIFEST = {
  name: "notes",
  version: "1.0.0",
  transport: "stdio",
  tools: [
    {
      name: "tag_notes",
      inputSchema: {
        type: "object",
        $defs: { Tag: { type: "string", minLength: 2, pattern: "^[a-z]+$", examples: ["work"] }, Note: { type: "object", properties: { id: { $ref: "#/$defs/Id" } }, required: ["id"] }, Id: { type: "integer", minimum: 7 } },
        properties: {
          note: { $ref: "#/$defs/Note" },
          tags: { type: "array", items: { $ref: "#/$defs/Tag" }, maxItems: 10 },
          pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false },
        },
        required: ["note"],
      },
    },
  ],
  resourceTemplates: [{ name: "notes", uriTemplate: "notes://{id}{?tag}{&limit}" }],
};

/** What a user writes against the generated types: each line must compile, but the one marked. */
const USAGE = `import type { NotesVariables, TagNotesArgs } from "./types.js";

const tags: string[] = ["work", "home"];
export const args: TagNotesArgs = { note: { id: 7 }, tags };
export const none: TagNotesArgs = { note: { id: 8 } };
export const pair: TagNotesArgs = { note: { id: 9 }, pair: ["a", 1] };
// @ts-expect-error: a tuple from prefixItems is still a tuple
export const badPair: TagNotesArgs = { note: { id: 9 }, pair: [1, "a"] };
export const variables: NotesVariables = { id: "1" };
export const tagged: NotesVariables = { id: "1", tag: ["a", "b"], limit: "3" };
export const id: string = variables.id;
// @ts-expect-error: an optional variable may be absent
export const tag: string | string[] = variables.tag;
`;

describe("codegen/scaffold: the types of $ref, bounded arrays and optional template variables", function () {
  this.timeout(120_000);

  it("a $defs + $ref tool schema without an example is accepted: the arguments made from it are valid (ajv)", () => {
    const manifest = parseManifest(JSON.stringify(MANIFEST), "mcp.server.json");
    const sample = sampleOf(manifest.tools[0]!.inputSchema);
    expect(sample).to.deep.equal({ note: { id: 7 } });
    const validate = new Ajv2020({ strict: false }).compile(manifest.tools[0]!.inputSchema);
    expect(validate(sample), JSON.stringify(validate.errors)).to.equal(true);
    // The ref'd string's own examples, and a tuple of its prefixItems.
    expect(sampleOf({ type: "object", properties: { t: { $ref: "#/$defs/Tag" } }, required: ["t"], $defs: { Tag: { type: "string", examples: ["work"] } } })).to.deep.equal({ t: "work" });
    expect(sampleOf({ type: "array", prefixItems: [{ type: "string" }, { type: "number" }] })).to.deep.equal(["example", 1]);
  });

  it("compiles: an optional maxItems array takes a string[], prefixItems is a tuple, {?tag} and {&limit} are optional", async () => {
    const manifest = parseManifest(JSON.stringify(MANIFEST), "mcp.server.json") as Manifest;
    const types = await emitTypes(manifest, []);
    expect(types).to.not.match(/\[\s*Tag\s*,/); // no tuple of the bounded array
    // $defs, $ref and prefixItems are within the inference: the same types as `server.tool` gives.
    expect(types).to.contain('export type TagNotesArgs = ToolArguments<(typeof tools)["tag_notes"]["inputSchema"]>;');
    expect(types).to.match(/"tag"\?: string \| string\[\];/);
    mkdirSync(join(ROOT, "test", "fixtures", "out"), { recursive: true });
    const project = mkdtempSync(join(ROOT, "test", "fixtures", "out", "types-"));
    try {
      mkdirSync(join(project, "src"));
      writeFileSync(join(project, "src", "types.ts"), types);
      writeFileSync(join(project, "src", "manifest.ts"), emitManifest(manifest));
      writeFileSync(join(project, "src", "usage.ts"), USAGE);
      const tsconfig = {
        compilerOptions: {
          strict: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", noEmit: true, skipLibCheck: true, types: ["node"], typeRoots: [join(ROOT, "node_modules", "@types")],
          paths: { "@mcp-codegen/runtime": [join(ROOT, "runtime", "index.ts")] },
        },
        include: ["src"],
      };
      writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
      const tsc = spawnSync(process.execPath, [TSC, "-p", project, "--pretty", "false"], { encoding: "utf8", cwd: project });
      expect(tsc.stdout + tsc.stderr).to.equal("");
      expect(tsc.status).to.equal(0);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
