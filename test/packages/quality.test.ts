/**
 * The published packages meet the ecosystem's bar, checked on the packed tarballs (`make pack`):
 * publint finds nothing, arethetypeswrong resolves every entry point with its types under node16
 * ESM and bundler (its esm-only profile), the public API matches its committed report
 * (packages/api-report.ts), each README's entry-point table lists exactly the `exports`, and the
 * manifests carry what a registry page and a bundler read.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { apiReports } from "../../packages/api-report.js";
import { packedPackages, type Packed } from "../support/packed.js";
import { ROOT } from "../support/project.js";
import { tarballManifest } from "../support/registry.js";

const PINNED = JSON.parse(readFileSync(join(ROOT, "spec", "pinned.json"), "utf8")) as { revisions: Record<string, unknown>; extensions?: Record<string, { folder: string }> };
/** The wildcard entries, expanded: attw checks only the subpaths it is given. */
const WILDCARDS = [...Object.keys(PINNED.revisions).map((r) => `./revisions/${r}`), ...Object.values(PINNED.extensions ?? {}).map(({ folder }) => `./${folder}`)];
/** Resolution kinds that an ESM-only package does not serve (attw's esm-only profile). */
const NOT_SERVED = new Set(["node10", "node16-cjs"]);

interface Problem {
  kind: string;
  entrypoint?: string;
  resolutionKind?: string;
}

function attw(tarball: string, entrypoints: readonly string[]): { status: number | null; problems: Problem[]; output: string } {
  const args = [tarball, "--profile", "esm-only", "--format", "json", ...(entrypoints.length ? ["--include-entrypoints", ...entrypoints] : [])];
  const run = spawnSync(join(ROOT, "node_modules", ".bin", "attw"), args, { encoding: "utf8", timeout: 120_000 });
  let report: { analysis: { problems?: Problem[] } };
  try {
    report = JSON.parse(run.stdout) as typeof report;
  } catch {
    throw new Error(`attw ${args.join(" ")} printed no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  }
  const problems = (report.analysis.problems ?? []).filter((p) => !p.resolutionKind || !NOT_SERVED.has(p.resolutionKind));
  return { status: run.status, problems, output: run.stderr };
}

/** The entry points a package README's table names: backticked `<name>` or `<name>/<subpath>` in a row's first cell, `<x>` read as `*`. */
function readmeEntries(readme: string, name: string): string[] {
  const entries: string[] = [];
  for (const [, cell] of readme.matchAll(/^\|\s*`([^`]+)`[^|]*\|/gm)) {
    if (cell !== name && !cell!.startsWith(`${name}/`)) continue;
    entries.push(`.${cell!.slice(name.length).replace(/<[^>]+>/g, "*")}`);
  }
  return entries;
}

describe("the published packages meet the ecosystem's bar", function () {
  this.timeout(300_000);
  let packed: Packed;
  before(() => (packed = packedPackages()));

  for (const which of ["runtime", "cli"] as const) {
    it(`publint finds nothing in the ${which} tarball (errors, warnings or suggestions)`, async () => {
      const tarball = readFileSync(packed[which]);
      const { messages, pkg } = await publint({ pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) }, strict: true, level: "suggestion" });
      expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg, { color: false })}`)).to.deep.equal([]);
    });

    it(`arethetypeswrong resolves every entry point of the ${which} tarball with its types (esm-only: node16 ESM and bundler)`, () => {
      const { status, problems, output } = attw(packed[which], which === "runtime" ? WILDCARDS : []);
      expect(problems, output).to.deep.equal([]);
      expect(status, output).to.equal(0);
    });

    it(`the ${which} README's entry-point table lists exactly the package's exports`, () => {
      const manifest = tarballManifest(packed[which]);
      const folder = which === "runtime" ? "runtime" : "mcp-codegen";
      const listed = readmeEntries(readFileSync(join(ROOT, "packages", folder, "README.md"), "utf8"), manifest.name);
      const exported = Object.keys(manifest.exports ?? {}).filter((entry) => entry !== "./package.json");
      expect([...listed].sort()).to.deep.equal([...exported].sort());
    });

    it(`the ${which} manifest carries repository, homepage, bugs, keywords, sideEffects, engines and license`, () => {
      const manifest = tarballManifest(packed[which]) as unknown as Record<string, unknown>;
      for (const field of ["repository", "homepage", "bugs", "keywords", "sideEffects", "engines", "license", "description"]) expect(manifest, field).to.have.property(field);
      expect((manifest.keywords as string[]).length).to.be.greaterThan(2);
    });
  }

  it("the runtime's manifest names its main types, and every export with code has types first", () => {
    const manifest = tarballManifest(packed.runtime) as unknown as { types?: string; exports: Record<string, string | Record<string, string>> };
    expect(manifest.types).to.equal((manifest.exports["."] as Record<string, string>).types);
    for (const [entry, target] of Object.entries(manifest.exports)) if (typeof target === "object") expect(Object.keys(target)[0], entry).to.equal("types");
  });

  it("the public API of every runtime entry point matches its committed report (packages/runtime/api/*.api.md)", () => {
    const results = apiReports(false);
    expect(results.map((r) => r.entry).sort()).to.deep.equal([".", "./auth", "./contract", "./http", "./otel", "./redis", "./support"]);
    for (const { entry, report, changed, errors } of results) {
      expect(errors, entry).to.deep.equal([]);
      expect(changed, `${entry}: the public API changed: diff ${report} ${changed}; if meant, run \`make api-report\`, commit the report and add a changeset`).to.equal(undefined);
    }
  });
});
