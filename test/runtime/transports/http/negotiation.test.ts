import { expect } from "chai";
import type { Incoming } from "../../../../runtime/transports/http/incoming.js";
import { accepts } from "../../../../runtime/transports/http/negotiation.js";
import { checkHostAndOrigin, hostnameOf, originAllowed } from "../../../../runtime/transports/http/security.js";
import { checkStatelessHeaders, decoded } from "../../../../runtime/transports/http/headers.js";

/** A request with these headers; the functions under test read headers only. */
const req = (headers: Record<string, string>): Incoming => {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    method: "POST",
    path: "/",
    header: (name) => lower[name]?.trim(),
    headers: () => lower,
    body: () => Promise.reject(new Error("not read here")),
    request: () => {
      throw new Error("not read here");
    },
  };
};

describe("transports/http: negotiation, security, headers", () => {
  it("reads Accept: what is acceptable, and whether SSE is preferred (q, then order)", () => {
    expect(accepts(req({}))).to.deep.equal({ json: true, sse: true, preferSse: false });
    expect(accepts(req({ accept: "application/json, text/event-stream" }))).to.deep.equal({ json: true, sse: true, preferSse: false });
    expect(accepts(req({ accept: "text/event-stream, application/json" }))).to.deep.equal({ json: true, sse: true, preferSse: true });
    expect(accepts(req({ accept: "application/json;q=0.5, text/event-stream" })).preferSse).to.equal(true);
    expect(accepts(req({ accept: "text/event-stream" }))).to.deep.equal({ json: false, sse: true, preferSse: true });
    expect(accepts(req({ accept: "application/json, text/event-stream;q=0" }))).to.deep.equal({ json: true, sse: false, preferSse: false });
    expect(accepts(req({ accept: "*/*" }))).to.deep.equal({ json: true, sse: true, preferSse: false });
    expect(accepts(req({ accept: "text/html" }))).to.deep.include({ json: false, sse: false });
  });

  it("reads a repeated Accept once but never answers one header with another's result", () => {
    const sseFirst = "text/event-stream, application/json";
    const jsonOnly = "application/json";
    for (let i = 0; i < 3; i++) {
      expect(accepts(req({ accept: sseFirst }))).to.deep.equal({ json: true, sse: true, preferSse: true });
      expect(accepts(req({ accept: sseFirst }))).to.deep.equal({ json: true, sse: true, preferSse: true });
      expect(accepts(req({ accept: jsonOnly }))).to.deep.equal({ json: true, sse: false, preferSse: false });
      expect(accepts(req({}))).to.deep.equal({ json: true, sse: true, preferSse: false });
    }
    expect(Object.isFrozen(accepts(req({ accept: jsonOnly }))), "a shared answer cannot be changed by a caller").to.equal(true);
  });

  it("allows localhost names by default, any port; refuses others", () => {
    expect(hostnameOf("[::1]:3000")).to.equal("[::1]");
    expect(hostnameOf("LocalHost:80")).to.equal("localhost");
    for (const host of ["localhost:1", "127.0.0.1:8080", "[::1]:9", "localhost"]) expect(checkHostAndOrigin(req({ host }), {}), host).to.equal(undefined);
    for (const host of ["evil.example", "127.0.0.1.evil.example:80", "localhost.evil:1"]) expect(checkHostAndOrigin(req({ host }), {})?.status, host).to.equal(403);
    expect(checkHostAndOrigin(req({}), {})?.status, "a missing Host: a bad request (RFC 9112 §3.2)").to.equal(400);
    expect(checkHostAndOrigin(req({ host: "mcp.example.com" }), { allowedHosts: ["mcp.example.com"] })).to.equal(undefined);
    expect(originAllowed("http://localhost:5173", {})).to.equal(true);
    expect(originAllowed("https://evil.example", {})).to.equal(false);
    expect(originAllowed("file://", {})).to.equal(false);
    expect(originAllowed("https://app.example.com", { allowedOrigins: ["https://app.example.com"] })).to.equal(true);
    expect(originAllowed("http://app.example.com", { allowedOrigins: ["https://app.example.com"] })).to.equal(false);
  });

  /** Origins and hosts one character or one URL trick away from an allowed one. */
  const NEAR_MISS_ORIGINS = [
    "http://localhost.evil.example",
    "http://localhostevil.example",
    "http://evil-localhost",
    "http://127.0.0.1.nip.io",
    "http://127.0.0.1.evil.example:8080",
    "http://127.0.0.2",
    "http://localhost@evil.example",
    "http://localhost:80@evil.example",
    "http://evil.example#@localhost",
    "http://evil.example\\@localhost",
    "http://evil.example?localhost",
    "http://[::1].evil.example",
    "http://[::2]",
    "http://evil.example@localhost",
    "http://user:pass@localhost",
    "http://localhost/path",
    "ws://localhost",
    "null",
  ];
  const NEAR_MISS_HOSTS = ["localhost.evil.example", "127.0.0.1.nip.io", "127.0.0.1.nip.io:80", "localhostevil", "evil-localhost", "127.0.0.2", "[::2]", "[::1].evil", "localhost:80@evil.example", "evil.example@localhost", "localhost:8080.evil.example", "localhost:", "localhost:x", " evil.example"];

  it("refuses origins and hosts that nearly match an allowed one", () => {
    for (const origin of NEAR_MISS_ORIGINS) expect(originAllowed(origin, {}), origin).to.equal(false);
    for (const origin of NEAR_MISS_ORIGINS) expect(checkHostAndOrigin(req({ host: "localhost", origin }), {})?.status, origin).to.equal(403);
    for (const host of NEAR_MISS_HOSTS) expect(checkHostAndOrigin(req({ host }), {})?.status, host).to.equal(403);
    const exact = { allowedOrigins: ["https://app.example.com"], allowedHosts: ["mcp.example.com"] };
    for (const origin of ["https://app.example.com.evil.example", "https://app.example.com:8443", "https://app.example.co", "https://evil.app.example.com", "https://app.example.com@evil.example", "https://evil.example@app.example.com"])
      expect(originAllowed(origin, exact), origin).to.equal(false);
    for (const host of ["mcp.example.com.evil.example", "evil.mcp.example.com", "mcp.example.co", "mcp.example.com:443@evil.example"]) expect(checkHostAndOrigin(req({ host }), exact)?.status, host).to.equal(403);
    // The allowed ones still pass: a case or port difference is not a near miss.
    for (const origin of ["http://LOCALHOST:5173", "https://127.0.0.1", "http://[::1]:8080"]) expect(originAllowed(origin, {}), origin).to.equal(true);
    expect(originAllowed("https://APP.example.com", exact)).to.equal(true);
  });

  it("decodes =?base64?...?= header values strictly, and takes others literally", () => {
    expect(decoded("=?base64?SGVsbG8=?=")).to.equal("Hello");
    expect(decoded("=?base64?SGVsbG8?=")).to.equal(null);
    expect(decoded("=?base64?SGVs!!!bG8=?=")).to.equal(null);
    expect(decoded("SGVsbG8=")).to.equal("SGVsbG8=");
    expect(decoded("=?base64?SGVsbG8=")).to.equal("=?base64?SGVsbG8=");
  });

  it("stateless: headers must mirror version, method and name; whitespace around values is ignored", () => {
    const message = {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "t", _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    };
    const good = { "mcp-protocol-version": "2026-07-28", "mcp-method": " tools/call ", "mcp-name": "  t  " };
    expect(checkStatelessHeaders(req(good), message)).to.equal(undefined);
    for (const bad of [{ ...good, "mcp-method": "TOOLS/CALL" }, { ...good, "mcp-name": "u" }, { ...good, "mcp-protocol-version": "2025-11-25" }]) {
      const error = checkStatelessHeaders(req(bad), message);
      expect(error?.status).to.equal(400);
      expect(error?.code).to.equal(-32020);
      expect(error?.id).to.equal(5);
    }
  });
});
