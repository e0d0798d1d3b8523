import { expect } from "chai";
import fc from "fast-check";
import { printable } from "../../../runtime/util/printable.js";

describe("printable", () => {
  it("leaves no character that could end a line or a header field, and changes nothing else", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (text) => {
        const out = printable(text);
        expect(out).to.have.length(text.length);
        expect(out).to.not.match(/[\x00-\x1f\x7f]/);
        for (let i = 0; i < text.length; i++) expect(out[i]).to.equal(/[\x00-\x1f\x7f]/.test(text[i]!) ? " " : text[i]);
      }),
      { numRuns: 300, seed: 7 },
    );
    expect(printable("bad\r\nSet-Cookie: x\u0007\u007f")).to.equal("bad  Set-Cookie: x  ");
  });
});
