/**
 * runtime/server/schema-types.ts against the official JSON Schema Test Suite (draft2020-12 and
 * draft7, every required file; ../shared/json-schema-test-suite, MIT). For each group, a file
 * declares its schema `as const` and assigns every test datum to `FromSchema<typeof schema>`;
 * one tsc run compiles them all. Sound: no valid datum is refused (any refusal fails the test).
 * Coverage: the groups whose type is not `unknown`, printed with the share of invalid data the
 * types refuse, per file.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { removeDir, ROOT, tempDir } from "../../support/project.js";
import { STRICT_FLAGS, tscAsync } from "../../support/tsc.js";

const SUITE = join(ROOT, "..", "shared", "json-schema-test-suite", "tests");
const DRAFTS = { "draft2020-12": "https://json-schema.org/draft/2020-12/schema", draft7: "http://json-schema.org/draft-07/schema#" } as const;
/** The share of groups inferring more than `unknown` may not fall below this (docs/servers.md gives the figure). */
const MIN_TYPED_GROUPS = 0.54;

interface Group {
  readonly file: string;
  readonly description: string;
  readonly tests: readonly { description: string; data: unknown; valid: boolean }[];
  /** The line of the `unknown` probe; test i is on line `probe + 1 + i`. */
  readonly probe: number;
}

describe("runtime/server/schema-types on the JSON Schema Test Suite (one tsc run)", function () {
  this.timeout(600_000);
  let dir: string;
  const groups: Group[] = [];
  const errors = new Map<string, Map<number, string[]>>();
  let output = "";

  before(async () => {
    dir = tempDir("schema-types-suite");
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    const files: string[] = [];
    for (const [draft, dialect] of Object.entries(DRAFTS))
      for (const name of readdirSync(join(SUITE, draft)).filter((f) => f.endsWith(".json")).sort()) {
        const read = JSON.parse(readFileSync(join(SUITE, draft, name), "utf8")) as { description: string; schema: unknown; tests: Group["tests"] }[];
        for (const group of read) {
          // As a user declares a draft-07 tool schema: naming its dialect (2020-12 is the default).
          const schema = typeof group.schema === "object" && group.schema !== null && !("$schema" in group.schema) ? { $schema: dialect, ...group.schema } : group.schema;
          const lines = [
            `import type { FromSchema } from ${JSON.stringify(join(ROOT, "runtime", "server", "schema-types.js"))};`,
            `const schema = ${JSON.stringify(schema)} as const;`,
            `type T = FromSchema<typeof schema>;`,
            `export const known: [unknown] extends [T] ? "unknown" : "known" = "known";`,
            ...group.tests.map((test, i) => `export const t${i}: T = ${JSON.stringify(test.data)};`),
          ];
          const file = `g${groups.length}.ts`;
          groups.push({ file: `${draft}/${name}`, description: group.description, tests: group.tests, probe: 4 });
          writeFileSync(join(dir, file), `${lines.join("\n")}\n`);
          files.push(file);
        }
      }
    const run = await tscAsync([...STRICT_FLAGS, ...files], dir, 590_000);
    output = `${run.stdout}${run.stderr}`;
    for (const line of output.split("\n")) {
      const at = /^g(\d+)\.ts\((\d+),\d+\): error (.*)$/.exec(line);
      if (!at) continue;
      const byLine = errors.get(at[1]!) ?? new Map<number, string[]>();
      byLine.set(Number(at[2]), [...(byLine.get(Number(at[2])) ?? []), at[3]!]);
      errors.set(at[1]!, byLine);
    }
    const tally = new Map<string, { groups: number; typed: number; invalid: number; refused: number }>();
    groups.forEach((group, i) => {
      const row = tally.get(group.file) ?? { groups: 0, typed: 0, invalid: 0, refused: 0 };
      const at = errors.get(String(i));
      row.groups++;
      if (!at?.has(group.probe)) row.typed++;
      group.tests.forEach((test, t) => {
        if (test.valid) return;
        row.invalid++;
        if (at?.has(group.probe + 1 + t)) row.refused++;
      });
      tally.set(group.file, row);
    });
    const total = [...tally.values()].reduce((a, r) => ({ groups: a.groups + r.groups, typed: a.typed + r.typed, invalid: a.invalid + r.invalid, refused: a.refused + r.refused }));
    const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
    console.log([...tally].map(([file, r]) => `    ${file.padEnd(42)} typed ${String(r.typed).padStart(3)}/${String(r.groups).padEnd(3)} invalid data refused ${r.refused}/${r.invalid}`).join("\n"));
    console.log(`    groups typed (not unknown): ${total.typed} of ${total.groups} (${pct(total.typed, total.groups)}); invalid data refused by the type: ${total.refused} of ${total.invalid} (${pct(total.refused, total.invalid)})`);
  });
  after(() => removeDir(dir));

  it("compiles: tsc reports errors only where a datum or the probe is assigned", () => {
    const elsewhere = output.split("\n").filter((line) => line.includes("error TS")).filter((line) => {
      const at = /^g(\d+)\.ts\((\d+),/.exec(line);
      return !at || Number(at[2]) < groups[Number(at[1])]!.probe;
    });
    expect(elsewhere, output.slice(0, 4000)).to.deep.equal([]);
  });

  it("is sound: every valid datum of every group is assignable to the inferred type", () => {
    const refused = groups.flatMap((group, i) =>
      group.tests.flatMap((test, t) => {
        const messages = test.valid ? errors.get(String(i))?.get(group.probe + 1 + t) : undefined;
        return messages ? [`${group.file} "${group.description}" / "${test.description}" (g${i}.ts:${group.probe + 1 + t}): ${messages.join("; ")}`] : [];
      }),
    );
    expect(refused).to.deep.equal([]);
  });

  it(`infers a type other than unknown for at least ${MIN_TYPED_GROUPS * 100}% of the groups`, () => {
    const typed = groups.filter((group, i) => !errors.get(String(i))?.has(group.probe)).length;
    expect(typed / groups.length).to.be.at.least(MIN_TYPED_GROUPS);
  });
});
