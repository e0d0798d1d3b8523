// oauth4webapi and jose are optional: only the auth entry point loads them. Walks the static
// imports from the runtime's other entry points and checks that none reaches runtime/auth or
// those packages (dynamic import() of them stays allowed: it runs only when auth is used).
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const RUNTIME = resolve(dirname(fileURLToPath(import.meta.url)), "../../../runtime");
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gm;

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      if (spec!.startsWith(".")) walk(join(dirname(file), spec!.replace(/\.js$/, ".ts")));
      else seen.add(spec!);
    }
  };
  walk(join(RUNTIME, entry));
  return seen;
}

describe("runtime/auth is optional", () => {
  for (const entry of ["index.ts", "http.ts"])
    it(`runtime/${entry} does not load oauth4webapi, jose or runtime/auth`, () => {
      const modules = [...reachable(entry)];
      expect(modules.length).to.be.greaterThan(5);
      expect(modules.filter((m) => m === "oauth4webapi" || m === "jose" || m.startsWith(join(RUNTIME, "auth")))).to.deep.equal([]);
    });

  it("runtime/auth/index.ts does load them (the walk sees what it looks for)", () => {
    const modules = reachable("auth/index.ts");
    expect(modules.has("oauth4webapi")).to.equal(true);
  });
});
