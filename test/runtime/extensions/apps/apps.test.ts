// MCP Apps helpers (SEP-1865): a tool's _meta naming its ui:// resource, the resource served with
// the app MIME type and its _meta.ui, in both eras; and the client capability check.
// (test/interop/apps.test.ts holds them to @modelcontextprotocol/ext-apps itself.)
import { expect } from "chai";
import { APP_MIME_TYPE, appResource, appsCapability, appToolMeta, createServer } from "../../../../runtime/index.js";
import { quiet } from "../../../support/features-server.js";
import { connectClient } from "../../../support/mcp.js";

describe("MCP Apps helpers", () => {
  it("appToolMeta puts the resource URI under ui and under the flat ui/resourceUri key, keeping other keys", () => {
    expect(appToolMeta({ resourceUri: "ui://a/view.html" })).to.deep.equal({ ui: { resourceUri: "ui://a/view.html" }, "ui/resourceUri": "ui://a/view.html" });
    expect(appToolMeta({ resourceUri: "ui://a/view.html", visibility: ["app"] }, { "acme/x": 1, ui: { extra: true } })).to.deep.equal({
      "acme/x": 1,
      ui: { extra: true, resourceUri: "ui://a/view.html", visibility: ["app"] },
      "ui/resourceUri": "ui://a/view.html",
    });
    expect(appToolMeta({ visibility: ["model"] })).to.deep.equal({ ui: { visibility: ["model"] } });
    expect(() => appToolMeta({ resourceUri: "https://a/view.html" as `ui://${string}` })).to.throw(/must be a ui:\/\/ URI/);
  });

  for (const revision of ["2025-11-25", "2026-07-28"] as const)
    it(`${revision}: serves the tool's _meta and the ui:// resource with the app MIME type and its _meta.ui`, async () => {
      const server = createServer({ name: "apps", version: "1.0.0", logger: quiet });
      server.tool({ name: "show", inputSchema: { type: "object" }, _meta: appToolMeta({ resourceUri: "ui://a/view.html" }) }, () => ({ content: [] }));
      let reads = 0;
      appResource(server, { uri: "ui://a/view.html", name: "view", _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: false } } }, () => `<p>${++reads}</p>`);
      const client = await connectClient(server, revision);
      try {
        const [tool] = (await client.listTools()).items;
        expect(tool!._meta).to.deep.equal({ ui: { resourceUri: "ui://a/view.html" }, "ui/resourceUri": "ui://a/view.html" });
        const [listed] = (await client.listResources()).items;
        expect(listed).to.deep.include({ uri: "ui://a/view.html", name: "view", mimeType: APP_MIME_TYPE });
        const read = await client.readResource("ui://a/view.html", { fresh: true });
        expect(read.contents).to.deep.equal([
          { uri: "ui://a/view.html", mimeType: APP_MIME_TYPE, text: "<p>1</p>", _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: false } } },
        ]);
      } finally {
        await client.close();
        await server.close();
      }
    });

  it("appResource refuses a URI that is not ui://", () => {
    const server = createServer({ name: "apps", version: "1.0.0", logger: quiet });
    expect(() => appResource(server, { uri: "note://x" as `ui://${string}`, name: "x" }, "")).to.throw(/must have a ui:\/\/ URI/);
  });

  it("appsCapability: the client's io.modelcontextprotocol/ui settings when they name the app MIME type", () => {
    const mimeTypes = [APP_MIME_TYPE];
    expect(appsCapability({ capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes } } } })).to.deep.equal({ mimeTypes });
    expect(appsCapability({ capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html"] } } } })).to.equal(undefined);
    expect(appsCapability({ capabilities: {} })).to.equal(undefined);
  });
});
