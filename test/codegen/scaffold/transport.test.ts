/** A "transport" changed in mcp.server.json reaches src/main.ts, or the run is refused saying what to change. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { mainSource, scaffold } from "../../../codegen/scaffold/scaffold.js";
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
    setTransport("stdio");
    await scaffold({ dir, toolkit: ROOT });
    expect(readFileSync(join(dir, "src", "main.ts"), "utf8")).to.equal(mainSource({ name: "notes", transport: "stdio" }));
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
