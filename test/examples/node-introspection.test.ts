import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVALUATOR_LAUNCH } from "../../examples/node-introspection/evaluate.js";
import { connect as connectTcp, createServer as createNetServer, type AddressInfo } from "node:net";
import {
  ERAS,
  ROOT,
  connect,
  connectHttp,
  httpServer,
  rejection,
  statelessApi,
  statelessSession,
  text,
  type Api,
  type HttpServer,
  type SdkSession,
  type StatelessSession,
} from "./support.js";

/** Short, so that the runaway-expression cases stay quick; nothing below depends on its exact value. */
const LIMIT_MS = 400;

for (const { era, label } of ERAS) {
  describe(`examples/node-introspection, ${label}`, function () {
    let api: Api;
    let sdk: SdkSession | undefined;

    before(async function () {
      ({ api, sdk } = await connect(era, "node-introspection", ["--timeout-ms", String(LIMIT_MS)]));
    });
    after(async function () {
      await api?.close();
    });

    if (era === "session")
      it("negotiates 2025-11-25 with the SDK client", function () {
        expect(sdk!.transport.protocolVersion).to.equal("2025-11-25");
        expect(sdk!.client.getServerVersion()).to.include({ name: "node-introspection" });
      });

    it("lists the tool, the resource, the template and the prompt", async function () {
      const tools = await api.listTools();
      expect(tools.map((t) => t.name)).to.deep.equal(["evaluate"]);
      expect(tools[0]!.inputSchema).to.deep.include({ required: ["expression"] });
      expect((await api.listResources()).map((r) => [r.uri, r.mimeType])).to.deep.equal([["node://system/version", "text/plain"]]);
      expect((await api.listTemplates()).map((t) => t.uriTemplate)).to.deep.equal(["node://module/{name}"]);
      const prompts = await api.listPrompts();
      expect(prompts.map((p) => p.name)).to.deep.equal(["review-module"]);
      expect(prompts[0]!.arguments).to.deep.equal([{ name: "name", description: "A built-in module, e.g. fs or node:path", required: true }]);
    });

    describe("evaluate", function () {
      it("returns the value of an expression as text", async function () {
        const result = await api.callTool("evaluate", { expression: "[1, 2, 3].map((x) => x * x)" });
        expect(result.isError).to.not.equal(true);
        expect(text(result)).to.equal("[1, 4, 9]");
        expect(text(await api.callTool("evaluate", { expression: "({ a: 1, b: 'two', c: [true, null] })" }))).to.equal('{ a: 1, b: "two", c: [true, null] }');
      });

      it("gives the expression no require, process, file system or timers", async function () {
        const seen = await api.callTool("evaluate", {
          expression: "[typeof require, typeof process, typeof module, typeof fetch, typeof setTimeout, typeof Buffer].join()",
        });
        expect(text(seen)).to.equal('"undefined,undefined,undefined,undefined,undefined,undefined"');
      });

      it("does not let the expression climb out through the global object's constructor", async function () {
        // With an ordinary object as the context's global, this reaches the host's Function and its process.
        const escape = await api.callTool("evaluate", { expression: "this.constructor.constructor('return typeof process')()" });
        expect(text(escape)).to.equal('"undefined"');
        const own = await api.callTool("evaluate", { expression: "globalThis.constructor.constructor === Function" });
        expect(text(own), "the Function reachable from the global object is the context's own").to.equal("true");
      });

      it("does not let a value with a custom inspect function reach the host's inspector", async function () {
        const result = await api.callTool("evaluate", {
          expression: "({ [Symbol.for('nodejs.util.inspect.custom')]: (depth, options) => options.constructor.constructor('return process')().pid })",
        });
        expect(result.isError).to.not.equal(true);
        expect(text(result)).to.not.match(/^\d+$/);
      });

      it("turns a thrown error into an isError result carrying its text", async function () {
        const thrown = await api.callTool("evaluate", { expression: "throw new TypeError('the answer is not 42')" });
        expect(thrown.isError).to.equal(true);
        expect(text(thrown)).to.equal("TypeError: the answer is not 42");
        const syntax = await api.callTool("evaluate", { expression: "1 +* 2" });
        expect(syntax.isError).to.equal(true);
        expect(text(syntax)).to.match(/^SyntaxError: /);
        const missing = await api.callTool("evaluate", { expression: "undefinedThing.property" });
        expect(text(missing)).to.equal("ReferenceError: 'undefinedThing' is not defined");
      });

      it("stops an infinite loop at the time limit with an isError result, answering other requests meanwhile", async function () {
        let loopAnswered = false;
        const loop = api.callTool("evaluate", { expression: "while (true) {}" }).then((result) => {
          loopAnswered = true;
          return result;
        });
        const version = await api.readResource("node://system/version");
        expect(loopAnswered, "the version was read while the loop still ran").to.equal(false);
        expect(version.contents[0]!.text).to.include(process.version);
        const result = await loop;
        expect(result.isError).to.equal(true);
        expect(text(result)).to.equal(`Evaluation stopped: it ran longer than the ${LIMIT_MS} ms limit`);
        expect(text(await api.callTool("evaluate", { expression: "6 * 7" }))).to.equal("42");
      });

      it("stops a promise loop too: queued jobs run inside the time limit", async function () {
        const result = await api.callTool("evaluate", { expression: "(async () => { for (;;) await null; })(), 'queued'" });
        expect(result.isError).to.equal(true);
        expect(text(result)).to.include("ran longer than");
      });

      it("ends an expression that exhausts its memory with an isError result, and keeps serving", async function () {
        // One allocation past the limit: refused at once, whatever the machine's load (a loop that
        // grows memory step by step could meet the time limit first).
        const result = await api.callTool("evaluate", { expression: "'x'.repeat(2 ** 27).length" });
        expect(result.isError).to.equal(true);
        expect(text(result)).to.equal("Evaluation stopped: it needed more than the 64 MB of memory it is allowed");
        expect(text(await api.callTool("evaluate", { expression: "'still here'" }))).to.equal('"still here"');
      });

      it("shows a promise's value when it settles within the evaluation", async function () {
        expect(text(await api.callTool("evaluate", { expression: "Promise.resolve(6).then((x) => x * 7)" }))).to.equal("Promise { 42 }");
        expect(text(await api.callTool("evaluate", { expression: "Promise.reject(new RangeError('no'))" }))).to.equal("Promise { <rejected> RangeError: no }");
      });

      it("rejects a call without an expression as invalid arguments", async function () {
        const result = await api.callTool("evaluate", {});
        expect(result.isError).to.equal(true);
        expect(text(result)).to.match(/^Invalid arguments for tool evaluate: .*expression/);
      });
    });

    it("reads node://system/version as text/plain", async function () {
      const { contents } = await api.readResource("node://system/version");
      expect(contents).to.have.length(1);
      expect(contents[0]).to.include({ uri: "node://system/version", mimeType: "text/plain" });
      expect(contents[0]!.text).to.equal(`Node.js ${process.version}\nV8 ${process.versions.v8}\nplatform ${process.platform}-${process.arch}\n`);
    });

    describe("node://module/{name}", function () {
      it("describes a built-in module's exports and their kinds as JSON", async function () {
        const { contents } = await api.readResource("node://module/events");
        expect(contents[0]).to.include({ uri: "node://module/events", mimeType: "application/json" });
        const described = JSON.parse(contents[0]!.text as string) as { name: string; exports: { name: string; kind: string }[] };
        expect(described.name).to.equal("events");
        const kinds = Object.fromEntries(described.exports.map((e) => [e.name, e.kind]));
        expect(kinds).to.include({ EventEmitter: "class", once: "function", defaultMaxListeners: "number", errorMonitor: "symbol" });
        expect(described.exports.map((e) => e.name)).to.deep.equal(described.exports.map((e) => e.name).sort());
      });

      it("accepts a percent-encoded name with a slash, and the node: prefix", async function () {
        const promises = JSON.parse((await api.readResource("node://module/fs%2Fpromises")).contents[0]!.text as string);
        expect(promises.name).to.equal("fs/promises");
        expect(promises.exports).to.deep.include({ name: "readFile", kind: "function" });
        const prefixed = JSON.parse((await api.readResource("node://module/node%3Apath")).contents[0]!.text as string);
        expect(prefixed.name).to.equal("path");
        expect(prefixed.exports).to.deep.include({ name: "join", kind: "function" });
      });

      it(`answers an unknown module with the era's not-found error (${era === "session" ? -32002 : -32602})`, async function () {
        const error = await rejection(api.readResource("node://module/left-pad"));
        expect(error.code).to.equal(api.notFound);
        expect(error.message).to.include("Resource not found: node://module/left-pad");
        const internal = await rejection(api.readResource("node://module/_http_agent"));
        expect(internal.code, "internal modules are not offered").to.equal(api.notFound);
      });

      it("completes module names", async function () {
        expect(await api.complete({ type: "ref/resource", uri: "node://module/{name}" }, { name: "name", value: "worker" })).to.deep.equal([
          "worker_threads",
        ]);
      });
    });

    describe("review-module", function () {
      it("asks for a review with the module's description attached", async function () {
        const prompt = await api.getPrompt("review-module", { name: "path" });
        expect(prompt.description).to.equal("Review of node:path");
        expect(prompt.messages).to.have.length(2);
        const [ask, attached] = prompt.messages as { role: string; content: Record<string, any> }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
        expect(ask!.role).to.equal("user");
        expect(ask!.content.text).to.include("node:path");
        expect(attached!.content.type).to.equal("resource");
        expect(attached!.content.resource.uri).to.equal("node://module/path");
        expect(JSON.parse(attached!.content.resource.text).exports).to.deep.include({ name: "basename", kind: "function" });
      });

      it("rejects a missing name and an unknown module with -32602", async function () {
        const missing = await rejection(api.getPrompt("review-module", {}));
        expect(missing.code).to.equal(-32602);
        expect(missing.message).to.include("missing required argument: name");
        const unknown = await rejection(api.getPrompt("review-module", { name: "left-pad" }));
        expect(unknown.code).to.equal(-32602);
        expect(unknown.message).to.include("left-pad is not a built-in Node.js module");
      });

      it("completes its name argument", async function () {
        expect(await api.complete({ type: "ref/prompt", name: "review-module" }, { name: "name", value: "string_" })).to.deep.equal(["string_decoder"]);
      });
    });

    it("answers an unknown tool and an unknown prompt with -32602", async function () {
      expect((await rejection(api.callTool("no_such_tool", {}))).code).to.equal(-32602);
      expect((await rejection(api.getPrompt("no-such-prompt", {}))).code).to.equal(-32602);
    });
  });
}

describe("examples/node-introspection over Streamable HTTP (--http)", function () {
  let server: HttpServer;
  before(async function () {
    server = await httpServer("node-introspection", ["--timeout-ms", String(LIMIT_MS)]);
  });
  after(async function () {
    await server?.stop();
  });

  it("listens on loopback at /mcp", function () {
    expect(server.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  for (const { era, label } of ERAS)
    it(`serves ${label}: evaluate, its time limit, the template's not-found error, the prompt`, async function () {
      const { api } = await connectHttp(era, server.url);
      try {
        expect(text(await api.callTool("evaluate", { expression: "6 * 7" }))).to.equal("42");
        const loop = await api.callTool("evaluate", { expression: "for (;;) {}" });
        expect(loop.isError).to.equal(true);
        expect(text(loop)).to.equal(`Evaluation stopped: it ran longer than the ${LIMIT_MS} ms limit`);
        expect((await api.readResource("node://system/version")).contents[0]!.text).to.include(process.version);
        expect((await rejection(api.readResource("node://module/left-pad"))).code).to.equal(api.notFound);
        expect((await api.getPrompt("review-module", { name: "os" })).description).to.equal("Review of node:os");
      } finally {
        await api.close();
      }
    });
});

/**
 * The escapes an attack suite found in the first evaluator (node:vm in a child process): an error
 * made by the host realm handed the expression the host's Function, and with it `process`.
 */
describe("examples/node-introspection: what evaluated code cannot do", function () {
  /** Reaches the evaluator's host `process` when a host-made error is reachable from the code. */
  const HOST_PROCESS = `import("x").catch((e) => e.constructor.constructor("return process")())`;
  let session: StatelessSession;
  let api: Api;

  before(async function () {
    session = await statelessSession("node-introspection", ["--timeout-ms", "2000"]);
    api = statelessApi(session);
  });
  after(async function () {
    await api?.close();
  });

  it("finds no host process behind an error the host made (the import payload)", async function () {
    const result = await api.callTool("evaluate", { expression: `${HOST_PROCESS}.then((p) => typeof p)` });
    expect(text(result)).to.not.match(/"object"/);
    expect(text(result)).to.match(/^Promise \{ <rejected> /);
  });

  it("cannot forge the evaluator's answer", async function () {
    const forged = `${HOST_PROCESS}.then((p) => { p.stdout.write(JSON.stringify({ outcome: "ok:ESCAPED pid=" + p.pid }) + "\\n"); p.exit(0); })`;
    const result = await api.callTool("evaluate", { expression: forged });
    expect(text(result)).to.not.include("ESCAPED");
    expect(text(result)).to.match(/^Promise \{ <rejected> /);
  });

  it("cannot open a TCP connection to a listener on 127.0.0.1", async function () {
    const accepted: number[] = [];
    const listener = createNetServer((socket) => {
      accepted.push(socket.remotePort!);
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const { port } = listener.address() as AddressInfo;
    try {
      const connect = `${HOST_PROCESS}.then((p) => p.getBuiltinModule("net").connect(${port}, "127.0.0.1"))`;
      await api.callTool("evaluate", { expression: connect });
      // Connections are accepted in the order they arrive: if the evaluation had connected, its
      // connection would be accepted before this probe's, made after the answer came back.
      const probe = connectTcp(port, "127.0.0.1");
      const probePort = await new Promise<number>((resolve) => probe.once("connect", () => resolve(probe.localPort!)));
      for (let i = 0; i < 500 && !accepted.includes(probePort); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      probe.destroy();
      expect(accepted).to.deep.equal([probePort]);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it("cannot signal the server (process.kill(process.ppid, 'SIGKILL'))", async function () {
    const kill = `${HOST_PROCESS}.then((p) => p.kill(p.ppid, "SIGKILL"))`;
    const result = await api.callTool("evaluate", { expression: kill });
    expect(text(result)).to.match(/^Promise \{ <rejected> /);
    expect(text(await api.callTool("evaluate", { expression: "'still serving'" }))).to.equal('"still serving"');
    expect(() => process.kill(session.child.pid!, 0), "the server process is alive").to.not.throw();
  });
});

describe("examples/node-introspection: evaluations at once", function () {
  const CAP = 2;
  const QUEUED = 4;
  let session: StatelessSession;
  let api: Api;

  before(async function () {
    session = await statelessSession("node-introspection", ["--timeout-ms", "100", "--max-evaluations", String(CAP), "--max-queued", String(QUEUED)]);
    api = statelessApi(session);
  });
  after(async function () {
    await api?.close();
  });

  it(`runs at most ${CAP} evaluators for 24 concurrent calls, queues ${QUEUED}, refuses the rest at once`, async function () {
    this.timeout(120_000);
    let answered = 0;
    const calls = Array.from({ length: 24 }, () => api.callTool("evaluate", { expression: "while (true) {}" }).finally(() => answered++));
    let most = 0;
    let samples = 0;
    // Samples the server's child processes (Linux /proc) until every call is answered.
    for (let i = 0; i < 6000 && answered < calls.length; i++) {
      const running = evaluatorsOf(session.child.pid!);
      most = Math.max(most, running);
      if (running > 0) samples++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const results = await Promise.all(calls);
    expect(samples, "evaluators were seen running").to.be.greaterThan(0);
    expect(most).to.be.at.most(CAP);
    const texts = results.map(text);
    expect(texts.filter((t) => t === "Evaluation stopped: it ran longer than the 100 ms limit")).to.have.length(CAP + QUEUED);
    expect(texts.filter((t) => t.startsWith("Evaluation refused: too many evaluations at once"))).to.have.length(24 - CAP - QUEUED);
    for (const result of results) expect(result.isError).to.equal(true);
  });
});

/**
 * The second wall, asserted on the process itself: a probe started exactly as an evaluator is
 * (EVALUATOR_LAUNCH) reports what the permission model lets it do and what environment it got, and
 * a live evaluator's /proc entry shows that evaluate() starts it so.
 */
describe("examples/node-introspection: the evaluator process's permissions and environment", function () {
  it("a process started as an evaluator may read only the evaluator's files, write nothing, start no process or worker, and has no environment", function () {
    this.timeout(60_000);
    const probe = `
      const fs = require("node:fs");
      const attempt = (f) => { try { f(); return "allowed"; } catch (e) { return e.code; } };
      const p = process.permission;
      console.log(JSON.stringify({
        permissionModel: typeof p?.has === "function",
        env: Object.keys(process.env),
        readsEvaluator: p?.has("fs.read", ${JSON.stringify(EVALUATOR_LAUNCH.script)}),
        readsServer: p?.has("fs.read", ${JSON.stringify(join(ROOT, "examples", "node-introspection", "server.ts"))}),
        readsEtc: p?.has("fs.read", "/etc/passwd"),
        readsRoot: p?.has("fs.read", "/"),
        writes: p?.has("fs.write"),
        children: p?.has("child"),
        workers: p?.has("worker"),
        readFile: attempt(() => fs.readFileSync("/etc/hostname")),
        writeFile: attempt(() => fs.writeFileSync(${JSON.stringify(join(tmpdir(), `evaluator-probe-${process.pid}`))}, "x")),
        spawn: attempt(() => require("node:child_process").spawnSync(process.execPath, ["-v"])),
      }));`;
    const run = spawnSync(process.execPath, [...EVALUATOR_LAUNCH.options, "-e", probe], { env: EVALUATOR_LAUNCH.env, encoding: "utf8", timeout: 50_000 });
    expect(run.status, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout)).to.deep.equal({
      permissionModel: true,
      env: [],
      readsEvaluator: true,
      readsServer: false,
      readsEtc: false,
      readsRoot: false,
      writes: false,
      children: false,
      workers: false,
      readFile: "ERR_ACCESS_DENIED",
      writeFile: "ERR_ACCESS_DENIED",
      spawn: "ERR_ACCESS_DENIED",
    });
  });

  it("evaluate() starts each evaluator that way: its command line is the launch's, its environment empty", async function () {
    this.timeout(120_000);
    const session = await statelessSession("node-introspection", ["--timeout-ms", "2000"]);
    const api = statelessApi(session);
    try {
      const call = api.callTool("evaluate", { expression: "for (;;) {}" });
      let seen: number[] = [];
      for (let i = 0; i < 2000 && seen.length === 0; i++) {
        seen = evaluatorPids(session.child.pid!);
        if (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(seen, "an evaluator was seen running").to.have.length(1);
      const pid = seen[0]!;
      expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean)).to.deep.equal([process.execPath, ...EVALUATOR_LAUNCH.options, EVALUATOR_LAUNCH.script]);
      expect(readFileSync(`/proc/${pid}/environ`, "utf8"), "the evaluator's environment").to.equal("");
      expect((await call).isError).to.equal(true);
    } finally {
      await api.close();
    }
  });
});

/** The evaluator processes `pid` started and that still run, read from /proc. */
function evaluatorsOf(pid: number): number {
  return evaluatorPids(pid).length;
}

function evaluatorPids(pid: number): number[] {
  const found: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let children: string[];
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    } catch {
      continue; // the thread ended meanwhile
    }
    for (const child of children) {
      try {
        if (readFileSync(`/proc/${child}/cmdline`, "utf8").includes("evaluator")) found.push(Number(child));
      } catch {
        // the evaluator ended meanwhile
      }
    }
  }
  return found;
}
