/**
 * The compiler's code mode (runtime/json-schema/code.ts) against its closures (compile.ts) and
 * ajv, on every datum of the JSON Schema Test Suite (draft2020-12 and draft7, required and
 * optional files, formats asserted in optional/format): `check` in code mode runs generated code
 * and returns the closures' issues, word for word and in order (path, schemaPath, keyword,
 * message); `is` agrees with `check` and, on required files, with the suite and with ajv
 * wherever ajv agrees with the suite (optional files hold what we leave out on purpose, such as
 * 2020-12's `dependencies`). Only documents reaching a `$dynamicRef` or leaving out the validation
 * vocabulary stay in closures; `unevaluated*` ones are generated.
 */
import { expect } from "chai";
import { compileCheck, emitCheck } from "../../../runtime/json-schema/code.js";
import { compileSchema, type CompiledValidator } from "../../../runtime/json-schema/compile.js";
import { SchemaIndex } from "../../../runtime/json-schema/index.js";
import { SchemaCompiler } from "../../../runtime/shared/json-schema.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { asToolSchema, suiteFiles, suiteGroups, suiteRemotes, type SuiteDraft } from "../../support/json-schema-suite.js";

const DIALECT = { "draft2020-12": "2020-12", draft7: "draft-07" } as const;

/**
 * What compile.ts keeps in closures: a document that reaches a `$dynamicRef` (itself or a remote
 * it names), or whose meta-schema's `$vocabulary` leaves out validation.
 */
function leftToClosures(schema: Record<string, unknown>, remotes: Record<string, unknown>): boolean {
  const text = JSON.stringify(schema);
  const named = Object.entries(remotes).filter(([uri]) => text.includes(uri.replace(/\.json$/, "")) || text.includes(uri.split("/").pop()!));
  if (text.includes('"$dynamicRef"') || named.some(([, remote]) => JSON.stringify(remote).includes('"$dynamicRef"'))) return true;
  const meta = remotes[String(schema.$schema)] as { $vocabulary?: Record<string, boolean> } | undefined;
  return meta?.$vocabulary !== undefined && !("https://json-schema.org/draft/2020-12/vocab/validation" in meta.$vocabulary);
}

/** ajv's verdict; undefined where it refused the schema or threw (it overflows its stack on some of the suite's recursive schemas). */
function ajvVerdict(validate: ((value: unknown) => string | undefined) | undefined, value: unknown): boolean | undefined {
  try {
    return validate && validate(value) === undefined;
  } catch {
    return undefined;
  }
}

describe("json-schema: code mode's issues are the closures', on every datum of the JSON Schema Test Suite", function () {
  this.timeout(600_000);
  const remotes = suiteRemotes();

  for (const draft of ["draft2020-12", "draft7"] as const satisfies readonly SuiteDraft[]) {
    it(`${draft}: the same issues in both modes; on required files the suite's verdicts, and ajv's where it agrees with the suite`, async () => {
      const ajv = { annotation: new SchemaCompiler(silentLogger, "ajv", { remotes }), assert: new SchemaCompiler(silentLogger, "ajv", { remotes, formats: "assert" }) };
      await ajv.annotation.load();
      await ajv.assert.load();
      const problems: string[] = [];
      let data = 0;
      let withIssues = 0;
      let generated = 0;
      let unevaluated = 0;
      const inClosures: string[] = [];
      for (const optional of [false, true])
        for (const file of suiteFiles(draft, optional)) {
          const formats = file.startsWith("optional/format/") ? "assert" : "annotation";
          for (const group of suiteGroups(draft, file)) {
            const schema = asToolSchema(draft, group.schema);
            const where = `${draft}/${file} "${group.description}"`;
            let code: CompiledValidator;
            let closures: CompiledValidator;
            try {
              [code, closures] = (["code", "closures"] as const).map((mode) => compileSchema(schema, { dialect: DIALECT[draft], remotes, formats, mode })) as [CompiledValidator, CompiledValidator];
            } catch {
              continue; // refusals are json-schema-suite.test.ts's to judge
            }
            if (code.mode === "code") {
              generated++;
              if (JSON.stringify(schema).includes('"unevaluated')) unevaluated++;
            } else if (!leftToClosures(schema, remotes)) inClosures.push(where);
            let oracle: ((value: unknown) => string | undefined) | undefined;
            try {
              oracle = ajv[formats].compile(schema);
            } catch {
              oracle = undefined;
            }
            for (const test of group.tests) {
              data++;
              const at = `${where} "${test.description}"`;
              const issues = code.check(test.data);
              const expected = closures.check(test.data);
              if (issues.length > 0) withIssues++;
              if (JSON.stringify(issues) !== JSON.stringify(expected)) problems.push(`${at}:\n  code:     ${JSON.stringify(issues)}\n  closures: ${JSON.stringify(expected)}`);
              const verdict = code.is(test.data);
              if (verdict !== (issues.length === 0)) problems.push(`${at}: is says ${verdict}, check found ${issues.length} issue(s)`);
              if (!optional && verdict !== test.valid) problems.push(`${at}: ${verdict ? "valid" : "invalid"}, the suite says ${test.valid ? "valid" : "invalid"}`);
              const byAjv = ajvVerdict(oracle, test.data);
              if (!optional && byAjv === test.valid && verdict !== byAjv) problems.push(`${at}: ${verdict ? "valid" : "invalid"}, ajv and the suite say ${byAjv ? "valid" : "invalid"}`);
            }
          }
        }
      expect(problems, problems.join("\n")).to.deep.equal([]);
      // Not vacuous: most data has issues to compare, and code mode ran on all but the documents it leaves to closures.
      expect(data, "data compared").to.be.greaterThan(1500);
      expect(withIssues / data, "share of data with issues").to.be.within(0.3, 0.7);
      expect(inClosures, "in closures, but neither reaching a $dynamicRef nor leaving out the validation vocabulary").to.deep.equal([]);
      expect(generated, "groups in code mode").to.be.greaterThan(300);
      if (draft === "draft2020-12") expect(unevaluated, "groups with unevaluated* in code mode").to.be.greaterThan(60);
    });
  }

  it("a document tracking no annotations: its issue checks emitted on the first check, not with the schema, and once", () => {
    const schema = { type: "object", properties: { a: { enum: ["x", "y"] }, b: { type: "array", items: { const: 1 } } }, required: ["a"], additionalProperties: false };
    const index = new SchemaIndex({}, "2020-12");
    const emitted = emitCheck(index.add(schema), { index, assertFormats: false, tracking: false, pattern: (source) => new RegExp(source, "u") });
    expect(emitted.source).to.not.match(/function g\d/);
    let emits = 0;
    const code = compileCheck({ ...emitted, issues: () => (emits++, emitted.issues!()) });
    expect(emits).to.equal(0);
    const closures = compileSchema(schema, { mode: "closures" });
    for (const value of [{ a: "z", b: [1, 2], c: 0 }, { a: "x" }, {}, []]) {
      expect(code.is(value)).to.equal(closures.is(value));
      expect(code.check(value)).to.deep.equal(closures.check(value));
    }
    expect(emits).to.equal(1);
  });

  it("unevaluated*: the issue at the unevaluated property (its name escaped) or item, in code mode as in closures", () => {
    const schema = { allOf: [{ properties: { a: { type: "string" } } }], unevaluatedProperties: false, prefixItems: [{}], unevaluatedItems: { type: "integer" } };
    const code = compileSchema(schema, { mode: "code" });
    const closures = compileSchema(schema, { mode: "closures" });
    expect(code.mode).to.equal("code");
    for (const value of [{ a: "x", b: 1 }, { a: 1 }, ["x", "y", 2]]) expect(code.check(value)).to.deep.equal(closures.check(value));
    expect(code.check({ a: "x", "b/c": 1 })).to.deep.equal([{ path: "/b~1c", schemaPath: "#/unevaluatedProperties", keyword: "unevaluatedProperties", message: "must NOT have unevaluated properties" }]);
    expect(code.check(["x", "y"])).to.deep.equal([{ path: "/1", schemaPath: "#/unevaluatedItems/type", keyword: "type", message: "must be integer" }]);
  });
});
