/**
 * The compiler's two renderers of the check IR (runtime/json-schema/compile.ts): generated code
 * (code.ts) and closures (render/closures.ts), on every datum of the JSON Schema Test Suite
 * (draft2020-12 and draft7, required and optional files, formats asserted in optional/format):
 * the same issues, word for word and in order (path, schemaPath, keyword, message), and each
 * mode's `describe` the same string as the closures' issues joined; `is` agrees
 * with `check` and, on required files, with the suite and with ajv wherever ajv agrees with the
 * suite (optional files hold what we leave out on purpose, such as 2020-12's `dependencies`).
 * Every document the IR compiles is generated in code mode: none is left to closures. The
 * closures run twice: with a template of the pool for every run it fits (cycling through the
 * pool: a template's verdicts do not depend on whose it was before), and with none.
 */
import { expect } from "chai";
import { compileSchema, type CompiledValidator } from "../../../runtime/json-schema/compile.js";
import { describeIssues, SchemaCompiler } from "../../../runtime/shared/json-schema.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { EVERY_RUN, handedOut, NO_RUN } from "../../support/closure-templates.js";
import { asToolSchema, suiteFiles, suiteGroups, suiteRemotes, type SuiteDraft } from "../../support/json-schema-suite.js";

const DIALECT = { "draft2020-12": "2020-12", draft7: "draft-07" } as const;

/** ajv's verdict; undefined where it refused the schema or threw (it overflows its stack on some of the suite's recursive schemas). */
function ajvVerdict(validate: ((value: unknown) => string | undefined) | undefined, value: unknown): boolean | undefined {
  try {
    return validate && validate(value) === undefined;
  } catch {
    return undefined;
  }
}

describe("json-schema: code mode and closures, the same issues on every datum of the JSON Schema Test Suite", function () {
  this.timeout(600_000);
  const remotes = suiteRemotes();

  for (const draft of ["draft2020-12", "draft7"] as const satisfies readonly SuiteDraft[]) {
    it(`${draft}: the same issues in both modes; on required files the suite's verdicts, and ajv's where it agrees with the suite`, async () => {
      handedOut.is = handedOut.check = handedOut.items = handedOut.checkItems = handedOut.gated = handedOut.checkGated = handedOut.entry = 0;
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
            let shared: CompiledValidator;
            try {
              code = compileSchema(schema, { dialect: DIALECT[draft], remotes, formats, mode: "code" });
              closures = compileSchema(schema, { dialect: DIALECT[draft], remotes, formats, mode: "closures", templates: EVERY_RUN });
              shared = compileSchema(schema, { dialect: DIALECT[draft], remotes, formats, mode: "closures", templates: NO_RUN });
            } catch {
              continue; // refusals are json-schema-suite.test.ts's to judge
            }
            if (code.mode === "code") {
              generated++;
              if (JSON.stringify(schema).includes('"unevaluated')) unevaluated++;
            } else inClosures.push(where);
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
              const withoutTemplates = shared.check(test.data);
              if (JSON.stringify(withoutTemplates) !== JSON.stringify(expected)) problems.push(`${at}:\n  closures, no templates: ${JSON.stringify(withoutTemplates)}\n  closures: ${JSON.stringify(expected)}`);
              // What a tool's caller reads: each mode's one-pass string, the closures' issues joined.
              for (const [name, validator] of [["code", code], ["closures", closures], ["closures, no templates", shared]] as const) {
                const described = validator.describe(test.data);
                if (described !== describeIssues(expected)) problems.push(`${at}:\n  ${name}' describe: ${JSON.stringify(described)}\n  closures joined: ${JSON.stringify(describeIssues(expected))}`);
                if (validator.is(test.data) !== (expected.length === 0)) problems.push(`${at}: ${name}' is says ${validator.is(test.data)}, closures found ${expected.length} issue(s)`);
                // A tool call's check: is, then describe, in one call (the closures' memos last both).
                const validated = validator.validate(test.data);
                if (validated !== (expected.length === 0 ? undefined : describeIssues(expected))) problems.push(`${at}:\n  ${name}' validate: ${JSON.stringify(validated)}\n  closures joined: ${JSON.stringify(describeIssues(expected))}`);
              }
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
      expect(inClosures, "compiled in closures though code mode was asked for").to.deep.equal([]);
      expect(Math.min(handedOut.is, handedOut.check), "runs read by a template").to.be.greaterThan(40);
      expect(Math.min(handedOut.items, handedOut.checkItems), "item loops in a template").to.be.greaterThan(5);
      expect(Math.min(handedOut.gated, handedOut.checkGated), "guards and conditions in a template").to.be.greaterThan(50);
      expect(handedOut.entry, "validators whose entry is a template").to.be.greaterThan(200);
      expect(generated, "groups in code mode").to.be.greaterThan(draft === "draft7" ? 300 : 440);
      if (draft === "draft2020-12") expect(unevaluated, "groups with unevaluated* in code mode").to.be.greaterThan(60);
    });
  }

  it("unevaluated*: the issue at the unevaluated property (its name escaped) or item, in code mode as in closures", () => {
    const schema = { allOf: [{ properties: { a: { type: "string" } } }], unevaluatedProperties: false, prefixItems: [{}], unevaluatedItems: { type: "integer" } };
    const code = compileSchema(schema, { mode: "code" });
    const closures = compileSchema(schema, { mode: "closures" });
    expect([code.mode, closures.mode]).to.deep.equal(["code", "closures"]);
    for (const value of [{ a: "x", b: 1 }, { a: 1 }, ["x", "y", 2]]) expect(code.check(value)).to.deep.equal(closures.check(value));
    for (const engine of [code, closures]) {
      expect(engine.check({ a: "x", "b/c": 1 })).to.deep.equal([{ path: "/b~1c", schemaPath: "#/unevaluatedProperties", keyword: "unevaluatedProperties", message: "must NOT have unevaluated properties" }]);
      expect(engine.check(["x", "y"])).to.deep.equal([{ path: "/1", schemaPath: "#/unevaluatedItems/type", keyword: "type", message: "must be integer, found string" }]);
    }
  });

  it("an issue inside a sub-schema applied to a part of the value is at that part: prefixItems, items after them, patternProperties, dependentSchemas, then and else", () => {
    const schema = {
      type: "object",
      properties: { t: { prefixItems: [{ type: "string" }, { type: "integer" }], items: { type: "boolean" } } },
      patternProperties: { "^x-": { type: "number" } },
      dependentSchemas: { a: { required: ["b"] } },
      if: { required: ["k"] },
      then: { properties: { k: { const: 1 } } },
      else: { properties: { z: { type: "null" } } },
    };
    for (const mode of ["code", "closures"] as const) {
      const engine = compileSchema(schema, { mode });
      expect(engine.mode).to.equal(mode);
      expect(engine.check({ t: [1, "a", "no"], "x-y": "s", a: 1, k: 2 }).map((i) => [i.path, i.schemaPath])).to.deep.equal([
        ["/t/0", "#/properties/t/prefixItems/0/type"],
        ["/t/1", "#/properties/t/prefixItems/1/type"],
        ["/t/2", "#/properties/t/items/type"],
        ["/x-y", "#/patternProperties/^x-/type"],
        ["", "#/dependentSchemas/a/required"],
        ["/k", "#/then/properties/k/const"],
      ]);
      expect(engine.check({ z: 1 }).map((i) => [i.path, i.schemaPath])).to.deep.equal([["/z", "#/else/properties/z/type"]]);
      expect(engine.is({ t: ["a", 1, true], "x-y": 1, a: 1, b: 2, k: 1 })).to.equal(true);
    }
  });

  it("oneOf that no branch passes: each branch's issues, then its own", () => {
    const schema = { properties: { r: { oneOf: [{ const: "dynamic" }, { type: "array", items: { type: "string" } }] } } };
    for (const mode of ["code", "closures"] as const)
      expect(compileSchema(schema, { mode }).check({ r: [1] }).map((i) => [i.path, i.keyword])).to.deep.equal([
        ["/r", "const"],
        ["/r/0", "type"],
        ["/r", "oneOf"],
      ]);
  });

  it("a $schema naming neither dialect nor a supplied meta-schema reads as 2020-12 at run time (generate --tools refuses it)", () => {
    for (const mode of ["code", "closures"] as const) {
      const engine = compileSchema({ $schema: "http://json-schema.org/draft-04/schema#", prefixItems: [{ type: "string" }] }, { mode });
      expect([engine.is(["a"]), engine.is([1])]).to.deep.equal([true, false]);
    }
  });

  it("the schema false is reported as itself, at its place", () => {
    for (const mode of ["code", "closures"] as const)
      expect(compileSchema({ properties: { a: false } }, { mode }).check({ a: 1 })).to.deep.equal([{ path: "/a", schemaPath: "#/properties/a", keyword: "false schema", message: "boolean schema is false" }]);
  });
});
