/**
 * runtime/session/revisions.ts: a stdio server answers its first message (initialize, or
 * server/discover in the stateless era) with the revision's start-up validators alone
 * (generated/<rev>/startup.ts), and imports the whole validators.ts on the first use of another
 * method. Observed from a real process: a module loader hook there names every generated module
 * it loads on stderr.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "chai";
import { ERAS, LOADERS, REVISIONS } from "../../../generated/registry.js";
import type { RevisionModule } from "../../../runtime/contract.js";
import { createServer } from "../../../runtime/index.js";
import { META } from "../../../runtime/session/meta.js";
import { initializeRaw, quiet, RawPeer } from "../../support/features-server.js";
import { removeDir, ROOT, tempDir } from "../../support/project.js";
import { RawStdio } from "../../support/raw-stdio.js";

const latest = (era: "session" | "stateless") => REVISIONS.filter((r) => ERAS[r] === era).at(-1)!;
const LOADED = /^loaded .*\/generated\/([^/]+)\/(\w+)\.[jt]s$/gm;

describe("runtime/session/revisions: a stdio server loads a revision's validators in two steps", function () {
  this.timeout(60_000);
  let dir: string;
  let server: RawStdio | undefined;
  before(() => {
    dir = tempDir("startup");
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    // Runs in the loader's own thread: writes straight to the process's stderr.
    writeFileSync(
      join(dir, "hook.mjs"),
      `import { writeSync } from "node:fs";\nexport async function load(url, context, next) {\n  if (url.includes("/generated/")) writeSync(2, "loaded " + url + "\\n");\n  return next(url, context);\n}\n`,
    );
    writeFileSync(join(dir, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hook.mjs")).href)});\n`);
    writeFileSync(
      join(dir, "server.ts"),
      [
        `import { createServer, stdio } from ${JSON.stringify(join(ROOT, "runtime", "index.js"))};`,
        `const server = createServer({ name: "startup", version: "1.0.0" });`,
        `server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => ({ content: [{ type: "text", text }] }));`,
        `await server.listen(stdio());`,
      ].join("\n"),
    );
  });
  afterEach(() => server?.kill());
  after(() => removeDir(dir));

  const start = () => RawStdio.spawn(process.execPath, ["--import", "tsx", "--import", join(dir, "register.mjs"), join(dir, "server.ts")], { cwd: ROOT, timeoutMs: 30_000 });
  /** The generated modules loaded so far, as "<revision>/<file>". */
  const loaded = (stdio: RawStdio) => [...stdio.stderr.matchAll(LOADED)].map((m) => `${m[1]}/${m[2]}`);

  it("session era: initialize with startup.ts alone, validators.ts on the next request", async () => {
    const revision = latest("session");
    server = await start();
    const init = await server.request({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    expect(init.result?.protocolVersion, JSON.stringify(init)).to.equal(revision);
    expect(loaded(server)).to.include(`${revision}/startup`).and.to.include(`${revision}/module`);
    expect(loaded(server), "validators.ts before any other method").not.to.include(`${revision}/validators`);

    server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const call = await server.request({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: 7 } } });
    expect(call.error?.code ?? call.result?.isError, JSON.stringify(call)).to.not.equal(undefined); // checked: text must be a string
    expect(loaded(server)).to.include(`${revision}/validators`);
    const listed = await server.request({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect(listed.result?.tools?.[0]?.name, JSON.stringify(listed)).to.equal("echo");
  });

  it("stateless era: server/discover with startup.ts alone, validators.ts on the next request", async () => {
    const revision = latest("stateless");
    server = await start();
    const meta = { [META.protocolVersion]: revision, [META.clientInfo]: { name: "t", version: "1" }, [META.clientCapabilities]: {} };
    const discovered = await server.request({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } });
    expect(discovered.result?.supportedVersions, JSON.stringify(discovered)).to.include(revision);
    expect(loaded(server)).to.include(`${revision}/startup`);
    expect(loaded(server), "validators.ts before any other method").not.to.include(`${revision}/validators`);

    const listed = await server.request({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } });
    expect(listed.result?.tools?.[0]?.name, JSON.stringify(listed)).to.equal("echo");
    expect(loaded(server)).to.include(`${revision}/validators`);
  });
});

describe("runtime/session/revisions: the contract's loadValidators", () => {
  const revision = latest("session");
  /** The generated module under a name of its own (a module given to a server takes the place of a pinned one of its name in this process). */
  async function renamed(name: string, loadValidators: RevisionModule["loadValidators"] | "none"): Promise<RevisionModule> {
    const generated = await LOADERS[revision]();
    const all = await generated.loadValidators!();
    return loadValidators === "none" ? { ...generated, revision: name, validators: all, loadValidators: undefined } : { ...generated, revision: name, loadValidators };
  }
  const serve = (module: RevisionModule) => {
    const server = createServer({ name: "t", version: "1", logger: quiet, revisions: [module] });
    server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, () => ({ content: [] }));
    return new RawPeer(server);
  };

  it("is called once, after initialize, when the first other methods come (together)", async () => {
    let calls = 0;
    const generated = await LOADERS[revision]();
    const module = await renamed(`${revision}-lazy`, () => (calls++, generated.loadValidators!()));
    const peer = serve(module);
    await initializeRaw(peer, module.revision);
    expect(calls, "initialize needs only the start-up validators").to.equal(0);
    const [listed, called] = await Promise.all([peer.request("tools/list", {}), peer.request("tools/call", { name: 5 })]);
    expect(listed.result.tools).to.have.length(1);
    expect(called.error?.code, JSON.stringify(called)).to.equal(-32602); // CallToolRequest, which only validators.ts has
    expect(calls).to.equal(1);
    await peer.request("ping", {});
    expect(calls).to.equal(1);
    await peer.close();
  });

  it("a module without it (generated before it existed) serves with its validators as given", async () => {
    const peer = serve(await renamed(`${revision}-whole`, "none"));
    await initializeRaw(peer, `${revision}-whole`);
    const listed = await peer.request("tools/list", {});
    expect(listed.result.tools).to.have.length(1);
    await peer.close();
  });
});
