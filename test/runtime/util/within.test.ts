import { expect } from "chai";
import { within } from "../../../runtime/util/within.js";

describe("util/within", () => {
  it("gives the promise's value when it settles first", async () => {
    expect(await within(10_000, Promise.resolve("done"))).to.equal("done");
  });

  it("gives undefined once the time has passed, for a promise that never settles", async () => {
    expect(await within(5, new Promise<string>(() => {}))).to.equal(undefined);
  });

  it("passes on the promise's rejection", async () => {
    const refused = await within(10_000, Promise.reject(new Error("no"))).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(refused).to.equal("no");
  });
});
