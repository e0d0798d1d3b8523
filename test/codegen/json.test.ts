/**
 * JSON syntax errors in a user's file get a line and column: where V8's message names no position
 * (an unexpected token), syntaxErrorAt finds it. Differential against JSON.parse on generated and
 * damaged JSON texts: the same verdict, and the same offset wherever V8 names one.
 */
import { expect } from "chai";
import fc from "fast-check";
import { parseJson, syntaxErrorAt } from "../../codegen/json.js";

/** JSON.parse's verdict: undefined (valid), else the offset its message names (NaN: none). */
function v8(text: string): number | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const message = (error as Error).message;
    return Number(/at position (\d+)/.exec(message)?.[1] ?? (/Unexpected end of JSON input/.test(message) ? text.length : NaN));
  }
}

/** Valid JSON texts, pretty or not, then damaged: a character dropped, doubled or replaced by one JSON gives meaning to. */
const damaged = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), fc.nat(), fc.constantFrom("drop", "double", "replace", "none"), fc.constantFrom(..."{}[]\":,-.0123e+tfnu\\ \n x"))
  .map(([value, pretty, place, how, char]) => {
    const text = JSON.stringify(value, null, pretty ? 2 : undefined) ?? "null";
    const at = place % (text.length + 1);
    if (how === "drop") return text.slice(0, at) + text.slice(at + 1);
    if (how === "double") return text.slice(0, at) + text[at - 1] + text.slice(at);
    if (how === "replace") return text.slice(0, at) + char + text.slice(at + 1);
    return text;
  });
const noise = fc.string({ unit: fc.constantFrom(..."{}[]\":,-.0123eE+tfnulrs\\ \n\tx"), maxLength: 24 });

describe("codegen/json: syntax errors at a line and column", () => {
  it("agrees with JSON.parse: valid or not, and the offset wherever V8 names one", () => {
    let positioned = 0;
    let unpositioned = 0;
    fc.assert(
      fc.property(fc.oneof(damaged, noise), (text) => {
        const theirs = v8(text);
        const ours = syntaxErrorAt(text);
        if (theirs === undefined) return Number.isNaN(ours);
        expect(ours, JSON.stringify(text)).to.be.within(0, text.length);
        if (Number.isNaN(theirs)) unpositioned++;
        else (positioned++, expect(ours, JSON.stringify(text)).to.equal(theirs));
        return true;
      }),
      { numRuns: 20_000 },
    );
    // Both kinds were exercised: the ones V8 places and the unexpected tokens it does not.
    expect(positioned).to.be.greaterThan(1_000);
    expect(unpositioned).to.be.greaterThan(100);
  });

  it("deep nesting is no stack overflow", () => {
    expect(syntaxErrorAt("[".repeat(100_000))).to.equal(100_000);
    expect(syntaxErrorAt(`${"[".repeat(50_000)}${"]".repeat(50_000)}`)).to.be.NaN;
  });

  it("an unexpected token, which V8 does not place, is named at its line and column", () => {
    expect(() => parseJson('{\n  "a": 1,\n  "b": \n}\n', "bad.json")).to.throw("bad.json:4:1: not valid JSON: Unexpected token '}'");
  });
});
