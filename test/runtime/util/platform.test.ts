// runtime/util/platform: which platform the runtime is on, from its globals.
import { expect } from "chai";
import { crossRequestPollMs, isEdge } from "../../../runtime/util/platform.js";
import { commonJsRequire } from "../../../runtime/util/require.js";
import { asVercelEdge, asWorkerd } from "../../support/platform.js";

describe("runtime/util/platform", () => {
  it("Node: not an edge platform, requires packages, and waits need no polling", () => {
    expect(isEdge()).to.equal(false);
    expect(commonJsRequire()).to.be.a("function");
    expect(crossRequestPollMs()).to.equal(undefined);
  });

  it("workerd: an edge platform whose waits on other requests poll", async () => {
    const seen = await asWorkerd(() => ({ edge: isEdge(), require: commonJsRequire(), pollMs: crossRequestPollMs() }));
    expect(seen.edge).to.equal(true);
    expect(seen.require, "packages are imported there").to.equal(undefined);
    expect(seen.pollMs).to.be.a("number").above(0);
    expect(isEdge(), "put back afterwards").to.equal(false);
  });

  it("Vercel Edge: an edge platform, with no polling (only workerd needs it)", async () => {
    const seen = await asVercelEdge(() => ({ edge: isEdge(), require: commonJsRequire(), pollMs: crossRequestPollMs() }));
    expect(seen).to.deep.equal({ edge: true, require: undefined, pollMs: undefined });
  });
});
