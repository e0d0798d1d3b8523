// Serving an extension from its generated module (server.useExtension / createServer({ extensions })):
// negotiated under capabilities.extensions in both eras, its methods dispatched and checked by the
// module's generated validators (-32602 with the issue's path, -32603 for a bad result), and
// McpClient.requestExtension typed and checked by the same module. The tasks extension is the
// module; the semantics of tasks are not this file's (the handlers here are plain).
import { expect } from "chai";
import { extensionModule as tasks } from "../../../generated/extensions/tasks/module.js";
import type { GetTaskResult } from "../../../generated/extensions/tasks/types.js";
import { clientExtension, createMemoryPair, createServer, McpClient, type RequestContext } from "../../../runtime/index.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { quiet, rejectionOf } from "../../support/features-server.js";

const ID = "io.modelcontextprotocol/tasks";
/**
 * 2025-11-25 defines tasks/* in its core (experimental tasks, another shape): a server of it and
 * of the extension types tasks/get by both, which is the tasks issue's to reconcile. Here: a
 * session-era revision without core tasks, and 2026-07-28.
 */
const REVISIONS = ["2025-06-18", "2026-07-28"] as const;
const NOW = "2026-11-23T15:00:00Z";

/** A tasks/get answer for `taskId`, as the extension's schema requires it. */
function working(taskId: string): GetTaskResult {
  return { resultType: "complete", taskId, status: "working", createdAt: NOW, lastUpdatedAt: NOW, ttlMs: 60_000, pollIntervalMs: 500 };
}

/** What each tasks/get handler call saw of the client's declaration. */
type Seen = (Record<string, unknown> | undefined)[];

function newServer(seen: Seen, options: { validateResults?: boolean } = {}) {
  const server = createServer({ name: "ext", version: "1.0.0", logger: quiet, revisions: REVISIONS, extensions: [tasks], ...options });
  server.handle("tasks/get", (params, context: RequestContext) => {
    seen.push(clientExtension(context, ID));
    // Typed by the generated module: params.taskId is a string.
    const id: string = params.taskId;
    return id === "bad-result" ? ({ ...working(id), status: "sleeping" } as unknown as GetTaskResult) : working(id);
  });
  server.handle("tasks/cancel", () => ({ resultType: "complete" as const }));
  return server;
}

async function connect(server: ReturnType<typeof newServer>, revision: string, declare = true): Promise<McpClient> {
  const [clientEnd, serverEnd] = createMemoryPair();
  await server.listen(serverEnd);
  return McpClient.connect(clientEnd, { name: "ext-client", version: "0.1.0", revision, logger: silentLogger, ...(declare ? { extensions: [tasks] } : { tasks: false }) });
}

describe("runtime/server/extensions: an extension served from its generated module", () => {
  for (const revision of REVISIONS)
    describe(revision, () => {
      it(`negotiates ${ID} under capabilities.extensions (${revision === "2026-07-28" ? "server/discover and the request's _meta" : "initialize"})`, async () => {
        const seen: Seen = [];
        const server = newServer(seen);
        const declaring = await connect(server, revision);
        const silent = await connect(server, revision, false);
        try {
          expect(declaring.serverCapabilities).to.have.nested.property(`extensions.${ID.replaceAll(".", "\\.")}`);
          expect(declaring.serverExtension(ID)).to.deep.equal({});
          expect(declaring.serverExtension("com.example/other")).to.equal(undefined);
          await declaring.requestExtension(tasks, "tasks/get", { taskId: "t1" });
          await silent.requestExtension(tasks, "tasks/get", { taskId: "t2" });
          // The handler sees what each client declared: {} for the one that did, nothing for the other.
          expect(seen).to.deep.equal([{}, undefined]);
        } finally {
          await declaring.close();
          await silent.close();
          await server.close();
        }
      });

      it("dispatches a method through the generated validators: a round trip, -32602 with the path of bad params, -32603 for a bad result", async () => {
        const seen: Seen = [];
        const server = newServer(seen);
        const client = await connect(server, revision);
        try {
          const result = await client.requestExtension(tasks, "tasks/get", { taskId: "t1" });
          expect(result).to.include({ resultType: "complete", taskId: "t1", status: "working", ttlMs: 60_000 });
          expect(await client.requestExtension(tasks, "tasks/cancel", { taskId: "t1" })).to.include({ resultType: "complete" });

          const badParams = await rejectionOf(client.request("tasks/get", { taskId: 5 }));
          expect(badParams.code).to.equal(-32602);
          expect(badParams.message).to.contain("tasks/get").and.to.contain("/params/taskId");
          expect(badParams.data.issues[0]).to.include({ path: "/params/taskId" });
          const missing = await rejectionOf(client.request("tasks/get", {}));
          expect(missing.code).to.equal(-32602);
          expect(missing.data.issues.map((issue: { path: string; message: string }) => `${issue.path} ${issue.message}`).join("\n")).to.contain("taskId");

          const badResult = await rejectionOf(client.requestExtension(tasks, "tasks/get", { taskId: "bad-result" }));
          expect(badResult.code).to.equal(-32603);
          expect(badResult.message).to.contain("tasks/get").and.to.contain("GetTaskResult");

          // A method of the extension with no handler here: 2026-07-28, the runtime's own tasks/update
          // (runtime/tasks), which knows no task t1 (-32602); 2025-06-18 has no tasks (-32601).
          expect((await rejectionOf(client.request("tasks/update", { taskId: "t1", inputResponses: {} }))).code).to.equal(revision === "2026-07-28" ? -32602 : -32601);
        } finally {
          await client.close();
          await server.close();
        }
      });

      it("McpClient checks the result by the extension's validators, and refuses an extension the server did not declare", async () => {
        const server = newServer([], { validateResults: false });
        const client = await connect(server, revision);
        const bare = createServer({ name: "bare", version: "1.0.0", logger: quiet });
        const [clientEnd, serverEnd] = createMemoryPair();
        await bare.listen(serverEnd);
        const other = await McpClient.connect(clientEnd, { name: "c", version: "1", revision, logger: silentLogger, extensions: [tasks] });
        try {
          const invalid = await rejectionOf(client.requestExtension(tasks, "tasks/get", { taskId: "bad-result" }));
          expect(invalid.code).to.equal(-32603);
          expect(invalid.message).to.contain("not a valid GetTaskResult of MCP io.modelcontextprotocol/tasks");
          // status "sleeping" fits no DetailedTask variant: the issue points at the union in the extension's schema.
          expect(invalid.data.issues[0]).to.include({ path: "", keyword: "anyOf", schemaPath: "#/$defs/GetTaskResult/allOf/1/anyOf" });
          const undeclared = await rejectionOf(other.requestExtension(tasks, "tasks/get", { taskId: "t1" }));
          expect(undeclared.message).to.contain(`did not declare the extension ${ID}`);
        } finally {
          await client.close();
          await other.close();
          await server.close();
          await bare.close();
        }
      });
    });

  it("types handlers and calls by the module (compile-time checks, never run)", () => {
    const typed = () => {
      const server = createServer({ name: "t", version: "1", revisions: REVISIONS, extensions: [tasks] });
      // @ts-expect-error a tasks/get handler must return a GetTaskResult
      server.handle("tasks/get", () => ({ resultType: "complete" }));
      // @ts-expect-error tasks/get takes a taskId string
      server.handle("tasks/get", (params) => working(params.taskId.toFixed()));
      const later = createServer({ name: "t", version: "1", revisions: REVISIONS }).useExtension(tasks);
      later.handle("tasks/cancel", (params) => ({ resultType: "complete" as const, _meta: { id: params.taskId } }));
      return async (client: McpClient) => {
        const result = await client.requestExtension(tasks, "tasks/get", { taskId: "x" });
        const status: "working" | "input_required" | "completed" | "failed" | "cancelled" = result.status;
        // @ts-expect-error tasks/get needs its taskId
        await client.requestExtension(tasks, "tasks/get", {});
        return status;
      };
    };
    expect(typed).to.be.a("function");
  });

  it("takes over a handler registered before the extension: checked by the module from then on", async () => {
    const server = createServer({ name: "late", version: "1.0.0", logger: quiet, revisions: ["2026-07-28"] });
    server.handle("tasks/cancel" as never, (() => ({ resultType: "complete" })) as never);
    server.useExtension(tasks);
    const client = await connect(server as ReturnType<typeof newServer>, "2026-07-28");
    try {
      expect(await client.requestExtension(tasks, "tasks/cancel", { taskId: "t1" })).to.include({ resultType: "complete" });
      const bad = await rejectionOf(client.request("tasks/cancel", {}));
      expect(bad.code).to.equal(-32602);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("refuses a second module under the same identifier", () => {
    const server = createServer({ name: "t", version: "1", logger: quiet, extensions: [tasks] });
    expect(() => server.useExtension({ ...tasks })).to.throw(/already served by another module/);
  });
});
