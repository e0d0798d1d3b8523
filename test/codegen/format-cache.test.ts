// codegen/format-cache.ts: formatted text is kept by content, used only when intact, bounded,
// and the generator's output through it is prettier's own.
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { format } from "prettier";
import { cachedFormatter, defaultCacheDir } from "../../codegen/format-cache.js";
import { formatFiles } from "../../codegen/write.js";
import { ROOT } from "../support/project.js";

const SOURCE = "export interface A {a: string; b?: number}\nexport const x = [1,2,3]";

describe("codegen/format-cache", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "mcp-format-cache-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A formatter that counts its calls and upper-cases, so that what comes from the cache is told apart. */
  function counting() {
    const calls: string[] = [];
    const formatter = async (text: string) => {
      calls.push(text);
      return text.toUpperCase();
    };
    return { calls, formatter };
  }

  it("formats a text once; the second time it comes from the folder, whatever the formatter would say", async () => {
    const { calls, formatter } = counting();
    const cached = cachedFormatter(formatter, "f@1", dir);
    expect(await cached("abc")).to.equal("ABC");
    expect(await cached("abc")).to.equal("ABC");
    expect(calls).to.deep.equal(["abc"]);
    expect(readdirSync(dir)).to.have.length(1);
    // Another identity (a formatter version or options) is another key.
    const other = counting();
    expect(await cachedFormatter(other.formatter, "f@2", dir)("abc")).to.equal("ABC");
    expect(other.calls).to.deep.equal(["abc"]);
  });

  it("a damaged or foreign entry is not used: the text is formatted again and the entry replaced", async () => {
    const { calls, formatter } = counting();
    const cached = cachedFormatter(formatter, "f@1", dir);
    await cached("abc");
    const [entry] = readdirSync(dir);
    const path = join(dir, entry!);
    for (const damaged of ["", "ABC", `${"0".repeat(64)}\nABC`, readFileSync(path, "utf8").slice(0, -1), `${readFileSync(path, "utf8")}X`]) {
      writeFileSync(path, damaged);
      expect(await cached("abc"), JSON.stringify(damaged)).to.equal("ABC");
    }
    expect(calls).to.have.length(6);
    expect(readFileSync(path, "utf8").split("\n")[1]).to.equal("ABC");
  });

  it("keeps at most 400 entries, removing the oldest down to 200", async () => {
    const { formatter } = counting();
    const cached = cachedFormatter(formatter, "f@1", dir);
    for (let i = 0; i < 400; i++) await cached(`text ${i}`);
    const old = Date.now() / 1000 - 3600;
    for (const name of readdirSync(dir)) utimesSync(join(dir, name), old, old);
    // A new formatter instance prunes on its first write.
    const fresh = cachedFormatter(formatter, "f@1", dir);
    await fresh("newest");
    const left = readdirSync(dir);
    expect(left).to.have.length(200);
    expect(await fresh("newest")).to.equal("NEWEST");
  });

  it("a folder that cannot be written only costs the cache: the result is still the formatted text", async () => {
    const file = join(dir, "not-a-folder");
    writeFileSync(file, "");
    const { calls, formatter } = counting();
    const cached = cachedFormatter(formatter, "f@1", join(file, "cache"));
    expect(await cached("abc")).to.equal("ABC");
    expect(await cached("abc")).to.equal("ABC");
    expect(calls).to.have.length(2);
  });

  it("MCP_CODEGEN_CACHE picks the folder or turns it off; by default it is node_modules/.cache/mcp-codegen of this checkout", () => {
    expect(defaultCacheDir({ MCP_CODEGEN_CACHE: "off" })).to.equal(undefined);
    expect(defaultCacheDir({ MCP_CODEGEN_CACHE: dir })).to.equal(dir);
    expect(defaultCacheDir({})).to.equal(join(ROOT, "node_modules", ".cache", "mcp-codegen", "format"));
  });

  it("formatFiles through the cache gives prettier's output, cold and warm, and leaves formatted files alone", async () => {
    const files = [
      { path: "a.ts", content: SOURCE },
      { path: "b.ts", content: "const  kept =1", formatted: true },
    ];
    const expected = await format(SOURCE, { parser: "typescript", printWidth: 100 });
    for (const round of ["cold", "warm"]) {
      const out = await formatFiles(files, dir);
      expect(out[0]!.content, round).to.equal(expected);
      expect(out[1]!.content, round).to.equal("const  kept =1");
    }
    expect(readdirSync(dir)).to.have.length(1);
  });
});
