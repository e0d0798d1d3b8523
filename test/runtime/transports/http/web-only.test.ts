// The fetch handler's reach is Web APIs only: from the modules a Worker imports (the server and
// the /http entry), follow every relative import, static and dynamic; none may import from node:
// or generate code (new Function, eval) but the tool-schema compiler's code mode, which runs only
// where the platform allows it (runtime/shared/json-schema.ts; test/runtime/shared/json-schema.test.ts
// proves Workers never reach it), and the only packages reached are the tool-schema engines, each
// loaded on demand. The stdio and node:http adapters take Node built-ins through
// process.getBuiltinModule when first used, so even they import nothing from node:.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect } from "chai";
import { importsOf, modulesUnder, resolveLocal, root } from "../../../support/imports.js";

const ENTRIES = ["runtime/index.ts", "runtime/http.ts", "runtime/transports/http/fetch.ts"];
/** Packages the fetch path may reach: each only through a dynamic import, when first used (a tool-schema engine; yaml for skills). */
const PACKAGES = new Set(["ajv", "ajv/dist/2020.js", "yaml"]);
/** The one module that may generate code: the compiler's code mode, not used where code generation is forbidden. */
const CODE_MODE = "runtime/json-schema/code.ts";

function codeGeneration(file: string): string[] {
  const text = readFileSync(file, "utf8").replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");
  return [...text.matchAll(/\bnew\s+Function\s*\(|(?<![.\w])eval\s*\(|\bFunction\s*\(\s*["'`]/g)].map((m) => m[0]);
}

describe("transports/http: the fetch handler reaches Web APIs only", () => {
  it("no module it reaches imports from node: or generates code; packages only on demand", () => {
    const seen = new Set<string>();
    const problems: string[] = [];
    const queue = ENTRIES.map((entry) => join(root, entry));
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const name = relative(root, file);
      if (name !== CODE_MODE) for (const generated of codeGeneration(file)) problems.push(`${name}: ${generated}`);
      for (const found of importsOf(file)) {
        if (found.specifier.startsWith(".")) {
          if (!found.typeOnly) queue.push(resolveLocal(file, found.specifier));
        } else if (found.specifier.startsWith("node:")) {
          if (!found.typeOnly) problems.push(`${name}: imports ${found.specifier}`);
        } else if (!found.typeOnly && !(found.dynamic && PACKAGES.has(found.specifier))) problems.push(`${name}: imports the package ${found.specifier}${found.dynamic ? "" : " statically"}`);
      }
    }
    expect(problems).to.deep.equal([]);
    // The walk did reach the endpoint, its node:http adapter, the server and the generated validators.
    expect(codeGeneration(join(root, CODE_MODE)), "the code mode is what this test allows").to.have.length(1);
    for (const must of ["runtime/transports/http/endpoint.ts", "runtime/transports/http/node.ts", "runtime/server/tools.ts", "runtime/util/sealed.ts"]) expect([...seen].map((f) => relative(root, f))).to.include(must);
    expect([...seen].some((f) => relative(root, f).startsWith("generated/"))).to.equal(true);
  });

  it("no module of the runtime imports from node: (the stdio and node:http adapters load their built-ins on use)", () => {
    const offenders: string[] = [];
    for (const path of modulesUnder(join(root, "runtime"))) {
      const name = relative(root, path);
      for (const found of importsOf(path)) if (found.specifier.startsWith("node:") && !found.typeOnly) offenders.push(`${name}: ${found.specifier}`);
    }
    expect(offenders).to.deep.equal([]);
  });
});
