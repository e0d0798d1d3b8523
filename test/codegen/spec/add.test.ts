/**
 * `mcp-codegen spec add` through the CLI, in a throwaway root pinning 2026-07-28: a synthetic
 * revision made from it (one new request, one new notification) is pinned, generated and served
 * by the unchanged runtime; every refusal leaves spec/ and generated/ byte-identical.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { expect } from "chai";
import { loadSchema } from "../../../codegen/load/load.js";
import { SCHEMA_PATCHES } from "../../../codegen/load/patches.js";
import { sha256 } from "../../../codegen/spec/files.js";
import {
  CLI_ARGV,
  describeRun,
  rawSchema,
  removeDir,
  ROOT,
  runCli,
  snapshot,
  tempDir,
  tempProjectRoot,
  type CliRun,
  type JsonObject,
} from "../../support/project.js";

const BASE = "2026-07-28";
const NEW = "2026-12-01";

interface Pinned {
  source: unknown;
  revisions: Record<string, { url: string; files: Record<string, string> }>;
}

const readPinnedJson = (root: string) => JSON.parse(readFileSync(join(root, "spec", "pinned.json"), "utf8")) as Pinned;

/** 2026-07-28 plus widgets/spin (client -> server) and notifications/widgets/spun (server -> client). */
function synthetic(): JsonObject {
  const { document, definitions } = rawSchema(BASE);
  const request = structuredClone(definitions.SubscriptionsListenRequest!);
  request.description = "Sent from the client to spin a widget.";
  ((request.properties as JsonObject).method as JsonObject).const = "widgets/spin";
  (request.properties as JsonObject).params = { $ref: "#/$defs/SpinWidgetRequestParams" };
  definitions.SpinWidgetRequest = request;
  definitions.SpinWidgetRequestParams = {
    description: "Which widget to spin.",
    type: "object",
    properties: { _meta: { $ref: "#/$defs/RequestMetaObject" }, widget: { type: "string" }, turns: { type: "integer", minimum: 1 } },
    required: ["_meta", "widget"],
  };
  definitions.SpinWidgetResult = {
    description: "How the widget ended up.",
    type: "object",
    properties: { _meta: { $ref: "#/$defs/ResultMetaObject" }, resultType: { type: "string" }, angle: { type: "number" } },
    required: ["resultType", "angle"],
  };
  const notification = structuredClone(definitions.ResourceUpdatedNotification!);
  notification.description = "Sent by the server when a widget stops spinning.";
  ((notification.properties as JsonObject).method as JsonObject).const = "notifications/widgets/spun";
  (notification.properties as JsonObject).params = { $ref: "#/$defs/WidgetSpunNotificationParams" };
  definitions.WidgetSpunNotification = notification;
  definitions.WidgetSpunNotificationParams = {
    type: "object",
    properties: { _meta: { $ref: "#/$defs/MetaObject" }, widget: { type: "string" } },
    required: ["widget"],
  };
  (definitions.ClientRequest!.anyOf as JsonObject[]).push({ $ref: "#/$defs/SpinWidgetRequest" });
  (definitions.ServerNotification!.anyOf as JsonObject[]).push({ $ref: "#/$defs/WidgetSpunNotification" });
  return document;
}

/** A root that pins (and has generated) 2026-07-28 alone. */
function baseRoot(label: string): string {
  const root = tempProjectRoot(label, [BASE]);
  const pinned = readPinnedJson(root);
  const entry = pinned.revisions[BASE]!;
  pinned.revisions = { [BASE]: { url: entry.url, files: { "schema.json": entry.files["schema.json"]! } } };
  writeFileSync(join(root, "spec", "pinned.json"), `${JSON.stringify(pinned, null, 2)}\n`);
  const run = runCli(["generate", "--root", root]);
  expect(run.status, describeRun(run)).to.equal(0);
  // A checkout's generated/ imports its support from runtime/support/ beside it.
  cpSync(join(ROOT, "runtime", "support"), join(root, "runtime", "support"), { recursive: true });
  return root;
}

/** The CLI as a child that does not block this process (the download case serves HTTP meanwhile). */
function runCliAsync(args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_ARGV, ...args], { cwd: ROOT, timeout: 120_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const SCHEMA_TS = "/** The synthetic revision's TypeScript source. */\nexport interface SpinWidgetResult { angle: number }\n";

describe("spec add, through the CLI", function () {
  this.timeout(120_000);

  describe("a synthetic revision made from 2026-07-28", () => {
    let root: string;
    let source: string;
    let text: string;
    let run: CliRun;
    let refused: CliRun;
    let refusedChangedNothing: boolean;
    before(() => {
      root = baseRoot("add");
      source = tempDir("add-source");
      text = `${JSON.stringify(synthetic(), null, 2)}\n`;
      writeFileSync(join(source, "schema.json"), text);
      // schema.ts, the types oracle, travels with it too.
      writeFileSync(join(source, "schema.ts"), SCHEMA_TS);
      // Examples travel with the schema: one upstream example, and one for the new result.
      mkdirSync(join(source, "examples", "SpinWidgetResult"), { recursive: true });
      mkdirSync(join(source, "examples", "Root"), { recursive: true });
      writeFileSync(join(source, "examples", "SpinWidgetResult", "quarter-turn.json"), '{ "resultType": "complete", "angle": 90 }\n');
      cpSync(join(ROOT, "spec", BASE, "examples", "Root", "project-directory.json"), join(source, "examples", "Root", "project-directory.json"));
      const beforeRefusal = snapshot(root);
      refused = runCli(["spec", "add", NEW, "--from", source, "--root", root]);
      refusedChangedNothing = isDeepStrictEqual(snapshot(root), beforeRefusal);
      run = runCli(["spec", "add", NEW, "--from", source, "--root", root, "--local"]);
    });
    after(() => {
      removeDir(root);
      removeDir(source);
    });

    it("refuses a local source a fresh clone could not fetch, unless --local, and says how to supply it", () => {
      expect(refused.status, describeRun(refused)).to.equal(1);
      expect(refused.stderr).to.contain(`${pathToFileURL(source).href}/ is on this machine: a fresh clone could not fetch ${NEW} again`);
      expect(refused.stderr).to.contain("--url").and.to.contain("--local").and.to.contain(`MCP_SPEC_MIRROR=<folder holding ${NEW}/schema.json>`);
      expect(run.stdout).to.contain(`local        a fresh clone cannot download this: give it MCP_SPEC_MIRROR=<folder holding ${NEW}/schema.json>`);
      expect(refusedChangedNothing).to.equal(true);
    });

    it("carries the asserted patches whose node the new revision copied, and says which", () => {
      const carried = loadSchema(BASE, readFileSync(join(ROOT, "spec", BASE, "schema.json"), "utf8")).patches;
      expect(carried.length).to.be.greaterThan(0);
      expect(run.stdout).to.contain(`patches      carried: ${carried.join(", ")}`);
      expect(loadSchema(NEW, text).patches).to.deep.equal(carried);
    });

    it("copies the schema, its schema.ts and its examples, pins their sha256 in order, and says what it pinned", () => {
      expect(run.status, describeRun(run)).to.equal(0);
      expect(run.stdout).to.contain(`pinned ${NEW} from ${join(source, "schema.json")}`);
      expect(run.stdout).to.contain(`schema.json  sha256 ${sha256(text)}  (+ 2 examples)`);
      expect(run.stdout).to.contain(`schema.ts    sha256 ${sha256(SCHEMA_TS)}`);
      expect(run.stdout).to.match(/stateless era, 2020-12, \d+ definitions: 11 client requests, 0 server requests, 1 \+ 9 notifications, 3 input requests/);
      expect(run.stdout).to.contain(`Next: mcp-codegen diff ${BASE} ${NEW}`);

      const pinned = readPinnedJson(root);
      expect(Object.keys(pinned.revisions)).to.deep.equal([BASE, NEW]);
      expect(pinned.revisions[NEW]).to.deep.equal({
        url: `${pathToFileURL(source).href}/`,
        files: {
          "schema.json": sha256(text),
          "schema.ts": sha256(SCHEMA_TS),
          "examples/Root/project-directory.json": sha256(readFileSync(join(source, "examples", "Root", "project-directory.json"))),
          "examples/SpinWidgetResult/quarter-turn.json": sha256('{ "resultType": "complete", "angle": 90 }\n'),
        },
      });
      expect(readFileSync(join(root, "spec", NEW, "schema.json"), "utf8")).to.equal(text);
      expect(readFileSync(join(root, "spec", NEW, "schema.ts"), "utf8")).to.equal(SCHEMA_TS);
      expect(existsSync(join(root, "spec", NEW, "examples", "SpinWidgetResult", "quarter-turn.json"))).to.equal(true);
    });

    it("generates the revision: the new method and notification are in protocol.ts's maps and the registry", async () => {
      const protocol = (await import(pathToFileURL(join(root, "generated", NEW, "protocol.ts")).href)) as Record<string, unknown>;
      expect(protocol.ERA).to.equal("stateless");
      expect(protocol.CLIENT_REQUEST_METHODS).to.include("widgets/spin").and.to.include("server/discover");
      expect(protocol.SERVER_NOTIFICATION_METHODS).to.include("notifications/widgets/spun");
      const methods = protocol.METHODS as Record<string, JsonObject>;
      expect(methods["widgets/spin"]).to.deep.include({ kind: "request", senders: ["client"], message: "SpinWidgetRequest", params: "SpinWidgetRequestParams", results: ["SpinWidgetResult"] });
      expect(methods["notifications/widgets/spun"]).to.deep.include({ kind: "notification", senders: ["server"], params: "WidgetSpunNotificationParams" });
      const source = readFileSync(join(root, "generated", NEW, "protocol.ts"), "utf8");
      expect(source).to.match(/"widgets\/spin": \{\s*params: T\.SpinWidgetRequestParams;\s*result: T\.SpinWidgetResult;\s*handlerResult: T\.SpinWidgetResult;?\s*\}/);
      expect(source).to.match(/"notifications\/widgets\/spun": T\.WidgetSpunNotificationParams;/);

      const registry = (await import(pathToFileURL(join(root, "generated", "index.ts")).href)) as Record<string, unknown>;
      expect(registry.REVISIONS).to.deep.equal([BASE, NEW]);
      expect(registry.LATEST_REVISION).to.equal(NEW);
      expect(registry.ERAS).to.deep.equal({ [BASE]: "stateless", [NEW]: "stateless" });
    });

    it("and in the handler interfaces: a ServerHandlers method, a default, and a ClientNotificationHooks member", async () => {
      const handlers = readFileSync(join(root, "generated", NEW, "handlers.ts"), "utf8");
      const serverHandlers = /export interface ServerHandlers<Context = unknown> \{([^]*?)\n\}/.exec(handlers)![1]!;
      expect(serverHandlers).to.match(/"widgets\/spin": \(\s*params: T\.SpinWidgetRequestParams,\s*context: Context,\s*\) => T\.SpinWidgetResult \| Promise<T\.SpinWidgetResult>;/);
      const hooks = /export interface ClientNotificationHooks \{([^]*?)\n\}/.exec(handlers)![1]!;
      expect(hooks).to.match(/"notifications\/widgets\/spun"\?: \(params: T\.WidgetSpunNotificationParams\) => void;/);
      const module = (await import(pathToFileURL(join(root, "generated", NEW, "handlers.ts")).href)) as {
        defaultServerHandlers: () => Record<string, (params: unknown, context: unknown) => unknown>;
      };
      const defaults = module.defaultServerHandlers();
      expect(defaults).to.have.property("widgets/spin");
      expect(() => defaults["widgets/spin"]!({}, undefined)).to.throw("Method not found: widgets/spin");
    });

    it("its validators accept an elicited 95.5 (the patch followed the node), and diff reports no patched node and no rename", async () => {
      const generated = (await import(pathToFileURL(join(root, "generated", NEW, "validators.ts")).href)) as {
        validators: Record<string, { is(value: unknown): boolean }>;
      };
      expect(generated.validators.ElicitResult!.is({ action: "accept", content: { score: 95.5 } })).to.equal(true);
      expect(generated.validators.ElicitResult!.is({ action: "accept", content: { score: [95.5] } })).to.equal(false);
      const diff = runCli(["diff", BASE, NEW, "--json", "--root", root]);
      expect(diff.status, describeRun(diff)).to.equal(0);
      const report = JSON.parse(diff.stdout) as { definitions: { renamed: unknown[] }; changed: { definition: string }[] };
      expect(report.definitions.renamed).to.deep.equal([]);
      const patched = new Set(SCHEMA_PATCHES.map((p) => p.pointer.split("/")[2]));
      expect(report.changed.map((d) => d.definition).filter((name) => patched.has(name))).to.deep.equal([]);
    });

    it("leaves generated/ fresh for `check`, and a second identical add changes nothing", () => {
      const check = runCli(["check", "--root", root]);
      expect(check.status, describeRun(check)).to.equal(0);
      const before = snapshot(root);
      const again = runCli(["spec", "add", NEW, "--from", source, "--root", root]);
      expect(again.status, describeRun(again)).to.equal(0);
      expect(again.stdout).to.contain(`already pinned ${NEW}`);
      expect(snapshot(root)).to.deep.equal(before);
    });

    it("the runtime, unchanged, negotiates the new revision (a copy of runtime/ beside the root's generated/)", () => {
      cpSync(join(ROOT, "runtime"), join(root, "runtime"), { recursive: true });
      symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"), "dir");
      writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
      writeFileSync(
        join(root, "probe.ts"),
        `import { createMemoryPair, createServer, McpClient, ALL_REVISIONS, LATEST_REVISION } from "./runtime/index.js";
const server = createServer({ name: "probe", version: "1.0.0" });
server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "ok" }] }));
const [a, b] = createMemoryPair();
await server.listen(a);
const client = await McpClient.connect(b, { name: "probe-client", version: "1.0.0", revision: ${JSON.stringify(NEW)} as never });
const discover = await client.request("server/discover");
const tools = await client.listTools();
console.log(JSON.stringify({ all: ALL_REVISIONS, latest: LATEST_REVISION, revision: client.revision, supported: discover.supportedVersions, tools: tools.items.map((t) => t.name) }));
await client.close();
await server.close();
`,
      );
      const probe = spawnSync(process.execPath, ["--import", "tsx", join(root, "probe.ts")], { cwd: root, encoding: "utf8", timeout: 60_000 });
      expect(probe.status, probe.stderr).to.equal(0);
      expect(JSON.parse(probe.stdout)).to.deep.equal({
        all: [BASE, NEW],
        latest: NEW,
        revision: NEW,
        supported: [NEW, BASE],
        tools: ["echo"],
      });
    });
  });

  describe("refusals change nothing", () => {
    let root: string;
    let scratch: string;
    before(() => {
      root = baseRoot("add-refuse");
      scratch = tempDir("add-bad");
    });
    after(() => {
      removeDir(root);
      removeDir(scratch);
    });

    const base = () => rawSchema(BASE).document;
    const CASES: { name: string; args?: string[]; content?: () => string; status?: number; message: RegExp }[] = [
      { name: "not valid JSON", content: () => '{ "$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {', message: /\.json:1:72: not valid JSON: Expected property name or .\}.; nothing was changed/ },
      { name: "an unexpected token, at its line and column", content: () => '{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n  "$defs": \n}\n', message: /\.json:4:1: not valid JSON: Unexpected token '\}'; nothing was changed/ },
      { name: "JSON with no $schema", content: () => '{ "type": "object" }', message: /is not an MCP schema: #\/\$schema: missing: an MCP revision's schema\.json names its JSON Schema dialect/ },
      { name: "JSON that is not an object", content: () => "[1, 2, 3]", message: /is not an MCP schema: #: the schema is not a JSON object/ },
      {
        name: "an unknown dialect",
        content: () => JSON.stringify({ ...base(), $schema: "https://json-schema.org/draft/2019-09/schema" }),
        message: /is not an MCP schema: #\/\$schema: unknown dialect "https:\/\/json-schema\.org\/draft\/2019-09\/schema"/,
      },
      {
        name: "a JSON Schema without a ClientRequest union",
        content: () => JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", $defs: { Widget: { type: "object" } } }),
        message: /is not an MCP schema: #\/\$defs has no ClientRequest union/,
      },
      {
        name: "an MCP-looking schema whose era cannot be told",
        content: () => {
          const document = base();
          const defs = document.$defs as Record<string, JsonObject>;
          defs.ClientRequest!.anyOf = (defs.ClientRequest!.anyOf as JsonObject[]).filter((m) => m.$ref !== "#/$defs/DiscoverRequest");
          return JSON.stringify(document);
        },
        message: /is not an MCP schema: #: cannot tell the era/,
      },
      {
        name: "a schema the model accepts but an emitter refuses",
        content: () => {
          const document = base();
          (document.$defs as Record<string, JsonObject>).METHODS = { type: "object" };
          return JSON.stringify(document);
        },
        message: /generation failed: 2026-12-02 #\/\$defs\/METHODS: definition METHODS collides with a generated export of protocol\.ts; nothing was changed/,
      },
      { name: "a revision name that is not a date", args: ["spec", "add", "next", "--from", join(ROOT, "spec", BASE)], message: /revision "next" is not a date/ },
      {
        name: "a pinned revision with other files, without --replace",
        args: ["spec", "add", BASE, "--from", "SCHEMA"],
        content: () => JSON.stringify(base()),
        message: /2026-07-28 is already pinned in spec\/pinned\.json with other files; pass --replace/,
      },
      { name: "a source that does not exist", args: ["spec", "add", "2026-12-02", "--from", "/nonexistent/mcp"], message: /--from \/nonexistent\/mcp: no such file or folder/ },
      { name: "no --from", args: ["spec", "add", "2026-12-02"], status: 2, message: /spec add takes one revision and --from/ },
    ];

    CASES.forEach(({ name, args, content, status, message }, i) => {
      it(`${name}: exit ${status ?? 1} with a clear message, spec/ and generated/ byte-identical`, () => {
        const file = join(scratch, `case-${i}.json`);
        if (content) writeFileSync(file, content());
        const before = snapshot(root);
        const argv = (args ?? ["spec", "add", "2026-12-02", "--from", file]).map((a) => (a === "SCHEMA" ? file : a));
        const run = runCli([...argv, "--root", root]);
        expect(run.status, describeRun(run)).to.equal(status ?? 1);
        expect(run.stderr, describeRun(run)).to.match(message);
        expect(snapshot(root)).to.deep.equal(before);
        expect(existsSync(join(root, "spec", "2026-12-02"))).to.equal(false);
      });
    });
  });

  it("a regeneration that fails after the files are written puts spec/ back as it was", () => {
    // The root pins a second revision whose schema is missing, so the regeneration fails after the write.
    const root = baseRoot("add-rollback");
    try {
      const pinned = readPinnedJson(root);
      const real = readPinnedJson(ROOT);
      pinned.revisions["2025-11-25"] = { url: real.revisions["2025-11-25"]!.url, files: { "schema.json": real.revisions["2025-11-25"]!.files["schema.json"]! } };
      const pinnedText = `${JSON.stringify(pinned, null, 2)}\n`;
      writeFileSync(join(root, "spec", "pinned.json"), pinnedText);
      const generated = snapshot(join(root, "generated"));
      const run = runCli(["spec", "add", "2026-12-02", "--from", join(ROOT, "spec", BASE), "--root", root, "--local"]);
      expect(run.status, describeRun(run)).to.equal(1);
      expect(run.stderr).to.contain(join(root, "spec", "2025-11-25", "schema.json")).and.to.contain("is missing");
      expect(run.stderr).to.contain("spec/ and generated/ were left as they were");
      expect(readFileSync(join(root, "spec", "pinned.json"), "utf8")).to.equal(pinnedText);
      expect(existsSync(join(root, "spec", "2026-12-02"))).to.equal(false);
      expect(snapshot(join(root, "generated"))).to.deep.equal(generated);
    } finally {
      removeDir(root);
    }
  });

  describe("from an http(s) URL", () => {
    let root: string;
    let server: Server;
    let text: string;
    before(async () => {
      root = baseRoot("add-url");
      text = JSON.stringify(synthetic());
      server = createServer((req, res) => {
        if (req.url === `/schema/${NEW}/schema.json`) res.writeHead(200, { "content-type": "application/json" }).end(text);
        else res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    });
    after(async () => {
      await new Promise((resolve) => server.close(resolve));
      removeDir(root);
    });

    it("downloads schema.json from the folder URL and pins that folder", async () => {
      const folder = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema/${NEW}/`;
      const run = await runCliAsync(["spec", "add", NEW, "--from", folder, "--root", root]);
      expect(run.status, describeRun(run)).to.equal(0);
      expect(readPinnedJson(root).revisions[NEW]).to.deep.equal({ url: folder, files: { "schema.json": sha256(text) } });
      expect(existsSync(join(root, "generated", NEW, "handlers.ts"))).to.equal(true);
    });

    it("an HTTP error is refused, naming the URL, and changes nothing", async () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema/2026-12-02/schema.json`;
      const before = snapshot(root);
      const run = await runCliAsync(["spec", "add", "2026-12-02", "--from", url, "--root", root]);
      expect(run.status, describeRun(run)).to.equal(1);
      expect(run.stderr).to.contain(`download from ${url} failed: HTTP 404`);
      expect(snapshot(root)).to.deep.equal(before);
    });
  });
});
