/**
 * The generated validators (codegen/emit/validators.ts) against ajv, the oracle (issue 3):
 * the spec's examples, then property-based differential tests over every definition of every
 * revision, with instances derived from the model (test/support/arbitraries.ts) and the same
 * schema compiled by ajv (test/support/oracle.ts).
 *
 * On every value, valid or mutated: our verdict equals ajv's, `isX(v) === (checkX(v).length === 0)`,
 * and every issue's path resolves to a location that exists in the value.
 *
 * Reproducing a failure: the seed is fixed and printed; fast-check prints the seed and path of
 * the counterexample. MCP_FC_SEED=<seed> changes the seed; MCP_FC_ONLY=<revision>/<Definition>
 * runs one definition, and MCP_FC_PATH=<path> (with MCP_FC_ONLY) replays a counterexample.
 * MCP_FC_RUNS=<n> changes the number of valid instances per definition (at least 200 in CI).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "chai";
import fc from "fast-check";
import type { ValidateFunction } from "ajv";
import { emitRevision } from "../../../codegen/pipeline.js";
import { GenerationError } from "../../../codegen/errors.js";
import type { ExtensionModule } from "../../../runtime/contract.js";
import type { RequestMethod } from "../../../codegen/model/protocol.js";
import { readPinned } from "../../../codegen/spec/pinned.js";
import { PROTOCOLS } from "../../../generated/index.js";
import { isByte, isUri, isUriTemplate, type ValidationIssue, type Validator } from "../../../runtime/support/validation.js";
import { applyMutation, SchemaArbitraries, type Generated, type Mutation, type MutationKind } from "../../support/arbitraries.js";
import { createAjv, oracleFor } from "../../support/oracle.js";
import { rawSchema, REVISIONS, ROOT, schemaText, type Json } from "../../support/project.js";

const SEED = process.env.MCP_FC_SEED !== undefined ? Number(process.env.MCP_FC_SEED) : 20250611;
const RUNS = process.env.MCP_FC_RUNS !== undefined ? Number(process.env.MCP_FC_RUNS) : 200;
/** Mutations tried on each valid instance, picked by fast-check among all its mutations. */
const MUTATIONS_PER_INSTANCE = 6;
const ONLY = process.env.MCP_FC_ONLY;
const REPLAY_PATH = ONLY !== undefined ? process.env.MCP_FC_PATH : undefined;

function validatorsOf(revision: string): Readonly<Record<string, Validator>> {
  return PROTOCOLS[revision as keyof typeof PROTOCOLS].validators as Readonly<Record<string, Validator>>;
}

/** Resolves a JSON Pointer (RFC 6901, string form) against a value; false when a token does not exist. */
function pointerExists(value: unknown, pointer: string): boolean {
  if (pointer === "") return true;
  if (!pointer.startsWith("/")) return false;
  let node: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= node.length) return false;
      node = node[Number(token)];
    } else if (typeof node === "object" && node !== null) {
      if (!Object.prototype.hasOwnProperty.call(node, token)) return false;
      node = (node as Record<string, unknown>)[token];
    } else return false;
  }
  return true;
}

/**
 * Runs ours and ajv on one value. Returns a description of the disagreement, or undefined.
 * `expected` is what the value must be (valid instance, provably invalid mutation), if known.
 */
function judge(
  ours: Validator,
  ajv: ValidateFunction,
  value: unknown,
  expected: boolean | undefined,
  document: Readonly<Record<string, unknown>>,
): { verdict: boolean; problem?: string } {
  const oracle = ajv(value) as boolean;
  const errors = ajv.errors;
  const is = ours.is(value);
  let issues: ValidationIssue[];
  try {
    issues = ours.check(value);
  } catch (error) {
    return { verdict: oracle, problem: `checkX threw: ${(error as Error).stack}` };
  }
  const detail = () => `\n  ajv errors: ${JSON.stringify(errors)}\n  our issues: ${JSON.stringify(issues)}`;
  if (expected !== undefined && oracle !== expected)
    return { verdict: oracle, problem: `the test's own expectation is wrong: ajv says ${oracle ? "valid" : "invalid"}, the generator meant ${expected ? "valid" : "invalid"}${detail()}` };
  if (is !== oracle) return { verdict: oracle, problem: `isX says ${is}, ajv says ${oracle}${detail()}` };
  if (is !== (issues.length === 0)) return { verdict: oracle, problem: `isX says ${is} but checkX found ${issues.length} issue(s)${detail()}` };
  for (const issue of issues) {
    if (typeof issue.path !== "string" || !pointerExists(value, issue.path))
      return { verdict: oracle, problem: `issue path ${JSON.stringify(issue.path)} does not exist in the value${detail()}` };
    if (typeof issue.keyword !== "string" || typeof issue.message !== "string" || issue.message === "")
      return { verdict: oracle, problem: `malformed issue ${JSON.stringify(issue)}` };
    // schemaPath names the keyword that failed, at a place that exists in the schema document.
    const schemaPath = typeof issue.schemaPath === "string" && issue.schemaPath.startsWith("#/") ? issue.schemaPath.slice(1) : undefined;
    if (schemaPath === undefined || !pointerExists(document, schemaPath) || !schemaPath.endsWith(`/${issue.keyword}`))
      return { verdict: oracle, problem: `issue schemaPath ${JSON.stringify(issue.schemaPath)} is not the keyword "${issue.keyword}" in the schema${detail()}` };
  }
  return { verdict: oracle };
}

interface Tally {
  instances: number;
  mutated: number;
  certain: number;
  invalid: number;
  kinds: Map<MutationKind, number>;
}

/**
 * The differential property of one definition: a valid instance and some of its mutations.
 * Throws (and so fails fast-check's run) on the first disagreement, naming revision and definition.
 */
function differential(revision: string, definition: string, ours: Validator, ajv: ValidateFunction, arbitrary: fc.Arbitrary<Generated>, tally: Tally) {
  return fc.property(arbitrary, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: MUTATIONS_PER_INSTANCE, maxLength: MUTATIONS_PER_INSTANCE }), (generated, picks) => {
    const fail = (what: string, value: unknown, problem: string) => {
      throw new Error(`${revision} ${definition}, ${what}: ${problem}\n  value: ${JSON.stringify(value)}`);
    };
    tally.instances++;
    const { document } = oracleFor(revision);
    const valid = judge(ours, ajv, generated.value, true, document);
    if (valid.problem) fail("valid instance", generated.value, valid.problem);
    // Pick a kind first, then a mutation of that kind: type changes, the most numerous, do not crowd out the rest.
    const byKind = new Map<MutationKind, Mutation[]>();
    for (const m of generated.mutations) {
      const list = byKind.get(m.kind);
      if (list) list.push(m);
      else byKind.set(m.kind, [m]);
    }
    const kinds = [...byKind.values()];
    if (kinds.length === 0) return;
    for (const [kindPick, pick] of picks) {
      const ofKind = kinds[kindPick % kinds.length]!;
      const mutation = ofKind[pick % ofKind.length]!;
      const value = applyMutation(generated.value, mutation);
      const result = judge(ours, ajv, value, mutation.certain ? false : undefined, document);
      const where = `mutation "${mutation.kind}" at /${mutation.path.join("/")}${mutation.drop !== undefined ? ` (dropped ${JSON.stringify(mutation.drop)})` : ""}`;
      if (result.problem) fail(where, value, result.problem);
      tally.mutated++;
      if (mutation.certain) tally.certain++;
      if (!result.verdict) tally.invalid++;
      tally.kinds.set(mutation.kind, (tally.kinds.get(mutation.kind) ?? 0) + 1);
    }
  });
}

/** Every definition in `names`, valid and mutated, judged against ajv; `sameNames`: the validators are exactly these. */
function differentialOfAll(revision: string, validators: Readonly<Record<string, Validator>>, names: readonly string[], sameNames = true): void {
  const oracle = oracleFor(revision);
  const arbitraries = new SchemaArbitraries(oracle.protocol);
  if (sameNames) expect(Object.keys(validators).sort()).to.deep.equal([...names].sort());

  const tally: Tally = { instances: 0, mutated: 0, certain: 0, invalid: 0, kinds: new Map() };
  const failures: string[] = [];
  for (const definition of names) {
    if (ONLY !== undefined && ONLY !== `${revision}/${definition}`) continue;
    const before = tally.instances;
    const property = differential(revision, definition, validators[definition]!, oracle.validator(definition), arbitraries.definition(definition), tally);
    try {
      fc.assert(property, { seed: SEED, numRuns: RUNS, includeErrorInReport: true, ...(REPLAY_PATH !== undefined ? { path: REPLAY_PATH } : {}) });
    } catch (error) {
      failures.push(`${revision} ${definition} (replay: MCP_FC_ONLY=${revision}/${definition} MCP_FC_SEED=${SEED} MCP_FC_PATH=<path below>)\n${(error as Error).message}`);
      continue;
    }
    if (REPLAY_PATH === undefined) expect(tally.instances - before, `${definition}: valid instances`).to.be.at.least(RUNS);
  }
  expect(failures.length, `${failures.length} definition(s) disagree with ajv:\n\n${failures.join("\n\n")}`).to.equal(0);

  if (ONLY === undefined) {
    // The mutation engine is not vacuous: every kind the schemas allow was tried, and most
    // mutations were provably invalid (and ajv agreed, or the property above would have failed).
    const missing = [...arbitraries.possibleKinds()].filter((kind) => !tally.kinds.has(kind));
    expect(missing, "mutation kinds never tried").to.deep.equal([]);
    expect(tally.certain / tally.mutated).to.be.greaterThan(0.5);
    console.log(
      `      ${revision}: ${names.length} definitions, ${tally.instances} valid instances, ${tally.mutated} mutants ` +
        `(${tally.certain} provably invalid, ${tally.invalid} invalid); kinds: ` +
        [...tally.kinds].map(([kind, n]) => `${kind} ${n}`).join(", "),
    );
  }
}

/** The pinned extensions: their folders under spec/ and generated/. */
const EXTENSIONS = Object.entries(readPinned(ROOT).extensions ?? {}).map(([id, entry]) => ({ id, folder: entry.folder }));

/** A generated extension's validators, from its module.ts (generated/<folder>/module.ts). */
async function extensionValidators(folder: string): Promise<Readonly<Record<string, Validator>>> {
  const module = (await import(pathToFileURL(join(ROOT, "generated", folder, "module.ts")).href)) as { extensionModule: ExtensionModule };
  return module.extensionModule.validators;
}

describe("codegen/emit/validators: the generated validators agree with ajv", function () {
  describe("the 129 example messages of 2026-07-28", () => {
    it("are valid for their definition, by isX, checkX and ajv", () => {
      const revision = "2026-07-28";
      const root = join(ROOT, "spec", revision, "examples");
      const validators = validatorsOf(revision);
      const oracle = oracleFor(revision);
      const problems: string[] = [];
      let count = 0;
      for (const definition of readdirSync(root).sort()) {
        for (const file of readdirSync(join(root, definition)).filter((f) => f.endsWith(".json")).sort()) {
          count++;
          const value = JSON.parse(readFileSync(join(root, definition, file), "utf8")) as Json;
          const ours = validators[definition];
          if (!ours) {
            problems.push(`${definition}/${file}: no validator for ${definition}`);
            continue;
          }
          const { problem } = judge(ours, oracle.validator(definition), value, true, oracle.document);
          if (problem) problems.push(`${definition}/${file}: ${problem}`);
        }
      }
      expect(problems, problems.join("\n")).to.deep.equal([]);
      expect(count).to.equal(129);
    });
  });

  describe("the extensions' example messages (the JSON blocks of their specification, e.g. tasks.md)", () => {
    for (const { folder, id } of EXTENSIONS) {
      it(`${folder} (${id}): every request, notification and result is valid for its definition, by isX, checkX and ajv`, async () => {
        const oracle = oracleFor(folder);
        const validators = await extensionValidators(folder);
        const methods = oracle.protocol.extension ? [...oracle.protocol.requests, ...oracle.protocol.notifications] : [];
        const specification = readdirSync(join(ROOT, "spec", folder)).find((file) => file.endsWith(".md"));
        expect(specification, `a specification beside spec/${folder}/schema.json`).to.be.a("string");
        const blocks = [...readFileSync(join(ROOT, "spec", folder, specification!), "utf8").matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, Json>);
        const problems: string[] = [];
        const judged: string[] = [];
        let lastRequest: RequestMethod | undefined;
        for (const [index, message] of blocks.entries()) {
          let definition: string | undefined;
          let value: Json | undefined = message;
          if (typeof message.method === "string") {
            const method = methods.find((m) => m.method === message.method);
            lastRequest = method?.kind === "request" ? method : undefined;
            definition = method ? (method.kind === "request" ? method.request : method.notification) : undefined;
          } else if (message.result !== undefined) {
            // A response answers the request before it; a task handle (resultType "task") answers a core request the task augments.
            const result = message.result as Record<string, Json>;
            value = result;
            definition = result.resultType === "task" ? "CreateTaskResult" : "taskId" in result ? "GetTaskResult" : lastRequest?.results[0];
          }
          if (definition === undefined || value === undefined) continue;
          judged.push(definition);
          const { problem } = judge(validators[definition]!, oracle.validator(definition), value, true, oracle.document);
          if (problem) problems.push(`block ${index + 1} (${definition}): ${problem}`);
        }
        expect(problems, problems.join("\n")).to.deep.equal([]);
        // Most blocks are the extension's messages (the rest: core requests, errors), and both kinds are among them.
        expect(judged.length).to.be.greaterThan(blocks.length / 2);
        expect(methods.some((m) => m.kind === "request" && judged.includes(m.request))).to.equal(true);
        expect(methods.some((m) => m.kind === "notification" && judged.includes(m.notification))).to.equal(true);
        console.log(`      ${folder}: ${judged.length} example messages of ${specification} judged`);
      });
    }
  });

  describe(`property-based, ${RUNS} valid instances per definition and ${MUTATIONS_PER_INSTANCE} mutations of each (fast-check seed ${SEED}; override with MCP_FC_SEED)`, () => {
    for (const revision of REVISIONS) {
      if (ONLY !== undefined && !ONLY.startsWith(`${revision}/`)) continue;
      it(`${revision}: every definition, valid and mutated, same verdict as ajv`, function () {
        this.timeout(600_000);
        const oracle = oracleFor(revision);
        // The model's definitions, lifted params included, are exactly the generated validators.
        differentialOfAll(revision, validatorsOf(revision), [...oracle.protocol.definitions.keys()]);
      });
    }
    for (const { folder, id } of EXTENSIONS) {
      if (ONLY !== undefined && !ONLY.startsWith(`${folder}/`)) continue;
      it(`${folder} (${id}): every definition of its own, valid and mutated, same verdict as ajv on the extension's schema`, async function () {
        this.timeout(600_000);
        const oracle = oracleFor(folder);
        const validators = await extensionValidators(folder);
        // Every definition of the extension's schema has a validator; those it restates are the core revision's, proven there.
        expect(Object.keys(validators).sort()).to.deep.equal([...oracle.protocol.definitions.keys()].sort());
        const own = [...oracle.protocol.definitions.keys()].filter((name) => !oracle.protocol.extension!.imported.has(name));
        expect(own.length).to.be.greaterThan(0);
        differentialOfAll(folder, validators, own, false);
      });
    }
  });

  describe("formats: runtime/support/validation.ts decides exactly as ajv-formats (byte anchored) on strings made to hit the edges", () => {
    const soup = (tokens: readonly string[]) =>
      fc.oneof(fc.array(fc.constantFrom(...tokens), { maxLength: 14 }).map((parts) => parts.join("")), fc.string({ maxLength: 16 }));
    const cases = [
      {
        format: "byte",
        ours: isByte,
        strings: soup(["A", "z", "0", "9", "+", "/", "=", "==", "===", "AAAA", "QUJD", "AB==", "ABC=", "\n", " ", "!", "-", "_", "\u00e9", "\u0000", "\r\n"]),
      },
      {
        // Long enough for isByte to decode rather than scan: valid base64 with the same soup spliced in.
        format: "byte",
        ours: isByte,
        strings: fc
          .tuple(fc.uint8Array({ minLength: 96, maxLength: 600 }), soup(["A", "=", "==", "AB==", "\n", " ", "\t", "\f", "\r\n", "!", "-", "_", "\u00e9", "\u0100", "\ud800"]), fc.nat(), fc.boolean())
          .map(([bytes, splice, at, replace]) => {
            const valid = Buffer.from(bytes).toString("base64");
            const i = at % (valid.length + 1);
            return valid.slice(0, i) + splice + valid.slice(replace ? i + splice.length : i);
          }),
      },
      {
        format: "uri",
        ours: isUri,
        strings: fc.oneof(
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
          // Only characters some part of a URI allows: what tells the parts apart is their order.
          fc.tuple(fc.constantFrom("http://", "HTTPS://", "file:///", "urn:", "a:", "s+v.x-1://", ""), soup(["a", "Z", "1", "-", ".", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+",
            ",", ";", "=", ":", "@", "/", "?", "#", "%41", "%e9", "[::1]", "[v1.x]", "127.0.0.1", ":8080", "example.com", "//"])).map(([scheme, rest]) => scheme + rest),
          fc.tuple(fc.constantFrom("http://", "HTTPS://", "file:///", "urn:", "a:", ""), soup(["http", "a", "1", ":", "//", "/", "?", "#", "@", "[", "]", "[::1]", "256.1.1.1",
            "%", "%4", "%zz", " ", "\u00e9", "example.com", "\"", "<", "{", "}", "|", "\\", "^", "`"])).map(([scheme, rest]) => scheme + rest),
        ),
      },
      {
        format: "uri-template",
        ours: isUriTemplate,
        strings: soup(["{", "}", "{+", "{#", "{.", "{/", "{;", "{?", "{&", "var", "x_1", ",", ":3", ":0", ":10000", "*", "/", "?", "%", "%41", "%g1", " ", "<", "'", "http://x/", "{x}", "{/p*}", "{?q,r}", "\u00e9"]),
      },
    ] as const;
    for (const [index, { format, ours, strings }] of cases.entries()) {
      it(`${format}${cases.findIndex((c) => c.format === format) === index ? "" : " (long strings)"}`, () => {
        const ajv = createAjv("2020-12").compile({ type: "string", format });
        fc.assert(
          fc.property(strings, (value) => {
            if (ours(value) !== ajv(value)) throw new Error(`format ${format}: ours says ${ours(value)}, ajv-formats says ${ajv(value)} for ${JSON.stringify(value)}`);
          }),
          { seed: SEED, numRuns: 20_000, includeErrorInReport: true },
        );
      });
    }
  });

  describe("the harness catches a wrong validator", () => {
    it("reports revision, definition, value, seed and path", () => {
      const revision = "2025-11-25";
      const oracle = oracleFor(revision);
      const real = validatorsOf(revision).CallToolRequest!;
      // A validator that forgets the required params.name: what a skipped keyword would look like.
      const withName = (value: unknown): unknown => {
        const params = (value as { params?: unknown } | null)?.params;
        return typeof params === "object" && params !== null && !Array.isArray(params) && !("name" in params) ? { ...(value as object), params: { ...params, name: "x" } } : value;
      };
      const broken: Validator = {
        is: (value): value is unknown => real.is(withName(value)),
        check: (value) => real.check(withName(value)),
      };
      const tally: Tally = { instances: 0, mutated: 0, certain: 0, invalid: 0, kinds: new Map() };
      const property = differential(revision, "CallToolRequest", broken, oracle.validator("CallToolRequest"), new SchemaArbitraries(oracle.protocol).definition("CallToolRequest"), tally);
      let message = "";
      try {
        fc.assert(property, { seed: SEED, numRuns: 500, includeErrorInReport: true });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).to.contain("2025-11-25 CallToolRequest").and.to.contain(`seed: ${SEED}`).and.to.contain("path:");
      expect(message).to.match(/isX says true, ajv says false/).and.to.contain("value: {");
    });
  });

  describe("unsupported keywords", () => {
    it("a keyword the compiler does not support fails generation, naming the revision and the pointer", async () => {
      const revision = "2026-07-28";
      const document = JSON.parse(schemaText(revision)) as { $defs: Record<string, { properties: Record<string, Record<string, unknown>> }> };
      document.$defs.Tool!.properties.name!.pattern = "^[A-Za-z0-9_.-]{1,128}$";
      let caught: unknown;
      try {
        await emitRevision(revision, JSON.stringify(document));
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(GenerationError);
      expect((caught as GenerationError).message).to.equal(`${revision} #/$defs/Tool/properties/name/pattern: unsupported keyword "pattern"`);
    });
  });
});

describe("codegen/emit/validators: validators.ts takes the start-up validators from startup.ts", () => {
  for (const revision of REVISIONS)
    it(`${revision}: the very functions startup.ts defines, none printed twice, and a record of every definition`, async () => {
      const dir = pathToFileURL(join(ROOT, "generated", revision)).href;
      const startup = (await import(`${dir}/startup.js`)) as { validators: Record<string, Validator> };
      const all = (await import(`${dir}/validators.js`)) as { validators: Record<string, Validator> } & Record<string, unknown>;
      const names = Object.keys(startup.validators);
      expect(names.filter((name) => name === "InitializeRequest" || name === "DiscoverRequest")).to.have.length(1);
      for (const name of names) {
        expect(all.validators[name]!.is, name).to.equal(startup.validators[name]!.is);
        expect(all.validators[name]!.check, name).to.equal(startup.validators[name]!.check);
        expect(all[`is${name}`], name).to.equal(startup.validators[name]!.is);
      }
      const source = readFileSync(join(ROOT, "generated", revision, "validators.ts"), "utf8");
      expect(names.filter((name) => new RegExp(`function (is|check)${name}\\(`).test(source))).to.deep.equal([]);
      expect(Object.keys(all.validators)).to.include.members(Object.keys(rawSchema(revision).definitions));
    });
});
