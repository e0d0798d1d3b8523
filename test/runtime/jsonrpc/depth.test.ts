// The nesting limit: checked once when a message arrives, answered precisely, and no walk that
// follows it (request binding's canonical JSON, validators) can overflow the stack on client input.
import { expect } from "chai";
import fc from "fast-check";
import { createServer } from "../../../runtime/index.js";
import { MAX_NESTING_DEPTH, nestingTooDeep } from "../../../runtime/jsonrpc/depth.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { RawPeer } from "../../support/features-server.js";

/** `{"a": {"a": ... leaf}}`, `levels` objects deep, built without recursion. */
function nested(levels: number, leaf: unknown = 1): Record<string, unknown> {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value as Record<string, unknown>;
}

/** The oracle: the depth of a value by plain recursion (only used on values small enough for it). */
function depth(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce((deepest: number, child) => Math.max(deepest, depth(child)), 0);
}

/** Follows a JSON Pointer from `value`. */
function at(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((node: any, key) => node[key], value);
}

describe("jsonrpc/depth", () => {
  it("agrees with a recursive depth count on random JSON, and points at a container that is too deep", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 0, max: 8 }), (value, limit) => {
        const path = nestingTooDeep(value, limit);
        expect(path === undefined).to.equal(depth(value) <= limit);
        if (path !== undefined) {
          const offending = at(value, path);
          // The pointer names a container sitting `limit` levels down, which itself holds more.
          expect(path.split("/").length - 1).to.equal(limit);
          expect(depth(offending)).to.be.greaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("takes exactly MAX_NESTING_DEPTH levels, not one more", () => {
    expect(nestingTooDeep(nested(MAX_NESTING_DEPTH))).to.equal(undefined);
    expect(nestingTooDeep(nested(MAX_NESTING_DEPTH + 1))).to.equal("/a".repeat(MAX_NESTING_DEPTH));
  });

  it("escapes '~' and '/' in the pointer (RFC 6901) and walks arrays", () => {
    expect(nestingTooDeep({ "a/b": [{ "~": [] }] }, 3)).to.equal("/a~1b/0/~0");
  });

  it("walks 100,000 levels of parsed JSON without overflowing", () => {
    const text = "[".repeat(100_000) + "]".repeat(100_000);
    expect(nestingTooDeep(JSON.parse(text))).to.equal("/0".repeat(MAX_NESTING_DEPTH));
  });
});

describe("a message nested too deep, served", () => {
  function server() {
    const s = createServer({ name: "depth", version: "1", logger: silentLogger });
    s.tool({ name: "echo", inputSchema: { type: "object" } }, (args) => ({ content: [{ type: "text", text: JSON.stringify(args).slice(0, 20) }] }));
    s.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, context) => {
      await context.elicit({ mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } });
      return { content: [] };
    });
    return s;
  }

  for (const tool of ["echo", "ask"])
    it(`answers a stateless tools/call of ${tool} with 5,000-deep arguments with -32600, its id and the path`, async () => {
      const peer = new RawPeer(server());
      const response = await peer.stateless("tools/call", { name: tool, arguments: nested(5_000), requestState: "x", inputResponses: {} }, { elicitation: {} }, "deep");
      expect(response.id).to.equal("deep");
      expect(response.error.code).to.equal(-32600);
      expect(response.error.message).to.contain(`deeper than ${MAX_NESTING_DEPTH} levels`);
      // The message is level 1, params 2, arguments 3: the pointer names the first container at level MAX + 1.
      expect(response.error.data).to.deep.equal({ maxDepth: MAX_NESTING_DEPTH, path: `/params/arguments${"/a".repeat(MAX_NESTING_DEPTH - 2)}` });
    });

  it("serves the same call at the limit: the check refuses nothing it need not", async () => {
    const peer = new RawPeer(server());
    // arguments (level 3) holding MAX - 3 more objects: the deepest is at level MAX exactly.
    const response = await peer.stateless("tools/call", { name: "echo", arguments: nested(MAX_NESTING_DEPTH - 2, "ok") });
    expect(response.error).to.equal(undefined);
    expect(response.result.content[0].text).to.equal(JSON.stringify(nested(MAX_NESTING_DEPTH - 2, "ok")).slice(0, 20));
  });
});
