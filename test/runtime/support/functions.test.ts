/**
 * runtime/support/functions.ts: the table of support functions by name is exactly what
 * validation.ts exports as functions, each the same function, so printed checks and the
 * runtime's compiled checks can call any of them.
 */
import { expect } from "chai";
import { SUPPORT_FUNCTIONS } from "../../../runtime/support/functions.js";
import * as validation from "../../../runtime/support/validation.js";

describe("support/functions", () => {
  it("the table holds every function validation.ts exports, and nothing else", () => {
    const exported = Object.entries(validation).filter(([, value]) => typeof value === "function");
    expect(Object.keys(SUPPORT_FUNCTIONS).sort()).to.deep.equal(exported.map(([name]) => name).sort());
    for (const [name, fn] of exported) expect((SUPPORT_FUNCTIONS as Record<string, unknown>)[name], name).to.equal(fn);
  });
});
