/**
 * After `changeset version` bumped the checkout's package.json: the same version in both published
 * manifests, and mcp-codegen's dependency on @mcp-codegen/runtime at exactly that version (the two
 * are released together; `make pack` refuses manifests that disagree).
 *
 *   npm run version-packages      (changeset version, then this)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const MANIFESTS = ["packages/runtime/package.json", "packages/mcp-codegen/package.json"] as const;

/** Writes the root version into the published manifests under `root`; returns the files it changed. */
export function syncVersions(root: string): string[] {
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  const manifests = MANIFESTS.map((path) => ({ path, manifest: JSON.parse(readFileSync(join(root, path), "utf8")) as Record<string, unknown> }));
  const runtimeName = manifests[0]!.manifest.name as string;
  const changed: string[] = [];
  for (const { path, manifest } of manifests) {
    const before = JSON.stringify(manifest);
    manifest.version = version;
    const dependencies = manifest.dependencies as Record<string, string> | undefined;
    if (dependencies?.[runtimeName] !== undefined) dependencies[runtimeName] = version;
    if (JSON.stringify(manifest) === before) continue;
    writeFileSync(join(root, path), `${JSON.stringify(manifest, null, 2)}\n`);
    changed.push(path);
  }
  return changed;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const changed = syncVersions(root);
  console.log(changed.length ? `version: ${changed.join(", ")} now at the checkout's version` : "version: both manifests already at the checkout's version");
}
