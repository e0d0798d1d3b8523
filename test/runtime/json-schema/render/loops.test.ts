/**
 * runtime/json-schema/render/loops.ts: the loops printed into a generated (TypeScript) file
 * type-check under strict tsc with noUnusedLocals, as tsconfig.json (generated/) and a user's
 * project may ask: a loop whose key no test reads names it `_key`, whether it refuses every key or
 * checks entries by a test that reads none.
 */
import { expect } from "chai";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emitToolValidators } from "../../../../codegen/tool-validators/emit.js";
import { loadToolSchemas } from "../../../../codegen/tool-validators/load.js";
import { describeRun, removeDir, ROOT, tempDir } from "../../../support/project.js";
import { STRICT_FLAGS, tscAsync } from "../../../support/tsc.js";

describe("json-schema/render: loops in a generated file", function () {
  this.timeout(120_000);
  let dir: string | undefined;
  after(() => removeDir(dir));

  it("unevaluatedProperties: false whose only evaluation is a condition that evaluates every name (an anyOf branch with additionalProperties) type-checks with noUnusedLocals", async () => {
    const inputSchema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      anyOf: [{ type: "object", additionalProperties: { type: "number" } }, { type: "string" }],
      unevaluatedProperties: false,
    };
    const entries = [{ name: "t0", inputSchema }];
    dir = tempDir("loops-tsc");
    const source = emitToolValidators("mcp.server.json", entries, loadToolSchemas("mcp.server.json", entries), "./validation.js");
    expect(source, "the boolean check refuses a key it never reads").to.match(/for \(const _key in value\)/);
    writeFileSync(join(dir, "tools.ts"), source);
    copyFileSync(join(ROOT, "runtime", "support", "validation.ts"), join(dir, "validation.ts"));
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }');
    const run = await tscAsync([...STRICT_FLAGS, "tools.ts"], dir);
    expect(run.status, describeRun(run)).to.equal(0);
  });

  it("a loop whose check of each entry reads nothing of it (additionalProperties: { anyOf: [true] }) names the key _key, and type-checks with noUnusedLocals", async () => {
    const entries = [{ name: "t0", inputSchema: { type: "object", additionalProperties: { anyOf: [true] } } }];
    const source = emitToolValidators("mcp.server.json", entries, loadToolSchemas("mcp.server.json", entries), "./validation.js");
    expect(source, "the boolean check reads no entry").to.match(/for \(const _key in value\)/);
    writeFileSync(join(dir!, "tools.ts"), source);
    const run = await tscAsync([...STRICT_FLAGS, "tools.ts"], dir!);
    expect(run.status, describeRun(run)).to.equal(0);
  });
});
