// A server runs at most `maxConcurrentRequests` of one connection's requests at once: a flood of
// calls to a slow tool costs a refusal each past the bound, not a handler each. (The client's side,
// a flood of sampling requests from a server: test/runtime/client/client.test.ts.)
import { expect } from "chai";
import { createServer } from "../../../runtime/index.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { RawPeer } from "../../support/features-server.js";
import { until } from "../../support/mcp.js";

describe("maxConcurrentRequests, served", () => {
  function server(maxConcurrentRequests?: number) {
    const release: (() => void)[] = [];
    let calls = 0;
    const s = createServer({ name: "busy", version: "1", logger: silentLogger, ...(maxConcurrentRequests !== undefined && { maxConcurrentRequests }) });
    s.tool({ name: "slow", inputSchema: { type: "object" } }, () => {
      calls++;
      return new Promise((resolve) => release.push(() => resolve({ content: [] })));
    });
    return { s, release, calls: () => calls };
  }

  it("refuses the request past the bound with -32603 and the bound, and takes one again once a call is answered", async () => {
    const { s, release, calls } = server(3);
    const peer = new RawPeer(s);
    const answers = Array.from({ length: 10 }, (_, i) => peer.stateless("tools/call", { name: "slow", arguments: {} }, {}, `c${i}`));
    await until(() => peer.received.length === 7 && calls() === 3, 2_000, "the refusals and three calls");
    for (const refusal of peer.received) {
      expect(refusal.error.code, JSON.stringify(refusal)).to.equal(-32603);
      expect(refusal.error.data).to.deep.equal({ maxConcurrentRequests: 3 });
      expect(refusal.error.message).to.contain("maxConcurrentRequests");
    }
    expect(peer.received.map((m) => m.id)).to.have.members(["c3", "c4", "c5", "c6", "c7", "c8", "c9"]);
    release.shift()!();
    expect((await answers[0]).result.content).to.deep.equal([]);
    const again = peer.stateless("tools/call", { name: "slow", arguments: {} }, {}, "again");
    await until(() => calls() === 4, 2_000, "the next call's handler");
    for (const go of release) go();
    expect((await again).result.content).to.deep.equal([]);
  });

  it("runs 1024 at once by default", async () => {
    const { s, release, calls } = server();
    const peer = new RawPeer(s);
    for (let i = 0; i < 1030; i++) void peer.stateless("tools/call", { name: "slow", arguments: {} }, {}, `c${i}`);
    await until(() => peer.received.length === 6 && calls() === 1024, 5_000, "the refusals and 1024 calls");
    expect(peer.received.map((m) => m.error.data)).to.deep.equal(Array(6).fill({ maxConcurrentRequests: 1024 }));
    for (const go of release) go();
  });
});
