/**
 * What a runtime-only server installs: `npm install @mcp-codegen/runtime` (the tarball `make pack`
 * wrote, served by name from a local registry) against `npm install @modelcontextprotocol/server@~2.4.0`
 * (the official SDK v2 server, from the npm registry), each alone in a fresh temporary project.
 *
 * - packages: every package folder in node_modules, nested ones included;
 * - disk: `du -sk node_modules` (KiB of disk blocks); files: the bytes of its files.
 * MB are 10^6 bytes. The target of issue 17 (at most 8 packages and 5 MB) is reported, not asserted.
 *
 *   node --import tsx bench/install-size.ts     (after `make pack`)
 */
import { execFileSync } from "node:child_process";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installedPackages, npm, packedPackages } from "../test/support/packed.js";
import { removeDir, tempDir } from "../test/support/project.js";
import { startRegistry } from "../test/support/registry.js";
import { record } from "./support/results.js";

const SDK = "@modelcontextprotocol/server@~2.4.0";
const TARGET = { packages: 8, mb: 5 };

interface Install {
  readonly spec: string;
  readonly packages: string[];
  readonly diskKiB: number;
  readonly fileBytes: number;
  /** du -sk of the named package's own folder, without its dependencies. */
  readonly ownKiB: number;
}

function fileBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

function du(dir: string): number {
  return Number(execFileSync("du", ["-sk", dir], { encoding: "utf8" }).split("\t")[0]);
}

async function measure(spec: string, registry?: string): Promise<Install> {
  const project = tempDir("install-size");
  try {
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "install-size", private: true, type: "module" }));
    const run = await npm(["install", spec], project, registry);
    if (run.status !== 0) throw new Error(`npm install ${spec} failed:\n${run.stderr}`);
    const modules = join(project, "node_modules");
    const name = spec.slice(0, spec.lastIndexOf("@"));
    return { spec, packages: installedPackages(project), diskKiB: du(modules), fileBytes: fileBytes(modules), ownKiB: du(join(modules, name)) };
  } finally {
    removeDir(project);
  }
}

const packed = packedPackages();
const registry = await startRegistry([packed.runtime]);
let ours: Install;
try {
  ours = await measure(`@mcp-codegen/runtime@${packed.version}`, registry.url);
} finally {
  await registry.close();
}
const sdk = await measure(SDK);

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
for (const [contender, install] of [["ours", ours], ["v2", sdk]] as const) {
  const one = (measure: string, unit: string, value: number) => record({ bench: "install-size", measure, contender, unit, median: value, runs: [value] });
  one("packages", "packages", install.packages.length);
  one("disk (du -sk)", "MB", (install.diskKiB * 1024) / 1e6);
  one("files", "MB", install.fileBytes / 1e6);
  one("the package alone, disk", "MB", (install.ownKiB * 1024) / 1e6);
}
console.log("| install | packages | disk (du -sk) | files | the package alone, disk |");
console.log("|---|---:|---:|---:|---:|");
for (const install of [ours, sdk])
  console.log(
    `| \`npm install ${install.spec}\` | ${install.packages.length} | ${mb(install.diskKiB * 1024)} MB | ${mb(install.fileBytes)} MB | ${mb(install.ownKiB * 1024)} MB |`,
  );
console.log();
for (const install of [ours, sdk]) console.log(`${install.spec}: ${install.packages.join(", ")}`);
const met = (ok: boolean) => (ok ? "met" : "MISSED");
console.log(
  `\ntarget: at most ${TARGET.packages} packages (${met(ours.packages.length <= TARGET.packages)}), ` +
    `at most ${TARGET.mb} MB on disk (${met(ours.diskKiB * 1024 <= TARGET.mb * 1e6)}), ` +
    `ours vs SDK on disk ${((ours.diskKiB / sdk.diskKiB) * 100).toFixed(0)}%`,
);
