/**
 * 2025-11-25's core `tasks` capability in a fresh process: the server answers its first initialize
 * from the revision's start-up module, before the full module is loaded, and must advertise tasks
 * there too (it read the capability from the loaded module only: the first session of every
 * process, every Workers isolate, lacked it, while the server ran task-augmented calls anyway).
 * A child process: this one has loaded every module already.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { ROOT } from "../../../support/project.js";

const SCRIPT = `
import { createServer } from ${JSON.stringify(pathToFileURL(join(ROOT, "runtime", "index.ts")).href)};
import { createMemoryPair } from ${JSON.stringify(pathToFileURL(join(ROOT, "runtime", "transports", "memory.ts")).href)};
const server = createServer({ name: "fresh", version: "1.0.0", logger: () => {} });
server.tool({ name: "slow", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } }, () => ({ content: [] }));
const [serverEnd, clientEnd] = createMemoryPair();
server.connect(serverEnd);
const answers = [];
clientEnd.start({ message: (m) => answers.push(m), problem() {}, closed() {} });
const initialize = (id) => clientEnd.send({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
await initialize(1);
while (answers.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
console.log(JSON.stringify(answers[0].result.capabilities.tasks ?? null));
process.exit(0);
`;

describe("extensions/tasks: 2025-11-25's tasks capability in a fresh process", function () {
  this.timeout(60_000);
  it("the first initialize of the process advertises tasks when a tool supports them", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SCRIPT], { cwd: ROOT, encoding: "utf8", timeout: 50_000 });
    expect(run.status, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout.trim())).to.deep.equal({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });
});
