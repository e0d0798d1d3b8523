// No hand-written file names a revision: what differs by revision comes from the generated
// registry (REVISIONS, ERAS, FEATURES) or the revision's module, so that a new revision is served
// by regenerating, not by editing the runtime. Read with the TypeScript parser: comments never count.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { expect } from "chai";
import ts from "typescript";
import { modulesUnder, root } from "../support/imports.js";

/** A date in a literal (a revision's name); a date-time (`2026-01-01T00:00:00Z`, a sample value) is no revision. */
const DATE = /\b\d{4}-\d{2}-\d{2}\b(?!T\d)/g;

/**
 * The files that may name revisions in their literals, each with the dates it may name and why.
 * Only prose for a person (usage examples, help) or the one declared feature table.
 */
export const ALLOWED: Readonly<Record<string, { readonly dates: readonly string[]; readonly why: string }>> = {
  "codegen/model/features.ts": {
    dates: ["2025-11-25"],
    why: "SSE priming (SEP-1699) is a transport rule no schema shows: declared once, citing the spec, and emitted into the registry",
  },
  "codegen/cli.ts": { dates: ["2025-11-25", "2026-07-28", "2026-12-01"], why: "usage examples in the CLI's error messages" },
  "codegen/scaffold/scaffold.ts": { dates: ["2026-07-28", "2026-12-01"], why: "the scaffolded README's example commands for a new revision" },
  "codegen/scaffold/manifest-schema.ts": { dates: ["2025-11-25"], why: "an example in the manifest schema's description" },
  "codegen/migrate/rewrite.ts": { dates: ["2024-11-05"], why: "the codemod's note on the SDK's deprecated HTTP+SSE transport, which only that revision defined" },
};

/** Every revision-shaped date in a string, template or regular-expression literal of `text`, as "path:line: date". */
export function revisionLiterals(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isRegularExpressionLiteral(node))
      for (const date of node.text.match(DATE) ?? []) found.push(`${path}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${date}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The literals naming a revision that {@link ALLOWED} does not allow. */
export function forbiddenRevisionLiterals(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const [path, text] of files)
    for (const hit of revisionLiterals(path, text)) if (!ALLOWED[path]?.dates.includes(hit.slice(hit.lastIndexOf(" ") + 1))) problems.push(hit);
  return problems;
}

function handWritten(): Map<string, string> {
  const files = new Map<string, string>();
  for (const tree of ["runtime", "codegen"]) for (const path of modulesUnder(`${root}/${tree}`)) files.set(relative(root, path), readFileSync(path, "utf8"));
  return files;
}

describe("architecture: no hand-written file names a revision", () => {
  const files = handWritten();

  it("no literal in runtime/ or codegen/ names a revision, outside the files listed with a reason", () => {
    expect(forbiddenRevisionLiterals(files)).to.deep.equal([]);
  });

  it("each allowed file exists and still names what it is allowed to (the list holds no stale entry)", () => {
    for (const [path, { dates }] of Object.entries(ALLOWED)) {
      const named = new Set(revisionLiterals(path, files.get(path) ?? "").map((hit) => hit.slice(hit.lastIndexOf(" ") + 1)));
      expect([...named].sort(), path).to.deep.equal([...dates].sort());
    }
  });

  it("the check catches what it is for", () => {
    const planted = new Map([
      // A decision by name, in a string, in a template and in a regular expression; a comment, and a date-time, do not count.
      ["runtime/server/server.ts", `// 2025-11-25 only\nconst a = revisions.includes("2025-11-25");\nconst b = \`since \${x} 2026-07-28\`;\nconst c = /^2024-11-05$/;\nconst d = "2026-01-01T00:00:00Z";\n`],
      // An allowed file naming a date it is not allowed to.
      ["codegen/cli.ts", `throw new UsageError("diff 2025-06-18 2026-07-28");\n`],
    ]);
    expect(forbiddenRevisionLiterals(planted)).to.deep.equal([
      "runtime/server/server.ts:2: 2025-11-25",
      "runtime/server/server.ts:3: 2026-07-28",
      "runtime/server/server.ts:4: 2024-11-05",
      "codegen/cli.ts:1: 2025-06-18",
    ]);
  });
});
