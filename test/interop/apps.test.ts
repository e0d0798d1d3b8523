// MCP Apps (SEP-1865) against @modelcontextprotocol/ext-apps 2.0.4 (tools/interop):
//   - what examples/apps serves (each tool's _meta.ui, the view's content _meta.ui) is valid
//     against the package's own JSON Schema of its types (schema.json, by ajv);
//   - the same declarations made with the package's server helpers (registerAppTool,
//     registerAppResource) on an SDK v2 McpServer list the same _meta and MIME type as ours;
//   - the package's getUiCapability and our appsCapability read a client's capability alike;
//   - its TypeScript types are accepted by ours (tsc on tools/interop/apps-types.ts).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import { Ajv2020 } from "ajv/dist/2020.js";
import { APP_MIME_TYPE, appsCapability, createMemoryPair, McpClient } from "../../runtime/index.js";
import { createAppsServer, VIEW_HTML, VIEW_URI } from "../../examples/apps/server.js";
import { interopPeers } from "./support/peers.js";

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("interop: MCP Apps with @modelcontextprotocol/ext-apps", function () {
  let peers: Any;
  let ours: { tools: Any[]; resources: Any[]; read: Any };
  before(async function () {
    peers = await interopPeers(this);
    const server = createAppsServer();
    const [clientEnd, serverEnd] = createMemoryPair();
    await server.listen(serverEnd);
    const client = await McpClient.connect(clientEnd, { name: "t", version: "1.0.0", revision: "2025-11-25", logger: () => {} });
    ours = { tools: (await client.listTools({ all: true })).items, resources: (await client.listResources({ all: true })).items, read: await client.readResource(VIEW_URI) };
    await client.close();
    await server.close();
  });

  it("every _meta.ui is valid against ext-apps' schema.json (McpUiToolMeta, McpUiResourceMeta)", () => {
    const schema = JSON.parse(readFileSync(peers.EXT_APPS_SCHEMA, "utf8"));
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(schema, "ext-apps");
    const toolMeta = ajv.getSchema("ext-apps#/$defs/McpUiToolMeta")!;
    const resourceMeta = ajv.getSchema("ext-apps#/$defs/McpUiResourceMeta")!;
    expect(ours.tools).to.have.length(2);
    for (const tool of ours.tools) expect(toolMeta(tool._meta.ui), `${tool.name}: ${JSON.stringify(toolMeta.errors)}`).to.equal(true);
    const content = ours.read.contents[0];
    expect(content).to.include({ uri: VIEW_URI, mimeType: APP_MIME_TYPE, text: VIEW_HTML });
    expect(resourceMeta(content._meta.ui), JSON.stringify(resourceMeta.errors)).to.equal(true);
    // A wrong shape is caught by the same schema: the check can fail.
    expect(toolMeta({ resourceUri: VIEW_URI, visibility: ["everyone"] })).to.equal(false);
  });

  it("ext-apps' registerAppTool and registerAppResource on SDK v2 list the same _meta and MIME type", async () => {
    const sdk = new peers.McpServer({ name: "sdk-v2", version: "2.4.0" });
    for (const tool of ours.tools)
      peers.registerAppTool(sdk, tool.name, { description: tool.description, _meta: { ui: tool._meta.ui } }, () => ({ content: [] }));
    const view = ours.resources.find((r: Any) => r.uri === VIEW_URI);
    peers.registerAppResource(sdk, view.name, VIEW_URI, { description: view.description }, () => ({ contents: [] }));
    const [a, b] = peers.InMemoryTransport.createLinkedPair();
    await sdk.connect(b);
    const client = new peers.Client({ name: "t", version: "1.0.0" });
    await client.connect(a);
    try {
      const theirs = (await client.listTools()).tools;
      for (const tool of ours.tools) expect(theirs.find((t: Any) => t.name === tool.name)._meta, tool.name).to.deep.equal(tool._meta);
      const [resource] = (await client.listResources()).resources;
      expect(resource).to.deep.include({ uri: VIEW_URI, mimeType: APP_MIME_TYPE, name: view.name });
    } finally {
      await client.close();
      await sdk.close();
    }
  });

  it("ext-apps' McpUiToolMeta, McpUiResourceMeta and McpUiClientCapabilities are accepted by our types (tsc)", () => {
    const tsc = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));
    const project = fileURLToPath(new URL("../../tools/interop/tsconfig.json", import.meta.url));
    const run = spawnSync(process.execPath, [tsc, "-p", project], { encoding: "utf8", timeout: 120_000 });
    expect(run.status, run.stdout + run.stderr).to.equal(0);
  });

  it("getUiCapability and appsCapability agree on a capable client", () => {
    const capabilities = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [APP_MIME_TYPE] } } };
    expect(appsCapability({ capabilities })).to.deep.equal(peers.getUiCapability(capabilities));
  });
});
