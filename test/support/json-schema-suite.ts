/**
 * The official JSON Schema Test Suite (../shared/json-schema-test-suite, MIT, see its SOURCE.md):
 * its files, groups and tests, read as a validator under test needs them, and the rule for which
 * refusals are allowed (a reference to a document the schema does not contain: a remote the user
 * did not supply).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./project.js";

export const SUITE = join(ROOT, "..", "shared", "json-schema-test-suite");

export type SuiteDraft = "draft2020-12" | "draft7";

export interface SuiteTest {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
}

export interface SuiteGroup {
  readonly file: string;
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly SuiteTest[];
}

const DRAFT07 = "http://json-schema.org/draft-07/schema#";
const DRAFT2020 = "https://json-schema.org/draft/2020-12/schema";

/** The suite's remotes/ documents, by the URI its tests name them with (http://localhost:1234/...): what a user would supply. */
export function suiteRemotes(): Record<string, unknown> {
  const remotes: Record<string, unknown> = {};
  const walk = (dir: string, prefix: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name), `${prefix}${e.name}/`);
      else if (e.name.endsWith(".json")) remotes[`http://localhost:1234/${prefix}${e.name}`] = JSON.parse(readFileSync(join(dir, e.name), "utf8"));
    }
  };
  walk(join(SUITE, "remotes"), "");
  return remotes;
}

/** The suite's files of `draft`: required ones (`tests/<draft>/*.json`) or `optional/` ones (formats included). */
export function suiteFiles(draft: SuiteDraft, optional = false): string[] {
  const dir = join(SUITE, "tests", draft, ...(optional ? ["optional"] : []));
  if (!existsSync(dir)) return [];
  // Required files are those directly in the draft's folder; optional/ has subfolders (format/).
  const walk = (d: string, prefix: string): string[] =>
    readdirSync(d, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((e) => (e.isDirectory() ? (optional ? walk(join(d, e.name), `${prefix}${e.name}/`) : []) : e.name.endsWith(".json") ? [`${prefix}${e.name}`] : []));
  return walk(dir, optional ? "optional/" : "");
}

export function suiteGroups(draft: SuiteDraft, file: string): SuiteGroup[] {
  const groups = JSON.parse(readFileSync(join(SUITE, "tests", draft, file), "utf8")) as { description: string; schema: unknown; tests: SuiteTest[] }[];
  return groups.map((g) => ({ file, ...g }));
}

/**
 * The group's schema as a user gives it to a tool: a JSON object (a boolean root becomes
 * `{ allOf: [<boolean>] }`, which means the same) that names its dialect (the draft-07 suite's
 * schemas rely on the validator's default dialect; a tool schema says `$schema`, since ours is
 * 2020-12).
 */
export function asToolSchema(draft: SuiteDraft, schema: unknown): Record<string, unknown> {
  const object = typeof schema === "boolean" ? { allOf: [schema] } : (schema as Record<string, unknown>);
  return object.$schema !== undefined ? object : { $schema: draft === "draft7" ? DRAFT07 : DRAFT2020, ...object };
}

/**
 * True when the schema refers to a document it does not contain: a `$ref` (or `$dynamicRef`)
 * whose absolute URI, resolved against the `$id`s around it, is neither the root's nor one of its
 * `$id`s. Refusing such a schema is allowed (no remote is fetched, and the suite supplies none here).
 */
export function refersOutside(schema: unknown): boolean {
  const root = "https://root.invalid/schema.json";
  const ids = new Set<string>([root]);
  const refs: string[] = [];
  const visit = (node: unknown, base: string, inSchema: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, base, inSchema));
    if (typeof node !== "object" || node === null) return;
    const object = node as Record<string, unknown>;
    let here = base;
    if (inSchema && typeof object.$id === "string") {
      here = strip(new URL(object.$id, base).href);
      ids.add(here);
    }
    for (const [key, value] of Object.entries(object)) {
      if (inSchema && (key === "$ref" || key === "$dynamicRef") && typeof value === "string") refs.push(strip(new URL(value, here).href));
      // `enum`, `const`, `examples` and `default` hold data, not schemas: a `$ref` or `$id` there is a plain value.
      else visit(value, here, inSchema && !["enum", "const", "examples", "default"].includes(key));
    }
  };
  visit(schema, root, true);
  return refs.some((ref) => !ids.has(ref));
}

function strip(uri: string): string {
  const hash = uri.indexOf("#");
  return hash === -1 ? uri : uri.slice(0, hash);
}

/** A per-file table: groups passed / failed / refused, for each way of validating. */
export function suiteTable(rows: readonly { file: string; counts: readonly { passed: number; failed: number; refused: number }[] }[], columns: readonly string[]): string {
  const width = Math.max(...rows.map((r) => r.file.length), 4);
  const cell = (c: { passed: number; failed: number; refused: number }) => `${c.passed}/${c.failed}/${c.refused}`.padStart(12);
  const lines = [`${"file".padEnd(width)} ${columns.map((c) => c.padStart(12)).join(" ")}`, `${"".padEnd(width)} ${columns.map(() => "pass/fail/ref".padStart(12)).join(" ")}`];
  for (const row of rows) lines.push(`${row.file.padEnd(width)} ${row.counts.map(cell).join(" ")}`);
  const total = columns.map((_, i) => rows.reduce((t, r) => ({ passed: t.passed + r.counts[i]!.passed, failed: t.failed + r.counts[i]!.failed, refused: t.refused + r.counts[i]!.refused }), { passed: 0, failed: 0, refused: 0 }));
  lines.push(`${"total".padEnd(width)} ${total.map(cell).join(" ")}`);
  return lines.join("\n");
}
