import { expect } from "chai";
import { execFile, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { postMessage } from "../../examples/message-bridge/queue.js";
import {
  ERAS,
  WAIT_MS,
  connect,
  connectHttp,
  exampleCommand,
  httpServer,
  rejection,
  sdkApi,
  sdkSession,
  text,
  type Api,
  type HttpServer,
  type SdkSession,
  type StatelessSession,
} from "./support.js";

const run = promisify(execFile);
const INBOX = "inbox://messages";
const NEWS = "New message from the editor";

/** post-message.ts, as an editor runs it: its own process. */
async function post(queue: string, file: string, line: string, comment: string): Promise<string> {
  const { command, args } = exampleCommand("message-bridge", "post-message.ts", ["--queue", queue, "--file", file, "--line", line, "--comment", comment]);
  return (await run(command, args, { timeout: 30_000 })).stdout;
}

interface Delivered {
  file: string;
  line: number;
  comment: string;
  postedAt: string;
}

function delivered(result: { structuredContent?: unknown }): Delivered[] {
  return (result.structuredContent as { messages: Delivered[] }).messages;
}

async function tempQueue(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), "mcp-example-bridge-")), "queue");
}

for (const { era, label } of ERAS) {
  describe(`examples/message-bridge, ${label}`, function () {
    let queue: string;
    let api: Api;
    let sdk: SdkSession | undefined;
    let stateless: StatelessSession | undefined;
    const logs = () => api.notifications.of("notifications/message").filter((p) => p.data === NEWS);
    const updates = () => api.notifications.of("notifications/resources/updated").filter((p) => p.uri === INBOX);

    before(async function () {
      queue = await tempQueue();
      ({ api, sdk, stateless } = await connect(era, "message-bridge", ["--queue", queue]));
    });
    after(async function () {
      await api?.close();
      await rm(join(queue, ".."), { recursive: true, force: true });
    });

    it("lists check_messages and inbox://messages", async function () {
      if (sdk) expect(sdk.transport.protocolVersion, "negotiated by the SDK client").to.equal("2025-11-25");
      expect((await api.listTools()).map((t) => t.name)).to.deep.equal(["check_messages"]);
      expect((await api.listResources()).map((r) => [r.uri, r.mimeType])).to.deep.equal([[INBOX, "text/plain"]]);
    });

    it('answers "No new messages" when the queue is empty', async function () {
      const result = await api.callTool("check_messages", {});
      expect(result.isError).to.not.equal(true);
      expect(text(result)).to.equal("No new messages");
      expect(delivered(result)).to.deep.equal([]);
      expect((await api.readResource(INBOX)).contents[0]).to.deep.include({ uri: INBOX, mimeType: "text/plain", text: "No new messages" });
    });

    it("returns a posted message formatted, and consumes it", async function () {
      expect(await post(queue, "src/app.ts", "42", "Rename this variable")).to.match(/^queued \d{13}\.\d+\.[0-9a-f]{12}\.json in /);
      const result = await api.callTool("check_messages", {});
      expect(text(result)).to.equal("File: src/app.ts\nLine: 42\nComment: Rename this variable");
      expect(delivered(result)).to.have.length(1);
      expect(delivered(result)[0]).to.include({ file: "src/app.ts", line: 42, comment: "Rename this variable" });
      expect(text(await api.callTool("check_messages", {}))).to.equal("No new messages");
    });

    it("returns several messages oldest first, separated by a blank line", async function () {
      await post(queue, "a.ts", "1", "first");
      await post(queue, "b.ts", "2", "second: with | odd\ncharacters");
      const result = await api.callTool("check_messages", {});
      expect(text(result)).to.equal("File: a.ts\nLine: 1\nComment: first\n\nFile: b.ts\nLine: 2\nComment: second: with | odd\ncharacters");
    });

    if (era === "session") {
      it("sends resources/updated to an inbox subscriber and an info log for every new message", async function () {
        await sdk!.client.subscribeResource({ uri: INBOX });
        const [logsBefore, updatesBefore] = [logs().length, updates().length];
        await post(queue, "src/server.ts", "7", "Handle the error here");
        await api.notifications.wait("notifications/resources/updated", (p) => p.uri === INBOX, updatesBefore + 1);
        const log = await api.notifications.wait("notifications/message", (p) => p.data === NEWS, logsBefore + 1);
        expect(log).to.deep.equal({ level: "info", logger: "message-bridge", data: NEWS });
        await post(queue, "src/server.ts", "9", "And here");
        await api.notifications.wait("notifications/message", (p) => p.data === NEWS, logsBefore + 2);
        expect(updates().length - updatesBefore, "one update per message").to.equal(2);

        // Reading the inbox shows the messages without consuming them.
        expect((await api.readResource(INBOX)).contents[0]!.text).to.equal(
          "File: src/server.ts\nLine: 7\nComment: Handle the error here\n\nFile: src/server.ts\nLine: 9\nComment: And here",
        );
        expect(delivered(await api.callTool("check_messages", {}))).to.have.length(2);
        // Consuming changed the inbox too: one more update.
        await api.notifications.wait("notifications/resources/updated", (p) => p.uri === INBOX, updatesBefore + 3);
        expect(logs().length - logsBefore, "no log for consuming").to.equal(2);
      });

      it("stops the updates after resources/unsubscribe (the log still comes)", async function () {
        await sdk!.client.unsubscribeResource({ uri: INBOX });
        const [logsBefore, updatesBefore] = [logs().length, updates().length];
        await post(queue, "x.ts", "3", "unwatched");
        // The update would have been sent before the log, on the same stream.
        await api.notifications.wait("notifications/message", (p) => p.data === NEWS, logsBefore + 1);
        expect(updates().length).to.equal(updatesBefore);
        await api.callTool("check_messages", {});
      });
    } else {
      it("sends resources/updated on a subscriptions/listen stream for every new message", async function () {
        const subscription = stateless!.client.listen({ resourceSubscriptions: [INBOX] });
        try {
          expect(await subscription.acknowledged).to.deep.equal({ resourceSubscriptions: [INBOX] });
          const before = updates().length;
          await post(queue, "src/server.ts", "7", "Handle the error here");
          const update = await api.notifications.wait("notifications/resources/updated", (p) => p.uri === INBOX, before + 1);
          expect(update._meta).to.have.property("io.modelcontextprotocol/subscriptionId");
          await post(queue, "src/server.ts", "9", "And here");
          await api.notifications.wait("notifications/resources/updated", (p) => p.uri === INBOX, before + 2);
          expect((await api.readResource(INBOX)).contents[0]!.text).to.include("Comment: Handle the error here");

          // Logs only on a request that asks for them: one per message it delivers, none sent on arrival.
          const result = await api.callTool("check_messages", {}, { logLevel: "info" });
          expect(delivered(result)).to.have.length(2);
          expect(logs()).to.deep.equal([
            { level: "info", logger: "message-bridge", data: NEWS },
            { level: "info", logger: "message-bridge", data: NEWS },
          ]);
          await post(queue, "y.ts", "1", "no log asked");
          await api.notifications.wait("notifications/resources/updated", (p) => p.uri === INBOX, before + 4);
          expect(delivered(await api.callTool("check_messages", {}))).to.have.length(1);
          expect(logs()).to.have.length(2);
        } finally {
          subscription.close();
        }
      });
    }

    it("delivers each of several racing posts exactly once", async function () {
      const comments = ["one", "two", "three", "four"];
      await Promise.all(comments.map((comment, i) => post(queue, "race.ts", String(i + 1), comment)));
      const result = await api.callTool("check_messages", {});
      expect(
        delivered(result)
          .map((m) => m.comment)
          .sort(),
      ).to.deep.equal([...comments].sort());
      expect(text(await api.callTool("check_messages", {}))).to.equal("No new messages");
    });

    it("never reads a message still being written, and sets aside a file that is not a message", async function () {
      const half = `${Date.now()}.1.aaaaaaaaaaaa.json`;
      await writeFile(join(queue, "tmp", half), '{"file":"half.ts","line":1,"comm');
      const junk = `${Date.now()}.1.bbbbbbbbbbbb.json`;
      await writeFile(join(queue, "new", junk), "not json");
      const result = await api.callTool("check_messages", {});
      expect(text(result)).to.equal("No new messages");
      expect(await readdir(join(queue, "tmp"))).to.deep.equal([half]);
      const bad = await readdir(join(queue, "bad"));
      expect(bad).to.have.length(1);
      expect(bad[0]).to.match(new RegExp(`^(\\d+\\.)?${junk.replaceAll(".", "\\.")}$`));
    });
  });
}

describe("examples/message-bridge over Streamable HTTP (--http)", function () {
  let queue: string;
  let server: HttpServer;
  before(async function () {
    queue = await tempQueue();
    server = await httpServer("message-bridge", ["--queue", queue]);
  });
  after(async function () {
    await server?.stop();
    await rm(join(queue, ".."), { recursive: true, force: true });
  });

  for (const { era, label } of ERAS)
    it(`serves ${label}: resources/updated for a new message, then check_messages`, async function () {
      const { api, sdk, stateless } = await connectHttp(era, server.url);
      const subscription = stateless?.client.listen({ resourceSubscriptions: [INBOX] });
      try {
        if (sdk) await sdk.client.subscribeResource({ uri: INBOX });
        else await subscription!.acknowledged;
        await post(queue, "http.ts", "8", `posted for ${era}`);
        await api.notifications.wait("notifications/resources/updated", (p) => p.uri === INBOX);
        if (sdk) await api.notifications.wait("notifications/message", (p) => p.data === NEWS);
        const result = await api.callTool("check_messages", {}, { logLevel: "info" });
        expect(text(result)).to.equal(`File: http.ts\nLine: 8\nComment: posted for ${era}`);
        if (stateless) expect(api.notifications.of("notifications/message").map((p) => p.data)).to.deep.equal([NEWS]);
      } finally {
        subscription?.close();
        await api.close();
      }
    });
});

describe("examples/message-bridge: the CLI, restarts, and two servers on one queue", function () {
  let queue: string;
  beforeEach(async function () {
    queue = await tempQueue();
  });
  afterEach(async function () {
    await rm(join(queue, ".."), { recursive: true, force: true });
  });

  it("post-message refuses a missing or bad argument, with its usage, and queues nothing", async function () {
    for (const args of [
      ["--line", "1", "--comment", "c"],
      ["--file", "f", "--line", "0", "--comment", "c"],
      ["--file", "f", "--line", "x", "--comment", "c"],
      ["--file", "f", "--line", "1"],
      ["--file", "f", "--line", "1", "--comment", "c", "--colour", "red"],
    ]) {
      const { command, args: argv } = exampleCommand("message-bridge", "post-message.ts", ["--queue", queue, ...args]);
      const error = await rejection(run(command, argv, { timeout: 30_000 }));
      expect((error as { code?: unknown }).code, args.join(" ")).to.equal(2);
      expect((error as { stderr?: string }).stderr).to.include("usage: post-message.ts");
    }
    const queued = await readdir(join(queue, "new")).catch(() => []);
    expect(queued).to.deep.equal([]);
  });

  it("keeps messages across a restart, and does not deliver a consumed one again", async function () {
    await post(queue, "before.ts", "1", "posted while no server ran");
    const first = sdkApi(await sdkSession("message-bridge", ["--queue", queue]));
    try {
      expect(delivered(await first.callTool("check_messages", {})).map((m) => m.comment)).to.deep.equal(["posted while no server ran"]);
      await post(queue, "during.ts", "2", "posted, never checked");
    } finally {
      await first.close();
    }
    const second = sdkApi(await sdkSession("message-bridge", ["--queue", queue]));
    try {
      expect((await second.readResource(INBOX)).contents[0]!.text).to.equal("File: during.ts\nLine: 2\nComment: posted, never checked");
      expect(delivered(await second.callTool("check_messages", {})).map((m) => m.comment)).to.deep.equal(["posted, never checked"]);
    } finally {
      await second.close();
    }
  });

  it("gives back a message claimed by a server that died before delivering it", async function () {
    const name = await postMessage(queue, { file: "orphan.ts", line: 5, comment: "claimed, never delivered" });
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!; // a pid that has just exited
    await mkdir(join(queue, "cur"), { recursive: true });
    await rename(join(queue, "new", name), join(queue, "cur", `${dead}.${name}`));
    const api = sdkApi(await sdkSession("message-bridge", ["--queue", queue]));
    try {
      expect(delivered(await api.callTool("check_messages", {})).map((m) => m.comment)).to.deep.equal(["claimed, never delivered"]);
      expect(await readdir(join(queue, "cur"))).to.deep.equal([]);
    } finally {
      await api.close();
    }
  });

  it("delivers every message exactly once while posts race and two servers check concurrently", async function () {
    const servers = [sdkApi(await sdkSession("message-bridge", ["--queue", queue])), sdkApi(await sdkSession("message-bridge", ["--queue", queue]))];
    try {
      const total = 60;
      const received: Delivered[] = [];
      let posting = true;
      // Each server checks in a loop, four calls in flight each, until every message has arrived.
      const checkers = servers.flatMap((api) =>
        Array.from({ length: 4 }, async () => {
          const deadline = Date.now() + WAIT_MS;
          while ((posting || received.length < total) && Date.now() < deadline) received.push(...delivered(await api.callTool("check_messages", {})));
        }),
      );
      // The same code as the CLI, in-process so that 60 posts really race.
      await Promise.all(Array.from({ length: total }, (_, i) => postMessage(queue, { file: "race.ts", line: i + 1, comment: `message ${i + 1}` })));
      posting = false;
      await Promise.all(checkers);
      const lines = received.map((m) => m.line).sort((a, b) => a - b);
      expect(lines).to.deep.equal(Array.from({ length: total }, (_, i) => i + 1));
      expect(await readdir(join(queue, "new"))).to.deep.equal([]);
      expect(await readdir(join(queue, "cur"))).to.deep.equal([]);
    } finally {
      await Promise.all(servers.map((api) => api.close()));
    }
  });
});
