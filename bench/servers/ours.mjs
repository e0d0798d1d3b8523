// The benchmark's server on our runtime, as a user gets it: the packed package (`make pack`, staged
// in pack/staging/runtime: compiled JavaScript, the main entry bundled), plain node, stdio.
// Tools: echo {text}, blob {bytes} (a text of that many bytes).
import { createServer, stdio } from "../../pack/staging/runtime/dist/runtime/index.js";
import { payload } from "./payload.mjs";

const server = createServer({ name: "bench-ours", version: "1.0.0" });
server.tool(
  { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
server.tool(
  { name: "blob", inputSchema: { type: "object", properties: { bytes: { type: "integer", minimum: 0 } }, required: ["bytes"] } },
  ({ bytes }) => ({ content: [{ type: "text", text: payload(bytes) }] }),
);
await server.listen(stdio());
