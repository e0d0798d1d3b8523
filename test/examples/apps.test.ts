// examples/apps: an MCP App. Over stdio, the official SDK client (session era) and our client at
// 2026-07-28 see the chart tool naming its ui:// view, the view served as MCP Apps HTML, and the
// tool's result as structured content and text alike.
import { expect } from "chai";
import { APP_MIME_TYPE } from "../../runtime/index.js";
import { VIEW_HTML, VIEW_URI } from "../../examples/apps/server.js";
import { sdkSession, statelessSession, text } from "./support.js";

const BARS = [
  { label: "a", value: 10, percent: 100 },
  { label: "b", value: -5, percent: 50 },
];

describe("examples/apps", () => {
  it("answers the SDK client over stdio: the tools' UI, the view, the chart", async () => {
    const session = await sdkSession("apps");
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => [t.name, t._meta])).to.deep.equal([
        ["chart", { ui: { resourceUri: VIEW_URI }, "ui/resourceUri": VIEW_URI }],
        ["chart_sample", { ui: { resourceUri: VIEW_URI, visibility: ["app"] }, "ui/resourceUri": VIEW_URI }],
      ]);
      const { resources } = await session.client.listResources();
      expect(resources).to.deep.equal([{ uri: VIEW_URI, name: "bar-chart", description: "The bar chart view", mimeType: APP_MIME_TYPE, _meta: { ui: { prefersBorder: true, csp: {} } } }]);
      const view = await session.client.readResource({ uri: VIEW_URI });
      expect(view.contents).to.deep.equal([{ uri: VIEW_URI, mimeType: APP_MIME_TYPE, text: VIEW_HTML, _meta: { ui: { prefersBorder: true, csp: {} } } }]);
      expect(VIEW_HTML).to.contain('"ui/initialize"').and.to.contain('"ui/notifications/tool-result"');
      const result = (await session.client.callTool({ name: "chart", arguments: { values: { a: 10, b: -5 } } })) as { structuredContent?: unknown; content?: unknown };
      expect(result.structuredContent).to.deep.equal({ bars: BARS });
      expect(text(result)).to.equal("a: 10\nb: -5");
    } finally {
      await session.close();
    }
  });

  it("answers our client at 2026-07-28 from the same code", async () => {
    const session = await statelessSession("apps");
    try {
      const result = await session.client.callTool("chart_sample");
      expect((result.structuredContent as { bars: unknown[] }).bars).to.have.length(4);
      const view = await session.client.readResource(VIEW_URI);
      expect(view.contents[0]).to.include({ mimeType: APP_MIME_TYPE, text: VIEW_HTML });
    } finally {
      await session.close();
    }
  });
});
