// A round-robin HTTP proxy with no affinity, for scale-out tests: each request goes to the next
// backend in turn, whatever session, cookie or stream it belongs to. Bodies and responses (SSE
// included) are streamed through; `counts` says how many requests each backend got.
import { request as httpRequest, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  /** The proxy's MCP endpoint: the backends' path on the proxy's address. */
  readonly url: string;
  readonly counts: number[];
  /** Stops sending requests to backend `index` (a health check found it gone). */
  exclude(index: number): void;
  close(): Promise<void>;
}

export async function startProxy(backends: readonly string[]): Promise<RoundRobinProxy> {
  const targets = backends.map((backend) => new URL(backend));
  const counts = targets.map(() => 0);
  let next = 0;
  const excluded = new Set<number>();
  const server: Server = createServer((req, res) => {
    let index = next++ % targets.length;
    for (let tries = 0; excluded.has(index) && tries < targets.length; tries++) index = next++ % targets.length;
    counts[index]!++;
    const target = targets[index]!;
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(res);
        // The backend died mid-answer: the client's connection breaks too, as behind a real load balancer.
        response.on("close", () => void (response.complete || res.destroy()));
      },
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: backend ${index} failed: ${error.message}`);
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${targets[0]!.pathname}`,
    counts,
    exclude: (index) => void excluded.add(index),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
