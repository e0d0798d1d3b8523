// What the ends of an oversized frame tell: checked against JSON.parse of the whole frame, on
// random messages in the member orders real writers use, with strings that hold quotes,
// backslashes, braces and member-like text.
import { expect } from "chai";
import fc from "fast-check";
import { frameEnds } from "../../../runtime/jsonrpc/frame-ends.js";

/** Strings made to confuse a scanner: escaped quotes, backslash runs, braces, `"id":` inside. */
const tricky = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string({ unit: fc.constantFrom('"', "\\", "{", "}", ",", ":", '"id":7', " ", "x", "\u00e9", "\ud83d\ude00") }),
);
const id = fc.oneof(fc.integer(), tricky);
const value = fc.jsonValue({ maxDepth: 3 });
const members = fc.dictionary(tricky, fc.oneof(value, tricky), { maxKeys: 4 });

/** A request or response with its members in one of the orders writers use, or shuffled. */
const message = fc
  .record({
    kind: fc.constantFrom("request", "notification", "result", "error"),
    id,
    method: tricky,
    payload: members,
    extra: members,
    order: fc.constantFrom("ours", "spread-first", "shuffled"),
    seed: fc.integer(),
    indent: fc.constantFrom(undefined, 0, 2),
  })
  .map(({ kind, id, method, payload, extra, order, seed, indent }) => {
    const core: [string, unknown][] = [["jsonrpc", "2.0"]];
    if (kind !== "notification") core.push(["id", id]);
    if (kind === "request" || kind === "notification") core.push(["method", method], ["params", { ...payload, ...extra }]);
    else core.push(kind === "result" ? ["result", payload] : ["error", { code: -32603, message: method, data: extra }]);
    let entries = core;
    // The official TypeScript SDK: `{ ...request, jsonrpc, id }`, so the payload comes first.
    if (order === "spread-first") entries = [...core.slice(2), ...core.slice(0, 2)];
    if (order === "shuffled") entries = [...core].sort(() => ((seed = (seed * 1103515245 + 12345) | 0) & 1 ? 1 : -1));
    return JSON.stringify(Object.fromEntries(entries), undefined, indent);
  });

describe("jsonrpc/frame-ends", () => {
  it("never reads a member wrongly: every member it names is the frame's own, at its outer level", () => {
    fc.assert(
      fc.property(message, fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), (text, headChars, tailChars) => {
        const whole = JSON.parse(text) as Record<string, unknown>;
        const read = frameEnds(text.slice(0, headChars), text.slice(-tailChars));
        for (const [key, got] of read) {
          expect(Object.hasOwn(whole, key), `${key} in ${text}`).to.equal(true);
          const actual = whole[key];
          if (typeof actual === "object" && actual !== null) expect(typeof got, `${key} in ${text}`).to.equal("symbol");
          else expect(got, `${key} in ${text}`).to.deep.equal(actual);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("finds the id and the method where writers put them, first or last, whatever the frame holds between", () => {
    fc.assert(
      fc.property(id, tricky, fc.string({ minLength: 10_000, maxLength: 10_000 }), (id, method, padding) => {
        const params = { text: padding };
        for (const text of [
          JSON.stringify({ jsonrpc: "2.0", id, method, params }), // ours, Python's
          JSON.stringify({ method, params, jsonrpc: "2.0", id }), // SDK v1 and v2
        ]) {
          if (JSON.stringify(id).length + JSON.stringify(method).length > 150) continue; // longer than the ends kept
          const read = frameEnds(text.slice(0, 200), text.slice(-200));
          expect(read.get("id"), text.slice(0, 100)).to.deep.equal(id);
          expect(read.get("method"), text.slice(0, 100)).to.equal(method);
        }
        const answer = JSON.stringify({ result: params, jsonrpc: "2.0", id });
        if (JSON.stringify(id).length <= 150) expect(frameEnds(answer.slice(0, 200), answer.slice(-200)).get("id")).to.deep.equal(id);
      }),
      { numRuns: 300 },
    );
  });

  it("never throws, whatever the text (a log line, JSON's look-alikes: leading zeros, bad escapes, raw control characters)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: fc.constantFrom('"', "\\", "{", "}", ",", ":", "0", "1", "x", "\t", "u", "e", "-", ".") }), (a, b) => {
        for (const text of [a, b, `{${b}`, `${b}}`, `{"id":${b}}`]) frameEnds(text, text);
      }),
      { numRuns: 5000 },
    );
    for (const text of ['{"id":01,"method":"x"}', '{"id":"\\x","method":"x"}', '{"id":"\\u12","m":1}', '{"id":"a\tb","m":1}', '{"a":{},"id":007}']) {
      expect(() => frameEnds(text, text), text).not.to.throw();
      expect(frameEnds(text, text).get("id"), text).to.equal(undefined);
    }
  });

  it("a name that comes twice has its last value, as with JSON.parse", () => {
    const text = '{"id":1,"method":"a","params":{"x":"' + "y".repeat(500) + '"},"id":2,"method":"b"}';
    const read = frameEnds(text.slice(0, 200), text.slice(-200));
    expect([read.get("id"), read.get("method")]).to.deep.equal([2, "b"]);
    expect(frameEnds('{"id":1,"id":3,"params":{}', "").get("id")).to.equal(3);
  });

  it("reads what it can tell and nothing more: a tail that starts inside a string, text that is not an object", () => {
    // x's value is the string `","id":9}`; this tail opens with one of its escaped quotes.
    const text = JSON.stringify({ x: '","id":9}', id: 1 });
    const tail = text.slice(text.indexOf('\\"') + 1);
    expect(tail.startsWith('",\\"id\\":9}')).to.equal(true);
    expect([...frameEnds("", tail)]).to.deep.equal([["id", 1]]);
    // A tail may start anywhere: what ends the frame is still at its outer level.
    expect([...frameEnds("", '","id":9}')]).to.deep.equal([["id", 9]]);
    expect(frameEnds("[1,2]", "[1,2]").size).to.equal(0);
    expect(frameEnds('{"id":12', "").size).to.equal(0); // the head ends inside the value
  });
});
