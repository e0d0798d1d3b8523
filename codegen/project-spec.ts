import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { sha256, writeAtomically } from "./spec/files.js";
import { parseJson } from "./json.js";
import { findOutRecords, OUT_MANIFEST, readRecord } from "./out.js";

/**
 * A user's project's own schemas: `spec add` run in a project pins a revision there, in
 * mcp/spec/<rev>/schema.json with mcp/spec/pinned.json (each file's sha256 and where it came from),
 * never in the installed package. With the revisions generated into the project (`generate --out`,
 * their records), these are the revisions `diff` and `generate --out --revision` know beside the
 * package's pinned ones.
 */
export const PROJECT_SPEC = join("mcp", "spec");
const PINS = "pinned.json";

export interface ProjectPins {
  readonly revisions: Record<string, { readonly from: string; readonly files: Record<string, string> }>;
}

export function readProjectPins(project: string): ProjectPins {
  const path = join(project, PROJECT_SPEC, PINS);
  if (!existsSync(path)) return { revisions: {} };
  return parseJson(readFileSync(path, "utf8"), path) as ProjectPins;
}

/** The schema file of a revision the project pinned or generated, or undefined when it knows none. */
export function projectSchemaPath(project: string, revision: string): string | undefined {
  if (readProjectPins(project).revisions[revision]) return join(project, PROJECT_SPEC, revision, "schema.json");
  for (const record of findOutRecords(project)) {
    const schema = readRecord(join(record.dir, OUT_MANIFEST)).revisions[revision]?.schema;
    if (schema !== undefined) return resolve(record.dir, schema);
  }
  return undefined;
}

/** A project-pinned schema, checked against its sha256. */
export function readProjectSchema(project: string, revision: string): string | undefined {
  const path = projectSchemaPath(project, revision);
  if (path === undefined) return undefined;
  if (!existsSync(path)) throw new Error(`${relative(process.cwd(), path)}: missing, but this project names it as the schema of ${revision}`);
  const text = readFileSync(path, "utf8");
  const pinned = readProjectPins(project).revisions[revision]?.files["schema.json"];
  if (pinned !== undefined && sha256(text) !== pinned)
    throw new Error(`${relative(process.cwd(), path)} does not match ${join(PROJECT_SPEC, PINS)} (sha256 ${sha256(text)}, pinned ${pinned}): restore it, or pin it again with \`mcp-codegen spec add ${revision} --from <schema> --replace\``);
  return text;
}

/** Each problem of the project's pins: a schema missing, or not the one pinned (with the command that pins it again). */
export function verifyProjectPins(project: string): string[] {
  const problems: string[] = [];
  for (const [revision, entry] of Object.entries(readProjectPins(project).revisions))
    for (const [file, hash] of Object.entries(entry.files)) {
      const path = join(PROJECT_SPEC, revision, file);
      if (!existsSync(join(project, path))) problems.push(`${path}: missing (pinned in ${join(PROJECT_SPEC, PINS)}); restore it, or run \`mcp-codegen spec add ${revision} --from ${entry.from} --replace\``);
      else if (sha256(readFileSync(join(project, path))) !== hash)
        problems.push(`${path}: edited since it was pinned (its sha256 is not the one in ${join(PROJECT_SPEC, PINS)}); restore it, or pin it again: mcp-codegen spec add ${revision} --from <schema> --replace`);
    }
  return problems;
}

export interface ProjectAddReport {
  readonly path: string;
  readonly sha256: string;
  readonly unchanged: boolean;
}

/** `spec add` in a project: the schema into mcp/spec/<rev>/, its sha256 into mcp/spec/pinned.json. */
export function addProjectSpec(project: string, revision: string, from: string, text: string, replace: boolean): ProjectAddReport {
  const pins = readProjectPins(project);
  const hash = sha256(text);
  const path = join(project, PROJECT_SPEC, revision, "schema.json");
  const known = pins.revisions[revision];
  if (known && known.files["schema.json"] === hash && existsSync(path)) return { path, sha256: hash, unchanged: true };
  if (known && !replace) throw new Error(`${revision} is pinned in ${join(PROJECT_SPEC, PINS)} already, with another schema: give --replace to pin this one instead`);
  writeAtomically(path, text);
  const next: ProjectPins = { revisions: { ...pins.revisions, [revision]: { from, files: { "schema.json": hash } } } };
  writeAtomically(join(project, PROJECT_SPEC, PINS), `${JSON.stringify(next, null, 2)}\n`);
  return { path, sha256: hash, unchanged: false };
}
