// server.handle: a method no served revision defines (an extension's), served with the JSON
// Schemas it was registered with, in both eras; and the methods the runtime answers itself refused.
import { expect } from "chai";
import { ERAS, FEATURES, REVISIONS } from "../../../generated/registry.js";
import { PROTOCOLS } from "../../../generated/index.js";
import { createServer } from "../../../runtime/index.js";
import { quiet, RawPeer, rejectionOf } from "../../support/features-server.js";
import { connectClient } from "../../support/mcp.js";

const CLIENT_REQUESTS: Record<string, readonly string[]> = Object.fromEntries(Object.entries(PROTOCOLS).map(([r, m]) => [r, m.CLIENT_REQUEST_METHODS]));

/** Whether `run` is refused as a method the runtime serves itself. */
function throws(run: () => unknown): boolean {
  try {
    run();
    return false;
  } catch (error) {
    expect((error as Error).message).to.match(/served by the runtime itself/);
    return true;
  }
}

const PARAMS = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
const RESULT = { type: "object", properties: { echo: { type: "string" } }, required: ["echo"] };

function newServer() {
  const server = createServer({ name: "handle", version: "1.0.0", logger: quiet });
  server.handle("acme/echo", (params) => ({ echo: params.text }), { params: PARAMS, result: RESULT });
  server.handle("acme/broken", () => ({ echo: 5 }), { params: { type: "object" }, result: RESULT });
  return server;
}

describe("server.handle", () => {
  for (const revision of ["2025-11-25", "2026-07-28"] as const)
    it(`${revision}: serves an extension method, -32602 naming the field for bad params, -32603 for a bad result`, async () => {
      const server = newServer();
      const client = await connectClient(server, revision);
      try {
        const answer = await client.request("acme/echo", { text: "hi" });
        expect(answer).to.include({ echo: "hi" });
        if (revision === "2026-07-28") expect(answer).to.include({ resultType: "complete" });

        const badParams = await rejectionOf(client.request("acme/echo", { text: 5 }));
        expect(badParams.code).to.equal(-32602);
        expect(badParams.message).to.contain("/text");

        const badResult = await rejectionOf(client.request("acme/broken", {}));
        expect(badResult.code).to.equal(-32603);
        expect(badResult.message).to.contain("acme/broken").and.to.contain("/echo");

        expect((await rejectionOf(client.request("acme/unknown", {}))).code).to.equal(-32601);
      } finally {
        await client.close();
        await server.close();
      }
    });

  for (const toolSchemaEngine of ["auto", "interpreter", "ajv"] as const)
    it(`bad params get -32602 as a core method's do: each issue in data.issues, its path from the message's root (${toolSchemaEngine})`, async () => {
      const server = createServer({ name: "handle", version: "1.0.0", logger: quiet, toolSchemaEngine });
      server.handle("acme/echo", (params) => ({ echo: params.text }), { params: PARAMS, result: RESULT });
      const client = await connectClient(server, "2025-11-25");
      try {
        const wrongType = await rejectionOf(client.request("acme/echo", { text: 5 }));
        // Our compiler says what it found ("must be string, found integer"); ajv does not.
        expect(wrongType.message).to.match(/^Invalid params for acme\/echo: \/params\/text: must be string(, found integer)?$/);
        expect(wrongType.data.issues).to.have.length(1);
        expect(wrongType.data.issues[0]).to.deep.include({ path: "/params/text", schemaPath: "#/properties/text/type", keyword: "type" });
        expect(wrongType.data.issues[0].message).to.match(/^must be string/);
        const missing = await rejectionOf(client.request("acme/echo", {}));
        expect(missing.message).to.equal("Invalid params for acme/echo: /params: must have required property 'text'");
        expect(missing.data.issues).to.deep.equal([{ path: "/params", schemaPath: "#/required", keyword: "required", message: "must have required property 'text'" }]);
        // No params at all: missing at the root, as a core method says it, not wrong at a /params the message lacks.
        const raw = new RawPeer(server);
        await raw.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
        await raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
        await raw.send({ jsonrpc: "2.0", id: "none", method: "acme/echo" });
        const { error: none } = await raw.response("none");
        expect(none.message).to.equal("Invalid params for acme/echo: (root): must have required property 'params'");
        expect(none.data.issues).to.deep.equal([{ path: "", schemaPath: "#", keyword: "required", message: "must have required property 'params'" }]);
      } finally {
        await client.close();
        await server.close();
      }
    });

  it("the very first call, before the schema engine has loaded (it loads on first use), is held to the params schema: -32602, and the handler does not run", async () => {
    // A fresh compiler per server: each server's first extension call waits for its engine.
    for (const revision of ["2025-11-25", "2026-07-28"] as const) {
      let ran = 0;
      const server = createServer({ name: "handle", version: "1.0.0", logger: quiet });
      server.handle("acme/echo", (params) => (ran++, { echo: params.text }), { params: PARAMS, result: RESULT });
      const client = await connectClient(server, revision);
      try {
        const badParams = await rejectionOf(client.request("acme/echo", { text: 5 }));
        expect([badParams.code, ran], revision).to.deep.equal([-32602, 0]);
        expect(badParams.message).to.contain("/text");
        expect(await client.request("acme/echo", { text: "hi" })).to.include({ echo: "hi" });
        expect(ran).to.equal(1);
      } finally {
        await client.close();
        await server.close();
      }
    }
  });

  it("tasks/* are the runtime's own exactly where a served revision has core tasks (registry FEATURES, read from each schema)", () => {
    const refused: Record<string, boolean> = {};
    for (const revision of REVISIONS) {
      const server = createServer({ name: "handle", version: "1.0.0", logger: quiet, revisions: [revision] });
      refused[revision] = throws(() => server.handle("tasks/get" as never, (() => ({})) as never));
      // Its module agrees: tasks/get a client request of a session-era revision.
      expect(FEATURES[revision].coreTasks, revision).to.equal(ERAS[revision] === "session" && CLIENT_REQUESTS[revision]!.includes("tasks/get"));
    }
    expect(refused).to.deep.equal(Object.fromEntries(REVISIONS.map((r) => [r, FEATURES[r].coreTasks])));
    // Independent of the table: 2025-11-25's core tasks are the runtime's; the stateless era's tasks are the extension's.
    expect(refused["2025-11-25"]).to.equal(true);
    expect(refused["2026-07-28"]).to.equal(false);
  });

  it("refuses a method the runtime answers itself", () => {
    const server = createServer({ name: "handle", version: "1.0.0", logger: quiet });
    expect(() => server.handle("tools/call", () => ({ content: [] }))).to.throw(/served by the runtime itself/);
  });
});
