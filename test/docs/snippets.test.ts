/**
 * The documentation's code, from the packed packages (`make pack`) in a fresh project, as a reader
 * would use it:
 * - every ts block of README.md, CONTRIBUTING.md, docs/*.md and the package READMEs compiles, all
 *   in one tsc run (strict, NodeNext), each block a module of its own; a block marked
 *   `<!-- fragment: why -->` is left out and counted (test/docs/links.test.ts holds the reasons);
 * - a block marked `<!-- run -->` runs to its end, and prints exactly the `text` block right after
 *   it (nothing, when no text block comes right after);
 * - every `$ ` line of an sh block runs in bash (`npx mcp-codegen` is the installed CLI), one folder per
 *   page, in the page's order, and prints the lines shown under it (`...` stands for any lines;
 *   the folder it runs in is shown as /path/to/project).
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "chai";
import { npm, packedPackages } from "../support/packed.js";
import { describeRun, removeDir, ROOT, runChild, tempDir } from "../support/project.js";
import { startRegistry, type LocalRegistry } from "../support/registry.js";
import { TSC } from "../support/tsc.js";
import { blocks, pages, type Block } from "./pages.js";

/** What the snippets import beside the packages, at the versions this checkout installed. */
const ALSO = ["express", "fastify", "hono", "@types/express", "@types/node", "jose", "oauth4webapi", "redis", "@opentelemetry/api", "yaml", "@cfworker/json-schema", "zod", "valibot", "@valibot/to-json-schema", "arktype", "@modelcontextprotocol/sdk"];

const installedVersion = (name: string) => (JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;

interface Snippet extends Block {
  /** Its module, relative to the project's snippets/ folder. */
  readonly file: string;
  /** What it must print, when it runs. */
  readonly output?: string;
}

/** The ts blocks to compile, each with its file, and the `text` block after a runnable one. */
function snippets(): { compiled: Snippet[]; fragments: Block[] } {
  const compiled: Snippet[] = [];
  const fragments: Block[] = [];
  for (const page of pages()) {
    const all = blocks(page);
    all.forEach((block, index) => {
      if (block.language !== "ts") return;
      if (block.marker?.startsWith("fragment")) return void fragments.push(block);
      const folder = page.replace(/\.md$/, "").replace(/[^A-Za-z0-9]+/g, "-");
      const named = /^file:\s*(\S+)$/.exec(block.marker ?? "")?.[1];
      const file = `${folder}/${named ?? `line-${block.line}.ts`}`;
      const next = all[index + 1];
      if (block.marker === "run") compiled.push({ ...block, file, output: next?.language === "text" && next.adjoining ? next.code : "" });
      else compiled.push({ ...block, file });
    });
  }
  return { compiled, fragments };
}

/** The `$ ` commands of a page's sh blocks, each with the output shown under it. */
function commands(page: string): { line: number; command: string; shown: string[] }[] {
  return blocks(page)
    .filter((block) => block.language === "sh" && block.code.startsWith("$ "))
    .flatMap((block) => {
      const out: { line: number; command: string; shown: string[] }[] = [];
      block.code
        .trimEnd()
        .split("\n")
        .forEach((text, index) => {
          if (text.startsWith("$ ")) out.push({ line: block.line + 1 + index, command: text.slice(2), shown: [] });
          else out.at(-1)!.shown.push(text);
        });
      return out;
    });
}

/** Whether `actual` lines are the `shown` lines, where a shown `...` stands for any lines. */
function matches(shown: readonly string[], actual: readonly string[]): boolean {
  if (shown.length === 0) return actual.length === 0;
  const [first, ...rest] = shown;
  if (first === "...") return actual.some((_, i) => matches(rest, actual.slice(i))) || matches(rest, []);
  return actual.length > 0 && actual[0] === first && matches(rest, actual.slice(1));
}

/** For a failure's last line (a log may show only its tail): where the printed lines leave the shown ones. */
function firstDifference(shown: readonly string[], actual: readonly string[]): string {
  const at = shown.findIndex((line, i) => line === "..." || line !== actual[i]);
  if (at === -1) return `printed ${actual.length - shown.length} more line(s) than shown, from: ${JSON.stringify(actual[shown.length])}`;
  if (shown[at] === "...") return `the lines after the "..." at shown line ${at + 1} are not printed in that order`;
  return `shown line ${at + 1} is ${JSON.stringify(shown[at])}, printed ${actual[at] === undefined ? "nothing there" : JSON.stringify(actual[at])}`;
}

const lines = (text: string) => text.replace(/\s+$/, "").split("\n").map((line) => line.trimEnd()).filter((line, i, all) => line !== "" || i < all.length - 1);

describe("docs: every snippet compiles against the packed packages, runnable ones run, shown commands print what is shown", function () {
  this.timeout(900_000);
  const { compiled, fragments } = snippets();
  const pagesWithCommands = pages().filter((page) => commands(page).length > 0);
  let registry: LocalRegistry;
  let dir: string;
  /** tsc's diagnostics by snippet file. */
  const errors = new Map<string, string[]>();

  before(async function () {
    this.timeout(900_000);
    const packed = packedPackages();
    registry = await startRegistry([packed.runtime, packed.cli]);
    dir = tempDir("docs");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "docs-snippets", private: true, type: "module" }));
    const install = await npm(
      ["install", "--prefer-offline", `@mcp-codegen/runtime@${packed.version}`, `mcp-codegen@${packed.version}`, ...ALSO.map((name) => `${name}@${installedVersion(name)}`)],
      dir,
      registry.url,
    );
    expect(install.status, describeRun(install)).to.equal(0);
    for (const snippet of compiled) {
      mkdirSync(join(dir, "snippets", dirname(snippet.file)), { recursive: true });
      writeFileSync(join(dir, "snippets", snippet.file), snippet.code);
    }
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", lib: ["ES2023"], module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: ["node"], skipLibCheck: true, rootDir: "snippets", outDir: "out" },
        include: ["snippets"],
      }),
    );
    const tsc = await runChild(process.execPath, [TSC, "-p", ".", "--pretty", "false"], { cwd: dir, timeoutMs: 300_000 });
    for (const line of tsc.stdout.split("\n")) {
      const file = /^snippets\/(.+?)\(\d+,\d+\)/.exec(line)?.[1];
      if (file) errors.set(file, [...(errors.get(file) ?? []), line]);
      else if (line.trim() && !/^\s/.test(line)) errors.set("", [...(errors.get("") ?? []), line]);
    }
  });
  after(async () => {
    await registry?.close();
    removeDir(dir);
  });

  it(`${compiled.length} ts blocks compile (${fragments.length} fragments left out), and tsc reports nothing outside them`, () => {
    expect(compiled.length).to.be.greaterThan(20);
    expect(errors.get("") ?? []).to.deep.equal([]);
  });

  for (const snippet of compiled)
    it(`${snippet.page}:${snippet.line} compiles${snippet.output === undefined ? "" : ", runs and prints what the page shows"}`, async () => {
      expect(errors.get(snippet.file) ?? [], snippet.code).to.deep.equal([]);
      if (snippet.output === undefined) return;
      const run = await runChild(process.execPath, [join("out", snippet.file.replace(/\.ts$/, ".js"))], { cwd: dir, timeoutMs: 60_000 });
      expect(run.status, describeRun(run)).to.equal(0);
      expect(lines(run.stdout)).to.deep.equal(lines(snippet.output));
    });

  for (const page of pagesWithCommands)
    it(`${page}: each \`$ \` command runs and prints what the page shows`, async () => {
      const cwd = join(dir, "cli", page.replace(/[^A-Za-z0-9]+/g, "-"));
      mkdirSync(cwd, { recursive: true });
      writeFileSync(join(cwd, "package.json"), JSON.stringify({ name: "docs-cli", private: true, type: "module" }));
      symlinkSync(join(dir, "node_modules"), join(cwd, "node_modules"));
      for (const { line, command, shown } of commands(page)) {
        // By bash, as a reader's shell would; `npx mcp-codegen` is the installed bin (what npx finds).
        const script = command.replace(/^npx mcp-codegen\b/, "mcp-codegen");
        const env = { ...process.env, NO_COLOR: "1", PATH: `${join(cwd, "node_modules", ".bin")}:${process.env.PATH}` };
        const run = await runChild("bash", ["-c", script], { cwd, env, timeoutMs: 300_000 });
        const actual = lines((run.stdout + run.stderr).replaceAll(cwd, "/path/to/project"));
        expect(matches(shown, actual), `${page}:${line}: $ ${command}\n--- shown\n${shown.join("\n")}\n--- printed\n${describeRun(run)}\n--- ${firstDifference(shown, actual)}`).to.equal(true);
      }
    });
});
