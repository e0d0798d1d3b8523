/**
 * runtime/json-schema/render/functions.ts: a generated file holds only the functions its code
 * calls (reachable, and the helpers' boolean checks only where tested), and names no parameter or
 * local it never reads, so it type-checks under noUnusedLocals and noUnusedParameters.
 */
import { expect } from "chai";
import { compileSchema } from "../../../../runtime/json-schema/compile.js";
import { describeRun, removeDir, tempDir } from "../../../support/project.js";
import { toolsSource, typeCheckTools } from "../../../support/tool-validators.js";
import { STRICT_FLAGS } from "../../../support/tsc.js";

const inputSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $defs: {
    unused: { type: "string" },
    a: { type: "object", properties: { k: { const: "a" } }, required: ["k"] },
    b: { type: "integer" },
    c: { description: "anything" },
  },
  type: "object",
  properties: {
    // Tested only: isA and isB, no checkA or checkB.
    x: { anyOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/b" }] },
    // Branches inlined in the test, called for their issues: a check helper each, no boolean one.
    y: { oneOf: [{ type: "string", minLength: 2 }, { type: "string", maxLength: 3 }] },
    // A test that reads nothing of its item or value: no parameter, no local for it.
    z: { contains: true, prefixItems: [false] },
    w: { $ref: "#/$defs/c" },
  },
};

describe("json-schema/render/functions: only the functions a generated file calls", function () {
  this.timeout(120_000);
  let dir: string | undefined;
  after(() => removeDir(dir));

  const source = toolsSource([inputSchema]);
  const functions = [...source.matchAll(/^function (\w+)\(/gm)].map((m) => m[1]!);

  it("prints no function for a $defs entry nothing references", () => {
    expect(functions.filter((name) => /unused/.test(name))).to.deep.equal([]);
  });

  it("prints the boolean check, not the issue check, of a definition only tested (anyOf of $refs)", () => {
    expect(functions).to.include.members(["isT0Input_a", "isT0Input_b"]);
    expect(functions).not.to.include.members(["checkT0Input_a"]);
    expect(functions).not.to.include.members(["checkT0Input_b"]);
  });

  it("prints the issue check, not the boolean check, of a oneOf branch only explained", () => {
    expect(functions).to.include.members(["checkT0Input_y_oneOf_0", "checkT0Input_y_oneOf_1"]);
    expect(functions.filter((name) => /^isT0Input_y_oneOf/.test(name))).to.deep.equal([]);
  });

  it("names no parameter it does not read, and binds no item it does not read", () => {
    expect(source).to.include("countOf(z, () => true, 1)");
    expect(source).not.to.match(/const item = z\[0\];/);
    expect(source).to.include("function isT0Input_c(_value: unknown): boolean");
    expect(source).to.include("function checkT0Input_c(_value: unknown, _path: string, issues: ValidationIssue[])");
  });

  it("type-checks under the strict flags, noUnusedLocals and noUnusedParameters among them", async () => {
    expect(STRICT_FLAGS).to.include.members(["--noUnusedLocals", "--noUnusedParameters"]);
    dir = tempDir("functions-tsc");
    const run = await typeCheckTools(source, dir);
    expect(run.status, describeRun(run)).to.equal(0);
  });

  it("code mode, which prints the same functions, gives the closures' verdicts and issues on values that reach every branch", () => {
    const code = compileSchema(inputSchema, { mode: "code" });
    const closures = compileSchema(inputSchema, { mode: "closures" });
    expect(code.mode).to.equal("code");
    const values = [
      {},
      { x: { k: "a" }, y: "abc", z: [], w: [] },
      { x: { k: "b" }, y: "abcd", z: [1], w: [1] },
      { x: 1.5, y: "a", z: [1, 2], w: "no" },
      { x: 3, y: 7 },
    ];
    for (const value of values) {
      expect(code.is(value), JSON.stringify(value)).to.equal(closures.is(value));
      expect(code.check(value), JSON.stringify(value)).to.deep.equal(closures.check(value));
    }
    expect(values.filter((value) => code.is(value)).length, "some valid, some not").to.be.within(1, values.length - 1);
  });
});
