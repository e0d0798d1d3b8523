/**
 * The two packed packages (`make pack`) for the tests that install them: pack/*.tgz, reused when
 * newer than everything they are made from (sources, dist/ and packages/), else made again by `make pack`.
 * Also npm run in a project against a registry, and the project's installed packages.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runChild, type CliRun } from "./project.js";

export interface Packed {
  readonly version: string;
  /** pack/mcp-codegen-runtime-<version>.tgz */
  readonly runtime: string;
  /** pack/mcp-codegen-<version>.tgz */
  readonly cli: string;
}

/** What the tarballs are made from: a change to any of them makes them stale. */
const SOURCES = ["dist", "packages", "bin", "codegen", "runtime", "generated", "spec"];
const MANIFESTS = { runtime: "packages/runtime/package.json", cli: "packages/mcp-codegen/package.json" } as const;

/** What `npm pack` names a package's tarball. */
function tarballName(manifest: string): string {
  const { name, version } = JSON.parse(readFileSync(join(ROOT, manifest), "utf8")) as { name: string; version: string };
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  return newest;
}

let packed: Packed | undefined;

export function packedPackages(): Packed {
  if (packed) return packed;
  const files = { runtime: join(ROOT, "pack", tarballName(MANIFESTS.runtime)), cli: join(ROOT, "pack", tarballName(MANIFESTS.cli)) };
  const inputs = Math.max(...SOURCES.map((dir) => newestMtime(join(ROOT, dir))));
  const fresh = Object.values(files).every((file) => existsSync(file) && statSync(file).mtimeMs >= inputs);
  if (!fresh) {
    const make = spawnSync("make", ["pack"], { cwd: ROOT, encoding: "utf8", timeout: 600_000 });
    if (make.status !== 0) throw new Error(`make pack failed (exit ${make.status}):\n${make.stdout}\n${make.stderr}`);
  }
  const { version } = JSON.parse(readFileSync(join(ROOT, MANIFESTS.runtime), "utf8")) as { version: string };
  return (packed = { version, ...files });
}

/**
 * npm in `cwd`, against `registry`, quiet and without audit; its output for assertion messages.
 * Asynchronous, so that a registry served from this process keeps answering while npm runs.
 */
export function npm(args: readonly string[], cwd: string, registry?: string, timeoutMs = 300_000): Promise<CliRun> {
  const flags = registry ? ["--registry", registry] : [];
  return runChild("npm", [...args, ...flags, "--no-audit", "--no-fund"], { cwd, env: { ...process.env, npm_config_update_notifier: "false" }, timeoutMs });
}

/** Every package below `project`/node_modules (scoped and nested ones included), as name@version. */
export function installedPackages(project: string): string[] {
  const out: string[] = [];
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const name of readdirSync(modules).sort()) {
      if (name.startsWith(".")) continue;
      const dirs = name.startsWith("@") ? readdirSync(join(modules, name)).map((n) => join(name, n)) : [name];
      for (const dir of dirs) {
        const manifest = join(modules, dir, "package.json");
        if (!existsSync(manifest)) continue;
        out.push(`${dir}@${(JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version}`);
        visit(join(modules, dir, "node_modules"));
      }
    }
  };
  visit(join(project, "node_modules"));
  return out;
}
