/**
 * runtime/json-schema/render/loops.ts: the loops printed into a generated (TypeScript) file
 * type-check under strict tsc with noUnusedLocals, as tsconfig.json (generated/) and a user's
 * project may ask: a loop whose key no test reads names it `_key`, whether it refuses every key or
 * checks entries by a test that reads none.
 */
import { expect } from "chai";
import { describeRun, removeDir, tempDir } from "../../../support/project.js";
import { toolsSource, typeCheckTools } from "../../../support/tool-validators.js";

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
    dir = tempDir("loops-tsc");
    const source = toolsSource([inputSchema]);
    expect(source, "the boolean check refuses a key it never reads").to.match(/for \(const _key in value\)/);
    const run = await typeCheckTools(source, dir);
    expect(run.status, describeRun(run)).to.equal(0);
  });

  it("a loop whose check of each entry reads nothing of it (additionalProperties: { anyOf: [true] }) names the key _key, and type-checks with noUnusedLocals", async () => {
    const source = toolsSource([{ type: "object", additionalProperties: { anyOf: [true] } }]);
    expect(source, "the boolean check reads no entry").to.match(/for \(const _key in value\)/);
    const run = await typeCheckTools(source, dir!);
    expect(run.status, describeRun(run)).to.equal(0);
  });
});
