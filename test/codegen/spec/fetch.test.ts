/**
 * The `make spec` step (`mcp-codegen spec fetch`): spec/pinned.json states the upstream facts,
 * every file is verified against its sha256, one flipped byte is a hard error naming the file
 * and both hashes, and a second run copies nothing. Everything runs in throwaway roots with a
 * local mirror: no test touches the network or the checkout's spec/.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { fetchSpec } from "../../../codegen/spec/fetch.js";
import { describeRun, listFiles, removeDir, REVISIONS, ROOT, runCli, snapshot, tempDir } from "../../support/project.js";
import { skipUnlessCi } from "../../support/skip.js";

interface Pinned {
  source: { repository: string; commit: string };
  revisions: Record<string, { url: string; files: Record<string, string> }>;
  extensions?: Record<string, { folder: string; core: string; urls: Record<string, string>; files: Record<string, string> }>;
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const pinned = (): Pinned => JSON.parse(readFileSync(join(ROOT, "spec", "pinned.json"), "utf8")) as Pinned;
const pinnedFiles = (p: Pinned) => [
  ...Object.entries(p.revisions).flatMap(([revision, entry]) => Object.keys(entry.files).map((file) => `${revision}/${file}`)),
  ...Object.values(p.extensions ?? {}).flatMap((entry) => Object.keys(entry.files).map((file) => `${entry.folder}/${file}`)),
];

/** A mirror laid out as <rev>/<file> (and <extension folder>/<file>), copied from the verified files `make spec` put in spec/. */
function makeMirror(dir: string): string {
  for (const revision of REVISIONS) cpSync(join(ROOT, "spec", revision), join(dir, revision), { recursive: true });
  for (const { folder } of Object.values(pinned().extensions ?? {})) cpSync(join(ROOT, "spec", folder), join(dir, folder), { recursive: true });
  return dir;
}

/** A project root holding only a copy of spec/pinned.json. */
function makeRoot(dir: string): string {
  mkdirSync(join(dir, "spec"), { recursive: true });
  cpSync(join(ROOT, "spec", "pinned.json"), join(dir, "spec", "pinned.json"));
  return dir;
}

describe("spec: pinned.json", () => {
  it("pins every generated revision, each with its upstream folder and schema.json", () => {
    const p = pinned();
    expect(Object.keys(p.revisions).sort()).to.deep.equal([...REVISIONS]);
    for (const [revision, entry] of Object.entries(p.revisions)) {
      expect(entry.url, revision).to.match(new RegExp(`^https://raw\\.githubusercontent\\.com/${p.source.repository}/${p.source.commit}/schema/${revision}/$`));
      expect(entry.files["schema.json"], revision).to.match(/^[0-9a-f]{64}$/);
    }
  });

  it("states the same facts as ../shared/mcp-spec/PINNED.json", function () {
    const path = join(ROOT, "..", "shared", "mcp-spec", "PINNED.json");
    if (!existsSync(path)) skipUnlessCi(this, `${path} is missing`, "put the shared reference material beside the checkout (../shared)");
    const upstream = JSON.parse(readFileSync(path, "utf8")) as {
      source: string;
      commit: string;
      versions: Record<
        string,
        { schema: { url: string; sha256: string }; schemaTs: { url: string; sha256: string }; examples?: { count: number; sha256: Record<string, string> } }
      >;
    };
    const p = pinned();
    expect(p.source).to.deep.equal({ repository: upstream.source, commit: upstream.commit });
    expect(Object.keys(p.revisions).sort()).to.deep.equal(Object.keys(upstream.versions).sort());
    for (const [revision, version] of Object.entries(upstream.versions)) {
      const entry = p.revisions[revision]!;
      expect(new URL("schema.json", entry.url).href, revision).to.equal(version.schema.url);
      expect(new URL("schema.ts", entry.url).href, revision).to.equal(version.schemaTs.url);
      expect(entry.files, revision).to.deep.equal({
        "schema.json": version.schema.sha256,
        "schema.ts": version.schemaTs.sha256,
        ...(version.examples?.sha256 ?? {}),
      });
      if (version.examples) expect(Object.keys(version.examples.sha256), revision).to.have.length(version.examples.count);
    }
  });

  it("matches the files in spec/ that `make spec` verified", () => {
    const p = pinned();
    for (const path of pinnedFiles(p)) {
      const [revision, ...file] = path.split("/");
      const extension = Object.values(p.extensions ?? {}).find((e) => path.startsWith(`${e.folder}/`));
      const expected = extension ? extension.files[path.slice(extension.folder.length + 1)] : p.revisions[revision!]!.files[file.join("/")];
      expect(sha256(readFileSync(join(ROOT, "spec", path))), path).to.equal(expected);
    }
  });

  it("pins each extension as ../shared/mcp-spec/extensions/<name>/PINNED.json states it, on a pinned core revision", function () {
    const p = pinned();
    expect(Object.keys(p.extensions ?? {})).to.include("io.modelcontextprotocol/tasks");
    for (const [id, entry] of Object.entries(p.extensions ?? {})) {
      expect(Object.keys(p.revisions), id).to.include(entry.core);
      expect(Object.keys(entry.urls).sort(), id).to.deep.equal(Object.keys(entry.files).sort());
      const path = join(ROOT, "..", "shared", "mcp-spec", entry.folder, "PINNED.json");
      if (!existsSync(path)) continue;
      const upstream = JSON.parse(readFileSync(path, "utf8")) as { extension: string; files: Record<string, { url: string; sha256: string }> };
      expect(upstream.extension).to.equal(id);
      for (const [file, { url, sha256: hash }] of Object.entries(upstream.files)) {
        expect(entry.urls[file], `${id} ${file}`).to.equal(url);
        expect(entry.files[file], `${id} ${file}`).to.equal(hash);
      }
    }
  });
});

describe("spec fetch, through the CLI", function () {
  this.timeout(60_000);
  let scratch: string;
  let mirror: string;
  before(() => {
    scratch = tempDir("spec");
    mirror = makeMirror(join(scratch, "mirror"));
  });
  after(() => removeDir(scratch));

  it("fills an empty spec/ from $MCP_SPEC_MIRROR, verifying every file, and a second run copies nothing", () => {
    const root = makeRoot(join(scratch, "clean"));
    const expected = pinnedFiles(pinned());

    const first = runCli(["spec", "fetch", "--root", root], { MCP_SPEC_MIRROR: mirror });
    expect(first.status, describeRun(first)).to.equal(0);
    expect(first.stdout).to.contain(`${expected.length} pinned files verified, ${expected.length} copied`);
    for (const revision of REVISIONS) expect(first.stdout).to.contain(`spec/${revision}  <-  ${join(mirror, revision)}/`);
    for (const { folder } of Object.values(pinned().extensions ?? {})) expect(first.stdout).to.contain(`spec/${folder}  <-  ${join(mirror, folder)}/`);
    const files = listFiles(join(root, "spec")).filter((f) => f !== "pinned.json");
    expect(files.sort()).to.deep.equal([...expected].sort());
    for (const path of expected) expect(readFileSync(join(root, "spec", path)).equals(readFileSync(join(mirror, path))), path).to.equal(true);

    const before = snapshot(join(root, "spec"));
    const second = runCli(["spec", "fetch", "--root", root], { MCP_SPEC_MIRROR: mirror });
    expect(second.status, describeRun(second)).to.equal(0);
    expect(second.stdout.trim()).to.equal(`${expected.length} pinned files verified, 0 copied`);
    expect(snapshot(join(root, "spec"))).to.deep.equal(before);
  });

  it("fails on one flipped byte, naming the file and showing both hashes, and leaves no copy of it", () => {
    const revision = "2025-06-18";
    const bad = join(scratch, "flipped-mirror");
    cpSync(mirror, bad, { recursive: true });
    const path = join(bad, revision, "schema.json");
    const bytes = readFileSync(path);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = bytes[at]! ^ 0x01;
    writeFileSync(path, bytes);
    const expectedHash = pinned().revisions[revision]!.files["schema.json"]!;
    const actualHash = sha256(bytes);
    expect(actualHash).not.to.equal(expectedHash);

    const root = makeRoot(join(scratch, "flipped"));
    const run = runCli(["spec", "fetch", "--root", root], { MCP_SPEC_MIRROR: bad });
    expect(run.status, describeRun(run)).to.equal(1);
    expect(run.stderr).to.contain(`sha256 mismatch for ${revision}/schema.json`);
    expect(run.stderr).to.contain(path);
    expect(run.stderr).to.match(new RegExp(`pinned\\s+${expectedHash}`));
    expect(run.stderr).to.match(new RegExp(`actual\\s+${actualHash}`));
    expect(existsSync(join(root, "spec", revision, "schema.json"))).to.equal(false);
    expect(listFiles(root).filter((f) => f.endsWith(".tmp"))).to.deep.equal([]);
  });

  it("replaces a tampered file already in spec/ with the verified one", () => {
    const root = makeRoot(join(scratch, "tampered"));
    cpSync(mirror, join(root, "spec"), { recursive: true });
    const target = join(root, "spec", "2024-11-05", "schema.json");
    writeFileSync(target, `${readFileSync(target, "utf8")} `);
    const run = runCli(["spec", "fetch", "--root", root], { MCP_SPEC_MIRROR: mirror });
    expect(run.status, describeRun(run)).to.equal(0);
    expect(run.stdout).to.contain(`${pinnedFiles(pinned()).length} pinned files verified, 1 copied`);
    expect(sha256(readFileSync(target))).to.equal(pinned().revisions["2024-11-05"]!.files["schema.json"]);
  });

  it("prefers $MCP_SPEC_MIRROR to ../shared/mcp-spec, and uses the latter without it", () => {
    // root/../shared/mcp-spec holds a flipped byte; the clean mirror must win over it.
    const project = join(scratch, "nested");
    const shared = join(project, "shared", "mcp-spec");
    cpSync(mirror, shared, { recursive: true });
    const flipped = join(shared, "2024-11-05", "schema.json");
    const bytes = readFileSync(flipped);
    bytes[10] = bytes[10]! ^ 0x01;
    writeFileSync(flipped, bytes);

    const withMirror = makeRoot(join(project, "with-mirror"));
    const ok = runCli(["spec", "fetch", "--root", withMirror], { MCP_SPEC_MIRROR: mirror });
    expect(ok.status, describeRun(ok)).to.equal(0);

    const withoutMirror = makeRoot(join(project, "without-mirror"));
    const fails = runCli(["spec", "fetch", "--root", withoutMirror]);
    expect(fails.status, describeRun(fails)).to.equal(1);
    expect(fails.stderr).to.contain(`sha256 mismatch for 2024-11-05/schema.json (from ${flipped})`);
  });
});

describe("spec/fetch", () => {
  it("never downloads when told not to: a file missing from every local source is an error", async () => {
    const dir = tempDir("offline");
    try {
      const root = makeRoot(join(dir, "root"));
      const emptyMirror = join(dir, "mirror");
      mkdirSync(emptyMirror);
      let caught: Error | undefined;
      await fetchSpec(root, { mirror: emptyMirror, network: false }).catch((error: Error) => (caught = error));
      expect(caught?.message).to.equal("2024-11-05/schema.json: not in any local source, and downloads are off");
    } finally {
      removeDir(dir);
    }
  });

  it("a download that fails says where a local copy would have been found", async () => {
    const dir = tempDir("unreachable");
    try {
      const root = makeRoot(join(dir, "root"));
      // A closed port on loopback: the download fails at once, with no network involved.
      const only = { ...pinned(), revisions: { "2024-11-05": { ...pinned().revisions["2024-11-05"]!, url: "http://127.0.0.1:1/schema" } }, extensions: {} };
      let caught: Error | undefined;
      await fetchSpec(root, { network: true }, only as ReturnType<typeof pinned>).catch((error: Error) => (caught = error));
      expect(caught?.message).to.match(/^2024-11-05\/schema\.json: download from \S+ failed: .*; no local copy either: set MCP_SPEC_MIRROR .* or put the schemas in \.\.\/shared\/mcp-spec beside the checkout$/);
    } finally {
      removeDir(dir);
    }
  });
});
