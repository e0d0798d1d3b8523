// Issue 5's coverage list, checked: every method and notification of every generated revision,
// in each direction, has an entry in test/support/features-coverage.ts naming the feature tests
// that exercise it at that revision (or why it is not exercised), and every test named there
// exists, with a title that starts with that revision. A method added by a new revision, or a test
// renamed away, fails here. The tests are listed by `mocha --dry-run` over the feature files in a
// child, so the check holds however the suite is run (one file, serial, or --parallel).
//
// Also here: what "not supported" means for the tasks of 2025-11-25.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { expect } from "chai";
import { PROTOCOLS, REVISIONS, type Revision } from "../../../generated/index.js";
import { createServer, type McpServer } from "../../../runtime/index.js";
import { coverage, DIRECTIONS, type Direction } from "../../support/features-coverage.js";
import { initializeRaw, quiet, RawPeer, turn } from "../../support/features-server.js";
import { ROOT, runChild } from "../../support/project.js";

const FEATURES = join(ROOT, "test", "runtime", "features");

/** Every test of the feature files, "file.test.ts|title", as `mocha --dry-run` lists them (nothing runs). */
async function featureTests(): Promise<Set<string>> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-coverage-"));
  try {
    const output = join(dir, "tests.json");
    const files = readdirSync(FEATURES).filter((name) => name.endsWith(".test.ts"));
    const mocha = join(ROOT, "node_modules", "mocha", "bin", "mocha.js");
    const args = [mocha, "--no-config", "--node-option", "import=tsx", "--dry-run", "--reporter", "json", "--reporter-option", `output=${output}`, ...files.map((f) => join(FEATURES, f))];
    const run = await runChild(process.execPath, args, { cwd: ROOT, timeoutMs: 110_000 });
    expect(run.status, `mocha --dry-run of the feature files:\n${run.stderr}`).to.equal(0);
    const { tests } = JSON.parse(readFileSync(output, "utf8")) as { tests: { title: string; file: string }[] };
    return new Set(tests.map((test) => `${basename(test.file)}|${test.title}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function generatedMethods(revision: Revision, direction: Direction): readonly string[] {
  return (PROTOCOLS[revision] as unknown as Record<string, readonly string[]>)[DIRECTIONS[direction]] ?? [];
}

describe("features: coverage of every method of every revision", () => {
  it("every generated method and notification, in every direction, has a coverage entry, and nothing else does", () => {
    const problems: string[] = [];
    for (const revision of REVISIONS) {
      const table = coverage(revision);
      for (const direction of Object.keys(DIRECTIONS) as Direction[]) {
        const generated = generatedMethods(revision, direction);
        expect(generated, `${revision} ${DIRECTIONS[direction]} is generated`).to.be.an("array");
        const listed = Object.keys(table[direction]);
        for (const method of generated) if (!listed.includes(method)) problems.push(`${revision} ${direction} ${method}: no coverage entry`);
        for (const method of listed)
          if (!generated.includes(method)) problems.push(`${revision} ${direction} ${method}: listed, but not a method of the revision`);
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it("every test the coverage list names exists and runs at that revision; every entry says what covers it or why nothing does", async function () {
    this.timeout(120_000);
    const loaded = await featureTests();
    const featureFiles = new Set([...loaded].map((key) => key.split("|")[0]));
    for (const file of [
      "progress.test.ts",
      "cancellation.test.ts",
      "logging.test.ts",
      "completion.test.ts",
      "pagination.test.ts",
      "subscriptions.test.ts",
      "asking-the-client.test.ts",
    ])
      expect(featureFiles.has(file), `${file} lists no test`).to.equal(true);

    const problems: string[] = [];
    for (const revision of REVISIONS) {
      const table = coverage(revision);
      for (const [direction, entries] of Object.entries(table))
        for (const [method, entry] of Object.entries(entries)) {
          const where = `${revision} ${direction} ${method}`;
          if ("none" in entry) {
            if (entry.none.length < 20) problems.push(`${where}: say why it is not exercised`);
            continue;
          }
          if (entry.tests.length === 0) problems.push(`${where}: no test`);
          for (const [file, title] of entry.tests) {
            if (!loaded.has(`${file}|${title}`)) problems.push(`${where}: no test "${title}" in ${file}`);
            if (!title.startsWith(`${revision} `)) problems.push(`${where}: "${title}" does not run at ${revision}`);
          }
        }
    }
    expect(problems).to.deep.equal([]);
  });

  describe("tasks (2025-11-25) are not supported", () => {
    let server: McpServer;
    afterEach(() => server.close());

    it("2025-11-25 raw: tasks are not supported: no tasks capability, tasks/* are -32601, a task-augmented call is answered in place", async () => {
      const notified: string[] = [];
      server = createServer({
        name: "no-tasks",
        version: "1.0.0",
        logger: quiet,
        revisions: ["2025-11-25"],
        onNotification: (method) => notified.push(method),
      });
      server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "in place" }] }));
      const peer = new RawPeer(server);
      const initialized = await initializeRaw(peer, "2025-11-25", { tasks: { requests: { sampling: { createMessage: {} } } } });
      expect(initialized.capabilities).to.not.have.property("tasks");
      for (const [method, params] of [
        ["tasks/get", { taskId: "t-1" }],
        ["tasks/result", { taskId: "t-1" }],
        ["tasks/cancel", { taskId: "t-1" }],
        ["tasks/list", {}],
      ] as const) {
        const response = await peer.request(method, params);
        expect(response.error?.code, method).to.equal(-32601);
      }
      // A receiver that does not support tasks processes a task-augmented request normally.
      const call = await peer.request("tools/call", { name: "echo", arguments: {}, task: { ttl: 60_000 } });
      expect(call.result).to.deep.equal({ content: [{ type: "text", text: "in place" }] });
      // notifications/tasks/status from the client: no reply; it is handed on like any notification the runtime does not consume.
      await peer.send({
        jsonrpc: "2.0",
        method: "notifications/tasks/status",
        params: { taskId: "t-1", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttl: null },
      });
      await turn();
      const pong = await peer.request("ping", {}, "after");
      expect(pong.result).to.deep.equal({});
      expect(notified).to.deep.equal(["notifications/tasks/status"]);
      expect(
        peer.received.filter((m) => m.method !== undefined),
        "the server sent no tasks notifications or requests",
      ).to.deep.equal([]);
      await peer.close();
    });
  });
});
