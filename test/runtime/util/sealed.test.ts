import { expect } from "chai";
import { Sealer } from "../../../runtime/util/sealed.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("Sealer", () => {
  it("opens what it sealed", () => {
    const sealer = new Sealer();
    expect(sealer.open(sealer.seal({ l: "tools", o: 4 }))).to.deep.equal({ l: "tools", o: 4 });
  });

  it("refuses a token sealed with another key, and one without a signature", () => {
    const token = new Sealer("one key").seal({ o: 1 });
    expect(new Sealer("another key").open(token)).to.equal(undefined);
    expect(new Sealer("one key").open(token)).to.deep.equal({ o: 1 });
    expect(new Sealer().open("eyJvIjoxfQ")).to.equal(undefined);
  });

  it("refuses an altered payload that keeps the signature", () => {
    const sealer = new Sealer();
    const token = sealer.seal({ o: 1 });
    const signature = token.slice(token.lastIndexOf(".") + 1);
    expect(sealer.open(`${Buffer.from(JSON.stringify({ o: 2 })).toString("base64url")}.${signature}`)).to.equal(undefined);
  });

  it("accepts one spelling of a signature only (base64url's last character has spare bits)", () => {
    const sealer = new Sealer();
    const token = sealer.seal({ o: 1 });
    const accepted = [...ALPHABET].filter((c) => sealer.open(token.slice(0, -1) + c) !== undefined);
    expect(accepted).to.deep.equal([token.at(-1)]);
  });
});
