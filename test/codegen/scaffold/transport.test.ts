/** A "transport" changed in mcp.server.json reaches src/main.ts, or the run is refused saying what to change. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { mainSource, readme, scaffold } from "../../../codegen/scaffold/scaffold.js";
import { removeDir, ROOT, snapshot, tempDir } from "../../support/project.js";

describe("codegen/scaffold: the manifest's transport and src/main.ts", function () {
  this.timeout(120_000);
  let parent: string;
  let dir: string;
  const setTransport = (transport: string) => {
    const path = join(dir, "mcp.server.json");
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), transport }, null, 2));
  };
  before(async () => {
    parent = tempDir("scaffold-transport");
    dir = join(parent, "notes");
    await scaffold({ dir, toolkit: ROOT, name: "notes" });
  });
  after(() => removeDir(parent));

  it("a main.ts as scaffold wrote it follows the manifest: stdio -> http, and back", async () => {
    expect(readFileSync(join(dir, "src", "main.ts"), "utf8")).to.equal(mainSource({ name: "notes", transport: "stdio" }));
    setTransport("http");
    const report = await scaffold({ dir, toolkit: ROOT });
    expect(report.written).to.include("src/main.ts");
    const main = readFileSync(join(dir, "src", "main.ts"), "utf8");
    expect(main).to.equal(mainSource({ name: "notes", transport: "http" })).and.to.match(/listen\(endpoint\)/);
    // The README as scaffold wrote it follows too: how to start it, and what main.ts starts.
    expect(report.written).to.include("README.md");
    const text = readFileSync(join(dir, "README.md"), "utf8");
    expect(text).to.equal(readme({ name: "notes", transport: "http" })).and.contain("Streamable HTTP on http://127.0.0.1:3000/mcp").and.contain("starts the server (http)");
    expect(text).not.to.contain("MCP over stdio");
    setTransport("stdio");
    await scaffold({ dir, toolkit: ROOT });
    expect(readFileSync(join(dir, "src", "main.ts"), "utf8")).to.equal(mainSource({ name: "notes", transport: "stdio" }));
    expect(readFileSync(join(dir, "README.md"), "utf8")).to.equal(readme({ name: "notes", transport: "stdio" }));
  });

  it("a README the user edited is theirs: a transport change leaves it alone", async () => {
    const mine = `${readme({ name: "notes", transport: "stdio" })}\nMy notes.\n`;
    writeFileSync(join(dir, "README.md"), mine);
    setTransport("http");
    await scaffold({ dir, toolkit: ROOT });
    expect(readFileSync(join(dir, "README.md"), "utf8")).to.equal(mine);
    setTransport("stdio");
    await scaffold({ dir, toolkit: ROOT });
  });

  it("--runtime: a version as given, a folder or tarball as a file: dependency relative to the project, anything else refused", async () => {
    const dependency = async (runtime: string) => {
      const project = join(parent, `runtime-${Math.random().toString(36).slice(2)}`);
      await scaffold({ dir: project, toolkit: ROOT, name: "r", runtime });
      return (JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["@mcp-codegen/runtime"];
    };
    expect(await dependency("0.2.0-beta.1")).to.equal("0.2.0-beta.1");
    const tarball = join(parent, "vendor", "mcp-codegen-runtime-9.9.9.tgz");
    mkdirSync(join(parent, "vendor"), { recursive: true });
    writeFileSync(tarball, "");
    expect(await dependency(tarball)).to.equal("file:../vendor/mcp-codegen-runtime-9.9.9.tgz");
    expect(await dependency(join(ROOT, "packages", "runtime"))).to.match(/^file:(\.\.\/)+.*packages\/runtime$/);
    const refused = (runtime: string) => scaffold({ dir: join(parent, "refused"), toolkit: ROOT, name: "r", runtime }).then(() => "", (e: Error) => e.message);
    expect(await refused("./nowhere.tgz")).to.contain("--runtime ./nowhere.tgz: no such folder or tarball");
    expect(await refused(ROOT + "/codegen")).to.contain("has no package.json");
    expect(await refused("$(rm)")).to.contain("not a version, range or tag, nor a path");
  });

  it("a main.ts the user changed is not rewritten: the run is refused, naming the file and the code to write, nothing changed", async () => {
    const mine = `${mainSource({ name: "notes", transport: "stdio" })}// my own line\n`;
    writeFileSync(join(dir, "src", "main.ts"), mine);
    setTransport("http");
    const before = snapshot(dir);
    const error = await scaffold({ dir, toolkit: ROOT }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).to.contain(`${join(dir, "src", "main.ts")}: mcp.server.json says "transport": "http", but this file (yours, so not rewritten) does not start it`);
    expect(error?.message).to.contain(mainSource({ name: "notes", transport: "http" }).split("\n")[0]!).and.to.contain("Nothing was changed.");
    expect(snapshot(dir)).to.deep.equal(before);
  });
});
