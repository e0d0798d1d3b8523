// Session-era state shared by every instance (issue 13): the same contract in memory and in a
// real redis-server, where two connections stand for two instances.
import { expect } from "chai";
import { connectRedis, type RedisConnection } from "../../../runtime/stores/redis-connection.js";
import { RedisSessionStore } from "../../../runtime/stores/redis-session-store.js";
import { MemorySessionStore, type SessionStore } from "../../../runtime/stores/session-store.js";
import { startRedis, type RedisServer } from "../../support/redis-server.js";

const RECORD = {
  revision: "2025-11-25",
  clientInfo: { name: "client", version: "1.0.0" },
  clientCapabilities: { roots: { listChanged: true }, elicitation: {} },
};

describe("stores: session stores", () => {
  let redis: RedisServer;
  const connections: RedisConnection[] = [];
  let n = 0;
  before(async () => {
    redis = await startRedis();
    connections.push(await connectRedis(redis.url), await connectRedis(redis.url));
  });
  after(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    await redis?.stop();
  });

  const contract = (name: string, make: () => [SessionStore, SessionStore]) =>
    describe(name, () => {
      it("keeps what a session negotiated, its log level and its subscriptions, for every instance", async () => {
        const [a, b] = make();
        await a.create("s1", RECORD, 60_000);
        expect(await b.get("s1")).to.deep.equal({ ...RECORD, subscriptions: [], version: 0 });
        expect(await b.setLogLevel("s1", "warning")).to.equal(true);
        expect(await a.subscribe("s1", "file:///a")).to.equal(true);
        expect(await b.subscribe("s1", "file:///b")).to.equal(true);
        expect(await b.subscribe("s1", "file:///a"), "subscribing twice keeps one").to.equal(true);
        expect(await a.get("s1"), "every change moved the version on").to.deep.equal({ ...RECORD, logLevel: "warning", subscriptions: ["file:///a", "file:///b"], version: 4 });
        expect(await a.unsubscribe("s1", "file:///a")).to.equal(true);
        expect((await b.get("s1"))!.subscriptions).to.deep.equal(["file:///b"]);
      });

      it("touchVersion keeps the session and says its version, which only changes move on; undefined once it is gone", async () => {
        const [a, b] = make();
        await a.create("v1", RECORD, 60_000);
        expect(await b.touchVersion!("v1", 60_000)).to.equal(0);
        expect(await b.touchVersion!("v1", 60_000), "a touch is no change").to.equal(0);
        await a.setLogLevel("v1", "debug");
        expect(await b.touchVersion!("v1", 60_000)).to.equal(1);
        await b.unsubscribe("v1", "file:///none");
        expect(await a.touchVersion!("v1", 60_000)).to.equal(2);
        expect((await a.get("v1"))!.version).to.equal(2);
        await b.delete("v1");
        expect(await a.touchVersion!("v1", 60_000)).to.equal(undefined);
        expect(await a.touchVersion!("nobody", 60_000)).to.equal(undefined);
        expect(await a.get("nobody"), "touching an unknown session does not create it").to.equal(undefined);
      });

      it("loses no subscription when instances change one session at the same time", async () => {
        const [a, b] = make();
        await a.create("s2", RECORD, 60_000);
        const uris = Array.from({ length: 20 }, (_, i) => `res://${i}`);
        await Promise.all(uris.map((uri, i) => (i % 2 ? a : b).subscribe("s2", uri)));
        expect((await a.get("s2"))!.subscriptions).to.deep.equal([...uris].sort());
      });

      it("answers undefined or false for an unknown or deleted session, and writes nothing for it", async () => {
        const [a, b] = make();
        expect(await a.get("nobody")).to.equal(undefined);
        for (const change of [a.touch("nobody", 1000), a.setLogLevel("nobody", "info"), a.subscribe("nobody", "x:"), a.unsubscribe("nobody", "x:")])
          expect(await change).to.equal(false);
        expect(await b.get("nobody"), "a change to an unknown session does not create it").to.equal(undefined);
        await a.create("s3", RECORD, 60_000);
        await b.delete("s3");
        expect(await a.get("s3")).to.equal(undefined);
      });

      it("forgets a session its ttl after the last touch", async () => {
        const [a, b] = make();
        await a.create("s4", RECORD, 60_000);
        await a.subscribe("s4", "file:///a");
        expect(await b.touch("s4", 30)).to.equal(true);
        let gone = false;
        for (let i = 0; i < 1000 && !gone; i++) {
          gone = (await a.get("s4")) === undefined;
          if (!gone) await new Promise((resolve) => setTimeout(resolve, 5));
        }
        expect(gone).to.equal(true);
        expect(await a.subscribe("s4", "file:///b")).to.equal(false);
      });
    });

  contract("MemorySessionStore", () => {
    const store = new MemorySessionStore();
    return [store, store];
  });
  contract("RedisSessionStore (two connections)", () => {
    const prefix = `t${++n}:`;
    return [new RedisSessionStore(connections[0]!.commands, prefix), new RedisSessionStore(connections[1]!.commands, prefix)];
  });

  it("RedisSessionStore: the subscriptions expire with the session", async () => {
    const { commands } = connections[0]!;
    const store = new RedisSessionStore(commands, "ttl:");
    await store.create("s", RECORD, 60_000);
    await store.subscribe("s", "file:///a");
    const [hash, set] = [Number(await commands.sendCommand(["PTTL", "ttl:session:{s}"])), Number(await commands.sendCommand(["PTTL", "ttl:session:{s}:subscriptions"]))];
    expect(hash).to.be.within(1, 60_000);
    // Both carry the session's ttl: the set's is (re)set when a subscription is added, so it may be the later of the two.
    expect(set).to.be.within(1, 60_000);
  });
});
