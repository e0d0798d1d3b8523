// Our McpClient against the reference @modelcontextprotocol/server-everything (tools/interop), over
// stdio, at every session-era revision, with validate "strict" and "warn". The server is built on
// SDK v1 and sends newer shapes at older revisions (resource_link content at 2025-03-26): "strict"
// refuses them with a path to the field, "warn" logs and passes them through.
import { expect } from "chai";
import { McpClient, spawnStdio, type Revision } from "../../runtime/index.js";
import { SESSION_REVISIONS } from "../support/mcp.js";
import { interopPeers } from "./support/peers.js";

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** resource_link content exists from 2025-06-18 on; so does elicitation/create. */
const HAS_2025_06_18 = (revision: string) => revision >= "2025-06-18";

describe("interop: our McpClient against server-everything, every session revision", function () {
  let peers: Any;
  before(async function () {
    peers = await interopPeers(this);
  });

  for (const revision of SESSION_REVISIONS)
    for (const validate of ["strict", "warn"] as const)
      it(`${revision}, validate "${validate}"`, async () => {
        const warnings: string[] = [];
        const elicited: unknown[] = [];
        const transport = await spawnStdio(process.execPath, [peers.SERVER_EVERYTHING, "stdio"], { stderr: "ignore" });
        const client = await McpClient.connect(transport, {
          name: "ours",
          version: "1.0.0",
          revision: revision as Revision,
          validate,
          logger: (level, text) => void (level === "warn" && warnings.push(text)),
          handlers: {
            elicitation: (params) => (elicited.push(params), { action: "decline" }),
            sampling: () => ({ role: "assistant", content: { type: "text", text: "sampled" }, model: "none" }),
            roots: () => ({ roots: [] }),
          },
        });
        try {
          expect(client.revision).to.equal(revision);
          const tools = (await client.listTools({ all: true })).items.map((t) => t.name);
          expect(tools).to.include("echo");
          // The server lists this tool only to clients that declared elicitation: we declare it only where the revision defines it.
          expect(tools.includes("trigger-elicitation-request"), "elicitation declared").to.equal(HAS_2025_06_18(revision));
          expect((await client.callTool("echo", { message: "hi" })).content).to.deep.equal([{ type: "text", text: "Echo: hi" }]);

          const links = client.callTool("get-resource-links", { count: 2 });
          if (HAS_2025_06_18(revision) || validate === "warn") {
            const content = (await links).content as { type: string }[];
            expect(content.some((c) => c.type === "resource_link")).to.equal(true);
            expect(warnings.some((w) => w.includes("resource_link") || w.includes("/content/"))).to.equal(!HAS_2025_06_18(revision));
          } else {
            const error: Any = await links.then(
              () => expect.fail("strict validation accepted resource_link content at an older revision"),
              (e: unknown) => e,
            );
            expect(error.code).to.equal(-32603);
            expect(error.message).to.match(/CallToolResult of MCP \d{4}-\d{2}-\d{2}: \/content\/\d+/);
            expect(error.message).to.not.match(/more\)/); // "(and N more issues)": the count reads as issues
          }

          if (HAS_2025_06_18(revision)) {
            const result = (await client.callTool("trigger-elicitation-request", {})) as Any;
            const said = JSON.stringify(result.content);
            // At 2025-06-18 the server's form uses 2025-11-25 enum shapes: "strict" refuses it with -32602, "warn" answers.
            if (validate === "warn" || revision >= "2025-11-25") {
              expect(elicited).to.have.length(1);
              expect(said).to.match(/decline/i);
            } else {
              expect(elicited).to.have.length(0);
              expect(said).to.match(/-32602|Invalid params/i);
            }
          }
        } finally {
          await client.close();
        }
      });
});

describe("interop: our McpClient follows server-everything's task through input_required, 2025-11-25", function () {
  let peers: Any;
  before(async function () {
    peers = await interopPeers(this);
  });

  // The research tool parks its task in input_required and queues its question for tasks/result
  // (the tasks specification, "Input Required Status"): a client that only polls tasks/get waits out the ttl.
  it("simulate-research-query with ambiguous: true completes, its elicitation answered by the handlers", async () => {
    const elicited: Any[] = [];
    const transport = await spawnStdio(process.execPath, [peers.SERVER_EVERYTHING, "stdio"], { stderr: "ignore" });
    const client = await McpClient.connect(transport, {
      name: "ours",
      version: "1.0.0",
      revision: "2025-11-25",
      handlers: { elicitation: (params) => (elicited.push(params), { action: "accept", content: { interpretation: "snake" } }) },
    });
    try {
      let taskId: string | undefined;
      const result = (await client.callTool("simulate-research-query", { topic: "python", ambiguous: true }, { task: { ttl: 60_000 }, onTask: (id) => (taskId = id) })) as Any;
      expect(taskId).to.be.a("string");
      expect(elicited).to.have.length(1);
      expect(elicited[0]._meta?.["io.modelcontextprotocol/related-task"]).to.deep.equal({ taskId });
      expect(result.content[0].text).to.include("**Clarification**: snake");
      expect((await client.getTask(taskId!)).status).to.equal("completed");
    } finally {
      await client.close();
    }
  });
});
