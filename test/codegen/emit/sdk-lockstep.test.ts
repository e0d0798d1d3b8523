/**
 * Lockstep with the official SDK (@modelcontextprotocol/sdk, a dev dependency): for every type
 * name exported both by generated/2025-11-25/types.ts and by the SDK's
 * `@modelcontextprotocol/sdk/types.js`, the two are assigned to each other in both directions
 * by the compiler. The pairs that fail must be exactly the known divergences below: a new one
 * fails the test, and so does one that disappears, so the list stays honest.
 */
import { join } from "node:path";
import { expect } from "chai";
import { Project, ts } from "ts-morph";
import { ROOT } from "../../support/project.js";

type Direction = "ours->sdk" | "sdk->ours";

// Why a pair fails, once per cause. Each was read off the compiler's elaboration and checked
// against the schema JSON and the SDK's zod source (node_modules/@modelcontextprotocol/sdk/dist/esm/types.js).
const ENVELOPE =
  "the SDK's X{Request,Notification} is { method, params } and adds jsonrpc/id only in JSONRPCRequest/JSONRPCNotification; " +
  "from 2025-11-25 the schema's concrete messages require jsonrpc (and id for requests), PROTOCOL-NOTES trap 11";
const ELICITATION_FORM =
  "the SDK types ClientCapabilities.elicitation.form as { applyDefaults?: boolean, [x: string]: unknown }; schema.ts has " +
  "`form?: object` and so do we (model: TS `object`, PROTOCOL-NOTES trap 3), and TS does not assign `object` to a type with properties";

/** name, direction, reason: the pairs expected to fail, kept once. */
const KNOWN_DIVERGENCES: readonly (readonly [string, Direction, string])[] = [
  ["CallToolRequest", "sdk->ours", ENVELOPE],
  ["CancelTaskRequest", "sdk->ours", ENVELOPE],
  ["CancelledNotification", "sdk->ours", ENVELOPE],
  ["ClientNotification", "sdk->ours", ENVELOPE],
  ["ClientRequest", "sdk->ours", ENVELOPE],
  ["CompleteRequest", "sdk->ours", ENVELOPE],
  ["CreateMessageRequest", "sdk->ours", ENVELOPE],
  ["ElicitRequest", "sdk->ours", ENVELOPE],
  ["ElicitationCompleteNotification", "sdk->ours", ENVELOPE],
  ["GetPromptRequest", "sdk->ours", ENVELOPE],
  ["GetTaskPayloadRequest", "sdk->ours", ENVELOPE],
  ["GetTaskRequest", "sdk->ours", ENVELOPE],
  ["InitializeRequest", "sdk->ours", ENVELOPE],
  ["InitializedNotification", "sdk->ours", ENVELOPE],
  ["ListPromptsRequest", "sdk->ours", ENVELOPE],
  ["ListResourceTemplatesRequest", "sdk->ours", ENVELOPE],
  ["ListResourcesRequest", "sdk->ours", ENVELOPE],
  ["ListRootsRequest", "sdk->ours", ENVELOPE],
  ["ListTasksRequest", "sdk->ours", ENVELOPE],
  ["ListToolsRequest", "sdk->ours", ENVELOPE],
  ["LoggingMessageNotification", "sdk->ours", ENVELOPE],
  ["PaginatedRequest", "sdk->ours", ENVELOPE],
  ["PingRequest", "sdk->ours", ENVELOPE],
  ["ProgressNotification", "sdk->ours", ENVELOPE],
  ["PromptListChangedNotification", "sdk->ours", ENVELOPE],
  ["ReadResourceRequest", "sdk->ours", ENVELOPE],
  ["ResourceListChangedNotification", "sdk->ours", ENVELOPE],
  ["ResourceUpdatedNotification", "sdk->ours", ENVELOPE],
  ["RootsListChangedNotification", "sdk->ours", ENVELOPE],
  ["ServerNotification", "sdk->ours", ENVELOPE],
  ["ServerRequest", "sdk->ours", ENVELOPE],
  ["SetLevelRequest", "sdk->ours", ENVELOPE],
  ["SubscribeRequest", "sdk->ours", ENVELOPE],
  ["TaskStatusNotification", "sdk->ours", ENVELOPE],
  ["ToolListChangedNotification", "sdk->ours", ENVELOPE],
  ["UnsubscribeRequest", "sdk->ours", ENVELOPE],

  ["CreateMessageResult", "ours->sdk",
    "the SDK's CreateMessageResult.content is one text | image | audio block (tool_use, tool_result and arrays are in its " +
    "CreateMessageResultWithTools); the 2025-11-25 schema allows all of them in CreateMessageResult"],

  ["ClientCapabilities", "ours->sdk", ELICITATION_FORM],
  ["InitializeRequestParams", "ours->sdk", `${ELICITATION_FORM} (capabilities, as ClientCapabilities)`],
  ["InitializeRequest", "ours->sdk", `${ELICITATION_FORM} (params.capabilities)`],
  ["ClientRequest", "ours->sdk", `${ELICITATION_FORM} (through InitializeRequest)`],
];

const OURS = "../../../generated/2025-11-25/types.js";
const SDK = "@modelcontextprotocol/sdk/types.js";

interface Checked {
  readonly shared: readonly string[];
  readonly failing: readonly string[];
  readonly messages: ReadonlyMap<string, string>;
  readonly unmapped: readonly string[];
}

/** Compiles the two-way assignments in memory (nothing is written) and maps each diagnostic back to its pair. */
function checkLockstep(): Checked {
  const project = new Project({
    compilerOptions: {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      noEmit: true,
      types: [],
    },
    skipAddingFilesFromTsConfig: true,
  });
  const dir = join(ROOT, "test", "codegen", "emit");
  const imports = `import type * as Ours from "${OURS}";\nimport type * as Sdk from "${SDK}";\n`;

  // Which names each module exports as a type (interfaces, aliases, classes), via the checker.
  const probe = project.createSourceFile(join(dir, "__sdk_lockstep_names__.ts"), `${imports}export {};\n`);
  const checker = project.getTypeChecker().compilerObject;
  const program = project.getProgram().compilerObject;
  const modules = program
    .getSourceFile(probe.getFilePath())!
    .statements.filter(ts.isImportDeclaration)
    .map((declaration) => checker.getSymbolAtLocation(declaration.moduleSpecifier));
  const typeExports = (module: ts.Symbol | undefined): Set<string> => {
    if (module === undefined) throw new Error("a module did not resolve");
    return new Set(
      checker
        .getExportsOfModule(module)
        .filter((symbol) => ((symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol).flags & ts.SymbolFlags.Type) !== 0)
        .map((symbol) => symbol.name),
    );
  };
  const ours = typeExports(modules[0]);
  const sdk = typeExports(modules[1]);
  const shared = [...ours].filter((name) => sdk.has(name)).sort();

  // One statement per line, so a diagnostic's line names its pair.
  const pairs: string[] = [];
  const lines: string[] = [];
  for (const name of shared) {
    lines.push(`declare const ours_${name}: Ours.${name}; export const toSdk_${name}: Sdk.${name} = ours_${name};`);
    pairs.push(`${name} ours->sdk`);
    lines.push(`declare const sdk_${name}: Sdk.${name}; export const toOurs_${name}: Ours.${name} = sdk_${name};`);
    pairs.push(`${name} sdk->ours`);
  }
  const header = imports.split("\n").length - 1;
  const file = project.createSourceFile(join(dir, "__sdk_lockstep__.ts"), imports + lines.join("\n") + "\n");

  const failing = new Set<string>();
  const messages = new Map<string, string>();
  const unmapped: string[] = [];
  for (const diagnostic of file.getPreEmitDiagnostics()) {
    const text = ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, "\n");
    const line = diagnostic.getSourceFile()?.getFilePath() === file.getFilePath() ? diagnostic.getLineNumber() : undefined;
    const pair = line === undefined ? undefined : pairs[line - 1 - header];
    if (pair === undefined) {
      unmapped.push(`${diagnostic.getSourceFile()?.getFilePath() ?? "?"}:${line ?? "?"} ${text}`);
      continue;
    }
    failing.add(pair);
    messages.set(pair, text.split("\n").slice(0, 6).join("\n"));
  }
  return { shared, failing: [...failing].sort(), messages, unmapped };
}

describe("codegen/emit/types: lockstep with @modelcontextprotocol/sdk (2025-11-25)", function () {
  this.timeout(120_000);
  let checked: Checked;
  before(() => {
    checked = checkLockstep();
  });

  it("shares most of its type names with the SDK", () => {
    expect(checked.shared.length, checked.shared.join(", ")).to.be.greaterThan(120);
    for (const name of ["CallToolResult", "Tool", "RequestId", "JSONRPCMessage", "ServerCapabilities"]) expect(checked.shared).to.include(name);
  });

  it("compiles the checks without a diagnostic outside the assignments", () => {
    expect(checked.unmapped).to.deep.equal([]);
  });

  it("lists each known divergence once, with a reason, for a name both sides export", () => {
    const keys = KNOWN_DIVERGENCES.map(([name, direction]) => `${name} ${direction}`);
    expect(new Set(keys).size, "duplicates in KNOWN_DIVERGENCES").to.equal(keys.length);
    for (const [name, , reason] of KNOWN_DIVERGENCES) {
      expect(checked.shared, `${name} is no longer exported by both`).to.include(name);
      expect(reason).to.be.a("string").with.length.greaterThan(20);
    }
  });

  it("assigns every shared type both ways, except exactly the known divergences", () => {
    const known = KNOWN_DIVERGENCES.map(([name, direction]) => `${name} ${direction}`).sort();
    const unexpected = checked.failing.filter((pair) => !known.includes(pair));
    const vanished = known.filter((pair) => !checked.failing.includes(pair));
    const explain = unexpected.map((pair) => `${pair}:\n${checked.messages.get(pair)}`).join("\n\n");
    expect(
      { unexpected, vanished },
      "unexpected: new divergences (fix the generator, or list them with their reason); " +
        `vanished: known divergences that no longer occur (remove them from KNOWN_DIVERGENCES)\n\n${explain}`,
    ).to.deep.equal({ unexpected: [], vanished: [] });
  });
});
