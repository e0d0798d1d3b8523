// docs/servers.md's "The handler context" documents RequestContext whole: its table has one row per
// member of the interface (runtime/dispatch/context.ts, read with the TypeScript compiler), and
// no row for a member that does not exist. A field added to the context without a line in the
// docs, or renamed, fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import ts from "typescript";
import { ROOT } from "../../support/project.js";

function contextMembers(): string[] {
  const path = join(ROOT, "runtime", "dispatch", "context.ts");
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, true);
  const context = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "RequestContext");
  expect(context, "interface RequestContext in runtime/dispatch/context.ts").to.not.equal(undefined);
  return context!.members.map((member) => member.name!.getText(source));
}

function documentedFields(): string[] {
  const docs = readFileSync(join(ROOT, "docs", "servers.md"), "utf8");
  const section = /^## The handler context\n([^]*?)(?=^## |(?![^]))/m.exec(docs)?.[1];
  expect(section, "docs/servers.md has a section ## The handler context").to.be.a("string");
  // Table rows: | `name` or | `name(args)` |
  return [...section!.matchAll(/^\| `(\w+)[(`]/gm)].map((match) => match[1]!);
}

describe("docs: the handler context", () => {
  it("documents every member of RequestContext, and only those", () => {
    const members = contextMembers();
    expect(members.length).to.be.greaterThan(10);
    expect([...documentedFields()].sort()).to.deep.equal([...members].sort());
  });
});
