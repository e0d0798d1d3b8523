import { expect } from "chai";
import fc from "fast-check";
import { closest, didYouMean, editDistance } from "../../codegen/did-you-mean.js";

describe("codegen/did-you-mean", () => {
  it("counts one edit per insertion, deletion, substitution or swap of neighbours", () => {
    expect(editDistance("generate", "generate")).to.equal(0);
    expect(editDistance("genrate", "generate")).to.equal(1);
    expect(editDistance("tols", "tools")).to.equal(1);
    expect(editDistance("requird", "required")).to.equal(1);
    expect(editDistance("strng", "string")).to.equal(1);
    expect(editDistance("titel", "title")).to.equal(1); // a swap
    expect(editDistance("", "abc")).to.equal(3);
  });

  it("is a distance: zero only for equal strings, symmetric, at most the longer length", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const d = editDistance(a, b);
        expect(d).to.equal(editDistance(b, a));
        expect(d === 0).to.equal(a === b);
        expect(d).to.be.at.most(Math.max(a.length, b.length));
      }),
      { numRuns: 300 },
    );
  });

  it("suggests the closest known name only when it is close enough to be a typo", () => {
    const keys = ["tools", "resources", "resourceTemplates", "prompts", "transport"];
    expect(closest("tols", keys)).to.equal("tools");
    expect(closest("Prompts", keys)).to.equal("prompts");
    expect(closest("resourceTemplate", keys)).to.equal("resourceTemplates");
    expect(closest("zzz", keys)).to.equal(undefined);
    expect(didYouMean("transprot", keys)).to.equal(' (did you mean "transport"?)');
    expect(didYouMean("banana", keys)).to.equal("");
  });
});
