// The layers of runtime/ and codegen/, lowest first, declared once here (docs/architecture.md
// draws them). A module imports from its own layer entry and from entries below it: never from an
// entry above, never from a sibling of the same layer; and no modules import each other in a circle.
import { relative } from "node:path";
import { expect } from "chai";
import { importsOf, modulesUnder, resolveLocal, root } from "../support/imports.js";

/**
 * Each line is one layer; each entry a folder (ending in "/") or a file. A module belongs to the
 * longest entry its path starts with.
 */
export const LAYERS: readonly (readonly string[])[] = [
  // The runtime.
  ["runtime/util/"],
  // What generated modules import at run time (@mcp-codegen/runtime/support).
  ["runtime/support/"],
  // The JSON Schema compiler: the schema model, one module per keyword, the check IR and its renderers;
  // the protocol's validators, generate --tools and the runtime's tool schemas all compile with it.
  ["runtime/json-schema/"],
  ["runtime/contract.ts"],
  ["generated/"],
  ["runtime/stores/"],
  ["runtime/jsonrpc/"],
  ["runtime/shared/"],
  ["runtime/transports/"],
  ["runtime/session/"],
  ["runtime/dispatch/"],
  // Observability written on the hooks (shared/hooks.ts).
  ["runtime/telemetry/"],
  // The extensions' wings (tasks, skills, apps): what the server and the client assemble.
  ["runtime/extensions/tasks/", "runtime/extensions/skills/", "runtime/extensions/apps/"],
  ["runtime/server/", "runtime/client/"],
  // Add-ons built on McpClient.
  ["runtime/extensions/skills/client.ts"],
  ["runtime/auth/"],
  ["runtime/index.ts", "runtime/http.ts", "runtime/redis.ts", "runtime/otel.ts"],
  // The generator.
  ["codegen/errors.ts", "codegen/did-you-mean.ts", "codegen/json.ts", "codegen/version.ts"],
  ["codegen/spec/files.ts"],
  ["codegen/format-cache.ts", "codegen/spec/pinned.ts", "codegen/retired.ts", "codegen/unknown-keywords.ts", "codegen/load/doc-links.ts"],
  ["codegen/load/"],
  ["codegen/model/"],
  ["codegen/emit/", "codegen/diff/"],
  ["codegen/pipeline.ts"],
  ["codegen/write.ts"],
  ["codegen/generate.ts"],
  ["codegen/out.ts", "codegen/check.ts"],
  ["codegen/scaffold/"],
  ["codegen/tool-validators/"],
  // The SDK codemod: ts-morph on a user's sources, nothing of the generator's.
  ["codegen/migrate/"],
  ["codegen/spec/", "codegen/project-spec.ts"],
  ["codegen/cli.ts"],
];

const TREES = ["runtime", "codegen"];

function entryOf(module: string): string | undefined {
  let best: string | undefined;
  for (const layer of LAYERS) for (const entry of layer) if ((entry.endsWith("/") ? module.startsWith(entry) : module === entry) && (best === undefined || entry.length > best.length)) best = entry;
  return best;
}

function levelOf(entry: string): number {
  return LAYERS.findIndex((layer) => layer.includes(entry));
}

/** Every module of the trees and what it imports (relative imports only, as repository paths). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const tree of TREES)
    for (const path of modulesUnder(`${root}/${tree}`))
      graph.set(
        relative(root, path),
        importsOf(path)
          .filter((found) => found.specifier.startsWith("."))
          .map((found) => relative(root, resolveLocal(path, found.specifier))),
      );
  return graph;
}

/** The import edges that do not run down a layer, as "from -> to (why)". */
export function upwardImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const problems: string[] = [];
  for (const [from, targets] of graph) {
    const fromEntry = entryOf(from);
    if (fromEntry === undefined) {
      problems.push(`${from} is in no layer: add it to LAYERS`);
      continue;
    }
    for (const to of targets) {
      const toEntry = entryOf(to);
      if (toEntry === undefined) problems.push(`${from} -> ${to}: ${to} is in no layer`);
      else if (toEntry !== fromEntry && levelOf(toEntry) >= levelOf(fromEntry))
        problems.push(`${from} -> ${to}: ${levelOf(toEntry) === levelOf(fromEntry) ? "sideways" : "up"}, from ${fromEntry} to ${toEntry}`);
    }
  }
  return problems;
}

/** The import circles: each strongly connected set of modules (Tarjan), sorted. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== node);
      if (members.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(members.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** How the runtime may reach the generated modules: the registry (revisions, extensions, the types handlers are written against). */
const GENERATED_GATES = new Set(["generated/registry.ts"]);
/** Runtime imports of generated/ that pass neither gate. */
export function generatedReachedAround(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph)
    if (from.startsWith("runtime/")) for (const to of targets) if (to.startsWith("generated/") && !GENERATED_GATES.has(to)) found.push(`${from} -> ${to}`);
  return found;
}

describe("architecture: layers", () => {
  const graph = importGraph();

  it("every import in runtime/ and codegen/ runs down a layer (or stays in its own entry)", () => {
    expect(upwardImports(graph)).to.deep.equal([]);
  });

  it("no modules import each other in a circle", () => {
    expect(cycles(graph)).to.deep.equal([]);
  });

  it("the runtime reaches generated modules only through the registry", () => {
    expect(generatedReachedAround(graph)).to.deep.equal([]);
  });

  it("the checks catch what they are for", () => {
    // An import from the JSON-RPC layer up to the server, and a two-module circle.
    const planted = new Map([
      ["runtime/jsonrpc/peer.ts", ["runtime/server/server.ts"]],
      ["runtime/server/server.ts", ["runtime/jsonrpc/peer.ts"]],
      ["runtime/server/tools.ts", ["runtime/client/client.ts"]],
    ]);
    expect(upwardImports(planted)).to.deep.equal([
      "runtime/jsonrpc/peer.ts -> runtime/server/server.ts: up, from runtime/jsonrpc/ to runtime/server/",
      "runtime/server/tools.ts -> runtime/client/client.ts: sideways, from runtime/server/ to runtime/client/",
    ]);
    expect(cycles(planted)).to.deep.equal([["runtime/jsonrpc/peer.ts", "runtime/server/server.ts"]]);
    const around = new Map([["runtime/extensions/tasks/core-tasks.ts", ["generated/2025-11-25/types.ts", "generated/registry.ts"]]]);
    expect(generatedReachedAround(around)).to.deep.equal(["runtime/extensions/tasks/core-tasks.ts -> generated/2025-11-25/types.ts"]);
  });
});
