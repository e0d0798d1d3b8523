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

  // Issue 27: JWT verification needs jose only, and nothing needs either until it is used: the
  // auth entry point imports them only as types, and loads them with import() inside the
  // functions that need them (runtime/auth/peers.ts).
  it("runtime/auth/index.ts loads neither statically, and the walk sees the auth files", () => {
    const modules = [...reachable("auth/index.ts")];
    expect(modules).to.include(join(RUNTIME, "auth", "peers.ts"));
    expect(modules).to.include(join(RUNTIME, "auth", "server", "jwt.ts"));
    expect(modules.filter((m) => m === "oauth4webapi" || m === "jose")).to.deep.equal([]);
  });

  it("the walk does see a static import of a peer (the check can fail)", () => {
    const file = join(RUNTIME, "auth", "peers.ts");
    const text = readFileSync(file, "utf8");
    expect([...text.replace('import type * as Jose from "jose"', 'import * as Jose from "jose"').matchAll(STATIC_IMPORT)].map((m) => m[1])).to.include("jose");
    expect([...text.matchAll(STATIC_IMPORT)].map((m) => m[1])).to.not.include("jose");
  });
});
