import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo, EndpointAuth } from "../auth-info.js";

/**
 * The node:http endpoint's bridge to a Web-API `auth` option: the request's head as a Request
 * (no body: authentication reads only the URL and headers), and a Response written back as is.
 */
export async function authenticateNode(
  auth: EndpointAuth,
  req: IncomingMessage,
  res: ServerResponse,
  isMcpPath: boolean,
  extraHeaders: Readonly<Record<string, string>>,
): Promise<AuthInfo | "answered" | undefined> {
  let request: Request;
  try {
    request = toRequest(req);
  } catch {
    await writeResponse(res, Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: unreadable request head" } }, { status: 400 }), extraHeaders);
    return "answered";
  }
  const routed = await auth.routes?.(request);
  if (routed) {
    await writeResponse(res, routed, extraHeaders);
    return "answered";
  }
  if (!isMcpPath || req.method === "OPTIONS") return undefined;
  const result = await auth.authenticate(request);
  if (result instanceof Response) {
    if (!req.complete) res.setHeader("Connection", "close"); // the unread body must not become the next request
    await writeResponse(res, result, extraHeaders);
    return "answered";
  }
  return result;
}

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  return new Request(url, { method: req.method, headers });
}

/** Writes a Web Response on a node:http response (small bodies: metadata and refusals). */
export async function writeResponse(res: ServerResponse, response: Response, extraHeaders: Readonly<Record<string, string>> = {}): Promise<void> {
  if (res.headersSent) return void res.end();
  const headers: Record<string, string> = { ...extraHeaders };
  response.headers.forEach((value, key) => (headers[key] = value));
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...headers, "content-length": String(body.length) });
  res.end(body);
}
