// The load generator of the HTTP benches: a raw node:http client over a keep-alive agent, identical
// for every server, so it costs each the same (Node's fetch costs several times more per call and
// would cap every server at the client's speed). One Session is one MCP client with one call in
// flight: in 2025-11-25 it opens with initialize + notifications/initialized and sends the session
// id it was given (none from a stateless server); in 2026-07-28 every call carries the _meta
// envelope and the routing headers (SEP-2243), with no handshake.
import { request, type Agent } from "node:http";

export type Era = "2025-11-25" | "2026-07-28";

const REQUEST_TIMEOUT_MS = 10_000;
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } };

export class Session {
  private id: string | undefined;
  /** The MCP-Protocol-Version header: from the first message in 2026-07-28, after initialize in 2025. */
  private version: Era | undefined;
  private nextId = 1;

  constructor(
    private readonly url: URL,
    private readonly agent: Agent,
    private readonly era: Era,
  ) {}

  async open(): Promise<void> {
    if (this.era === "2026-07-28") return void (this.version = this.era);
    await this.post({ jsonrpc: "2.0", id: this.nextId++, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } }, {});
    this.version = this.era;
    await this.post({ jsonrpc: "2.0", method: "notifications/initialized" }, {});
  }

  /** tools/call; resolves with the text of the answer's first content block. */
  async call(name: string, args: Record<string, unknown>): Promise<string> {
    const modern = this.era === "2026-07-28";
    const params = modern ? { name, arguments: args, _meta: META } : { name, arguments: args };
    const headers: Record<string, string> = modern ? { "Mcp-Method": "tools/call", "Mcp-Name": name } : {};
    const answer = await this.post({ jsonrpc: "2.0", id: this.nextId++, method: "tools/call", params }, headers);
    const message = JSON.parse(answer) as { result?: { content?: { text?: string }[] } };
    const text = message.result?.content?.[0]?.text;
    if (typeof text !== "string") throw new Error(`unexpected answer: ${answer.slice(0, 200)}`);
    return text;
  }

  /** POSTs a message; resolves with the JSON-RPC answer's text (the JSON body, or the SSE event carrying it). */
  private post(message: unknown, extra: Record<string, string>): Promise<string> {
    const body = JSON.stringify(message);
    const headers: Record<string, string | number> = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "Content-Length": Buffer.byteLength(body),
      ...extra,
    };
    if (this.version) headers["MCP-Protocol-Version"] = this.version;
    if (this.id) headers["Mcp-Session-Id"] = this.id;
    return new Promise((resolve, reject) => {
      const req = request(this.url, { method: "POST", headers, agent: this.agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        const session = res.headers["mcp-session-id"];
        if (typeof session === "string") this.id = session;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          if ((res.statusCode ?? 0) >= 300) return reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString()}`));
          const text = Buffer.concat(chunks).toString("utf8");
          if (!(res.headers["content-type"] ?? "").includes("text/event-stream")) return resolve(text);
          // The last data line that holds a message (priming events have empty data).
          const data = text.split("\n").filter((line) => line.startsWith("data:") && line.length > 6);
          resolve(data.length > 0 ? data[data.length - 1]!.slice(5).trim() : "");
        });
        res.on("error", reject);
      });
      req.on("timeout", () => req.destroy(new Error("request timed out")));
      req.on("error", reject);
      req.end(body);
    });
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
