// Issue 12 item 13: a server fed by a pipe (`printf '...' | node server.js`) answers every request
// it read before EOF, then exits; a hung handler gets an error answer once the grace period is
// over and cannot keep the process alive.
import { expect } from "chai";
import { spawn } from "node:child_process";
import { join } from "node:path";

const SERVER = join(import.meta.dirname, "fixtures", "piped-server.ts");
const WAIT_MS = 60_000;

const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "sh", version: "1" } } };
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const call = (id: number, name: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });

/** `printf '%s\n' <lines> | node server`, through a real shell pipe; its stdout lines and exit code. */
function piped(lines: unknown[], env: Record<string, string> = {}): Promise<{ answers: any[]; code: number | null; signal: string | null }> {
  const script = `printf '%s\\n' "$@" | "${process.execPath}" --import tsx "${SERVER}"`;
  const child = spawn("sh", ["-c", script, "sh", ...lines.map((line) => JSON.stringify(line))], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (out += text));
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not exit within ${WAIT_MS} ms; it wrote: ${out}`));
    }, WAIT_MS);
    child.once("exit", (code, signal) => {
      clearTimeout(guard);
      resolve({ answers: out.split("\n").filter(Boolean).map((line) => JSON.parse(line)), code, signal });
    });
  });
}

describe("stdio: piped input, then EOF", function () {
  this.timeout(2 * WAIT_MS);

  it("answers initialize, tools/list and a slow tools/call read before EOF, in order, then exits 0", async () => {
    const { answers, code } = await piped([initialize, initialized, { jsonrpc: "2.0", id: 2, method: "tools/list" }, call(3, "slow")]);
    expect(answers.map((answer) => answer.id)).to.deep.equal([1, 2, 3]);
    expect(answers[0].result.protocolVersion).to.equal("2025-11-25");
    expect(answers[1].result.tools.map((tool: { name: string }) => tool.name)).to.deep.equal(["slow", "hang"]);
    expect(answers[2].result.content[0].text).to.equal("slow done");
    expect(code).to.equal(0);
  });

  it("answers a handler that hangs with -32603 once the grace period is over, still answers the others, and exits", async () => {
    const { answers, code } = await piped([initialize, initialized, call(2, "hang"), call(3, "slow")], { END_GRACE_MS: "5000" });
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    expect([...byId.keys()].sort()).to.deep.equal([1, 2, 3]);
    expect(byId.get(3).result.content[0].text).to.equal("slow done");
    expect(byId.get(2).error.code).to.equal(-32603);
    expect(byId.get(2).error.message).to.equal("Internal error: tools/call did not finish within 5000 ms of the input's end");
    // Its setInterval would have kept the process alive for good.
    expect(code).to.equal(0);
  });
});
