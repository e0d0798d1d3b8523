// McpClient.connect over stdio to a server that answers nothing: the era probes share
// connectTimeoutMs (not two requestTimeoutMs), the error says the server answered nothing in that
// time, and the lines it wrote that are not JSON-RPC are counted and the first quoted, once.
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import { McpClient, spawnStdio, type LogLevel } from "../../../runtime/index.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { rejection, tsxArgs } from "../../support/mcp.js";
import { BANNER } from "./fixtures/banner.js";

const CHATTY = fileURLToPath(new URL("./fixtures/chatty-server.ts", import.meta.url));
const spawn = (mode: "silent" | "serve" | "initialize-only") => spawnStdio(process.execPath, tsxArgs(CHATTY, mode), { stderr: "ignore", exitTimeoutMs: 5_000 });
/** The first banner line as the client quotes it: 80 characters, then an ellipsis. */
const QUOTED = `"${BANNER[0]!.slice(0, 80)}…"`;

describe("McpClient.connect: a server that answers nothing", () => {
  it("auto: both probes within connectTimeoutMs, then an error naming the time, both probes and the lines that are not JSON-RPC", async () => {
    const error = await rejection(McpClient.connect(await spawn("silent"), { name: "c", version: "1", connectTimeoutMs: 1_500, logger: silentLogger }));
    expect(error.code).to.equal(-32001);
    expect(error.data).to.deep.equal({ timeout: 1_500 });
    expect(error.message).to.contain("the server answered nothing within 1500 ms (connectTimeoutMs)");
    expect(error.message).to.contain("server/discover at 2026-07-28").and.contain("initialize at 2025-11-25");
    expect(error.message).to.contain(`it wrote 3 lines that are not JSON-RPC; the first: ${QUOTED}`);
  });

  it("auto: a server that never answers server/discover still gets initialize, in the time discover left it", async () => {
    const client = await McpClient.connect(await spawn("initialize-only"), { name: "c", version: "1", connectTimeoutMs: 4_000, logger: silentLogger });
    try {
      expect(client.era).to.equal("session");
      expect(client.revision).to.equal("2025-11-25");
    } finally {
      await client.close();
    }
  });

  it("at a revision given: the one initialize gets the whole time", async () => {
    const error = await rejection(McpClient.connect(await spawn("silent"), { name: "c", version: "1", revision: "2025-11-25", connectTimeoutMs: 1_000, logger: silentLogger }));
    expect(error.code).to.equal(-32001);
    expect(error.message).to.contain("the server answered nothing within 1000 ms (connectTimeoutMs): initialize at 2025-11-25");
  });

  it("a server that answers after its banner: connected, and the lines that are not JSON-RPC logged once", async () => {
    const logged: [LogLevel, string][] = [];
    const client = await McpClient.connect(await spawn("serve"), { name: "c", version: "1", revision: "2025-11-25", logger: (level, message) => logged.push([level, message]) });
    try {
      await client.ping();
      const about = logged.filter(([, message]) => message.includes("not JSON-RPC"));
      expect(about).to.deep.equal([["warn", `the server wrote 3 lines that are not JSON-RPC; the first: ${QUOTED}`]]);
    } finally {
      await client.close();
    }
  });

  it("after connect: lines that are not JSON-RPC are logged, the first and then at ten times as many; a message cut short by the server's exit is named", async () => {
    const logged: [LogLevel, string][] = [];
    const client = await McpClient.connect(await spawn("serve"), { name: "c", version: "1", revision: "2025-11-25", logger: (level, message) => logged.push([level, message]) });
    const about = () => logged.filter(([, message]) => message.startsWith("the server has written")).map(([, message]) => message);
    try {
      await client.callTool("babble", { lines: 1 }); // the 4th line: logged
      await client.callTool("babble", { lines: 36 }); // up to the 40th: logged once, at the 40th
      await client.ping();
      expect(about()).to.deep.equal([
        `the server has written 4 lines that are not JSON-RPC; the last: ${QUOTED} (${parseMessage(BANNER[0]!)})`,
        `the server has written 40 lines that are not JSON-RPC; the last: ${JSON.stringify(BANNER[35 % 3])} (${parseMessage(BANNER[35 % 3]!)})`,
      ]);
      logged.length = 0;
      await rejection(client.callTool("die", {}));
      expect(about()).to.have.length(1);
      expect(about()[0]).to.match(/^the server has written 41 lines that are not JSON-RPC; the last: "\{\\"jsonrpc\\":\\"2.0\\",\\"id\\":" \(the input ended in the middle of a line of 22 bytes \(/);
    } finally {
      await client.close();
    }
  });
});

/** What JSON.parse says of `line`. */
function parseMessage(line: string): string {
  try {
    JSON.parse(line);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${line} is JSON`);
}
