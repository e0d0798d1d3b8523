import { expect } from "chai";
import { Sealer } from "../../../runtime/util/sealed.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("Sealer", () => {
  it("opens what it sealed", () => {
    const sealer = new Sealer();
    expect(sealer.open("cursor", sealer.seal("cursor", { l: "tools", o: 4 }))).to.deep.equal({ l: "tools", o: 4 });
  });

  it("refuses a token sealed with another key, and one without a signature", () => {
    const token = new Sealer("one key").seal("cursor", { o: 1 });
    expect(new Sealer("another key").open("cursor", token)).to.equal(undefined);
    expect(new Sealer("one key").open("cursor", token)).to.deep.equal({ o: 1 });
    expect(new Sealer().open("cursor", "eyJvIjoxfQ")).to.equal(undefined);
  });

  it("refuses a token sealed for another purpose under the same key", () => {
    const sealer = new Sealer("one key");
    const token = sealer.seal("cursor", { o: 1 });
    expect(sealer.open("requestState", token)).to.equal(undefined);
    expect(sealer.open("cursor", token)).to.deep.equal({ o: 1 });
  });

  it("rotates: seals with the first key of a set and accepts a token sealed with any of them", () => {
    const old = new Sealer("old key");
    const rotated = new Sealer(["new key", Buffer.from("old key")]);
    const newOnly = new Sealer("new key");
    const before = old.seal("cursor", { o: 1 });
    expect(rotated.open("cursor", before), "a token of the old key, during rotation").to.deep.equal({ o: 1 });
    const after = rotated.seal("cursor", { o: 2 });
    expect(newOnly.open("cursor", after), "sealed with the first key").to.deep.equal({ o: 2 });
    expect(old.open("cursor", after)).to.equal(undefined);
    expect(newOnly.open("cursor", before), "once the old key is dropped").to.equal(undefined);
    expect(() => new Sealer([])).to.throw("at least one key");
  });

  it("refuses an altered payload that keeps the signature", () => {
    const sealer = new Sealer();
    const token = sealer.seal("cursor", { o: 1 });
    const signature = token.slice(token.lastIndexOf(".") + 1);
    expect(sealer.open("cursor", `${Buffer.from(JSON.stringify({ o: 2 })).toString("base64url")}.${signature}`)).to.equal(undefined);
  });

  it("accepts one spelling of a signature only (base64url's last character has spare bits)", () => {
    const sealer = new Sealer(["a", "b"]);
    const token = sealer.seal("cursor", { o: 1 });
    const accepted = [...ALPHABET].filter((c) => sealer.open("cursor", token.slice(0, -1) + c) !== undefined);
    expect(accepted).to.deep.equal([token.at(-1)]);
  });
});
