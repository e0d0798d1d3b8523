// SEP-1034 defaults: only an accepted form is filled, only where the user left a field out, and a
// field named __proto__ (from JSON on the wire) stays a field.
import { expect } from "chai";
import { withElicitationDefaults } from "../../../runtime/session/elicitation-defaults.js";

const requestedSchema = { type: "object", properties: { name: { type: "string", default: "Ada" }, n: { type: "integer", default: 3 }, free: { type: "string" } } };

describe("client/elicitation-defaults", () => {
  it("fills the missing fields of an accepted form, and keeps the given ones", () => {
    expect(withElicitationDefaults({ requestedSchema }, { action: "accept", content: { n: 9 } })).to.deep.equal({ action: "accept", content: { n: 9, name: "Ada" } });
    expect(withElicitationDefaults({ requestedSchema }, { action: "accept" })).to.deep.equal({ action: "accept", content: { name: "Ada", n: 3 } });
  });

  it("leaves declined, cancelled and URL-mode answers alone", () => {
    for (const result of [{ action: "decline" }, { action: "cancel" }]) expect(withElicitationDefaults({ requestedSchema }, result)).to.equal(result);
    const url = { action: "accept" };
    expect(withElicitationDefaults({ mode: "url", url: "https://x", requestedSchema }, url)).to.equal(url);
  });

  it("a default for a field named __proto__ is an own field, not the object's prototype", () => {
    const params = JSON.parse('{"requestedSchema":{"type":"object","properties":{"__proto__":{"type":"string","default":"x"}}}}');
    const filled = withElicitationDefaults(params, { action: "accept", content: {} });
    const content = filled.content as Record<string, unknown>;
    expect(Object.getPrototypeOf(content)).to.equal(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(content, "__proto__")).to.equal(true);
    expect(JSON.parse(JSON.stringify(filled)).content).to.deep.equal(JSON.parse('{"__proto__":"x"}'));
  });
});
