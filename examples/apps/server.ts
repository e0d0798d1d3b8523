// An MCP App (SEP-1865): the tool `chart` draws a bar chart in the host's sandboxed iframe, from
// the ui:// resource it names in `_meta.ui.resourceUri` (view.html, served with the MCP Apps MIME
// type); `chart_sample`, visible to the app only, gives the view data of its own. Hosts without
// MCP Apps get the same numbers as text.
//   node --import tsx examples/apps/server.ts          (stdio)
//   node --import tsx examples/apps/server.ts --http   (Streamable HTTP on 127.0.0.1:3000/mcp)
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { appResource, appToolMeta, createServer, stdio, type McpServer } from "../../runtime/index.js";
import { http } from "../../runtime/http.js";

export const VIEW_URI = "ui://charts/bar.html";
export const VIEW_HTML = readFileSync(new URL("./view.html", import.meta.url), "utf8");

const BARS_SCHEMA = {
  type: "object",
  properties: {
    bars: {
      type: "array",
      items: { type: "object", properties: { label: { type: "string" }, value: { type: "number" }, percent: { type: "number" } }, required: ["label", "value", "percent"] },
    },
  },
  required: ["bars"],
} as const;

/** Bars scaled to the largest value, as structured content, and the same as text. */
function chart(values: Record<string, number>) {
  const max = Math.max(1, ...Object.values(values).map(Math.abs));
  const bars = Object.entries(values).map(([label, value]) => ({ label, value, percent: Math.round((Math.abs(value) / max) * 100) }));
  return { content: [{ type: "text" as const, text: bars.map((b) => `${b.label}: ${b.value}`).join("\n") }], structuredContent: { bars } };
}

export function createAppsServer(): McpServer {
  const server = createServer({ name: "apps-example", version: "1.0.0" });
  server.tool(
    {
      name: "chart",
      description: "Draws a bar chart of labelled values",
      inputSchema: { type: "object", properties: { values: { type: "object", additionalProperties: { type: "number" } } }, required: ["values"] },
      outputSchema: BARS_SCHEMA,
      _meta: appToolMeta({ resourceUri: VIEW_URI }),
    },
    ({ values }) => chart(values as Record<string, number>),
  );
  server.tool(
    {
      name: "chart_sample",
      description: "Sample values for the chart view",
      inputSchema: { type: "object", properties: {} },
      outputSchema: BARS_SCHEMA,
      _meta: appToolMeta({ resourceUri: VIEW_URI, visibility: ["app"] }),
    },
    () => chart({ north: 12, south: 7, east: 3, west: 9 }),
  );
  return appResource(server, { uri: VIEW_URI, name: "bar-chart", description: "The bar chart view", _meta: { ui: { prefersBorder: true, csp: {} } } }, VIEW_HTML);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = createAppsServer();
  const { values } = parseArgs({ options: { http: { type: "boolean" }, port: { type: "string", default: "3000" } } });
  if (!values.http) await server.listen(stdio());
  else {
    const endpoint = http({ port: Number(values.port) });
    await server.listen(endpoint);
    console.error(`apps-example: serving MCP over Streamable HTTP at ${endpoint.url}`);
  }
}
