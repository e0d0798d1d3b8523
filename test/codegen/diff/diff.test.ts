/**
 * codegen/diff on the real revisions, checked against PROTOCOL-NOTES.md and against facts read
 * from the raw schemas (JSON.parse only), then through the CLI in both output formats.
 */
import { expect } from "chai";
import { diffProtocols } from "../../../codegen/diff/diff.js";
import type { DiffReport, MethodChange } from "../../../codegen/diff/report.js";
import { RENAME_THRESHOLD } from "../../../codegen/diff/renames.js";
import { loadSchema } from "../../../codegen/load/load.js";
import { buildProtocol } from "../../../codegen/model/build.js";
import type { Protocol } from "../../../codegen/model/protocol.js";
import { describeRun, rawSchema, runCli, schemaText, type JsonObject } from "../../support/project.js";

const model = (revision: string): Protocol => buildProtocol(loadSchema(revision, schemaText(revision)));

const TASKS = ["tasks/cancel", "tasks/get", "tasks/list", "tasks/result"];

function methods(report: DiffReport, filter: Partial<Pick<MethodChange, "kind" | "direction" | "change">>): string[] {
  return report.methods
    .filter((m) => Object.entries(filter).every(([key, value]) => m[key as keyof MethodChange] === value))
    .map((m) => m.method)
    .sort();
}

function method(report: DiffReport, name: string, filter: Partial<MethodChange>): MethodChange {
  const found = report.methods.filter((m) => m.method === name && Object.entries(filter).every(([k, v]) => m[k as keyof MethodChange] === v));
  expect(found, `${name} ${JSON.stringify(filter)}`).to.have.length(1);
  return found[0]!;
}

/** The methods of a side union in the raw schema: each member's const method. */
function unionMethods(revision: string, union: string): string[] {
  const { definitions, definitionsKey } = rawSchema(revision);
  const members = (definitions[union]?.anyOf as JsonObject[] | undefined) ?? [];
  return members
    .map((m) => definitions[(m.$ref as string).slice(`#/${definitionsKey}/`.length)]!)
    .map((d) => ((d.properties as JsonObject).method as JsonObject).const as string)
    .sort();
}

describe("codegen/diff", () => {
  describe("2025-06-18 → 2025-11-25", () => {
    let report: DiffReport;
    before(() => {
      report = diffProtocols(model("2025-06-18"), model("2025-11-25"));
    });

    it("adds the four tasks methods in both directions: work for whoever must answer them", () => {
      expect(methods(report, { kind: "request", direction: "client", change: "added" })).to.deep.equal(TASKS);
      expect(methods(report, { kind: "request", direction: "server", change: "added" })).to.deep.equal(TASKS);
      for (const task of TASKS) {
        expect(method(report, task, { direction: "client", change: "added" }).impact).to.deep.equal({ server: "breaking", client: "additive" });
        expect(method(report, task, { direction: "server", change: "added" }).impact).to.deep.equal({ server: "additive", client: "breaking" });
      }
    });

    it("adds notifications/tasks/status both ways and notifications/elicitation/complete from the server, and removes nothing (PROTOCOL-NOTES)", () => {
      expect(methods(report, { kind: "notification", direction: "client", change: "added" })).to.deep.equal(["notifications/tasks/status"]);
      expect(methods(report, { kind: "notification", direction: "server", change: "added" })).to.deep.equal([
        "notifications/elicitation/complete",
        "notifications/tasks/status",
      ]);
      expect(report.methods.filter((m) => m.change === "removed")).to.deep.equal([]);
    });

    it("task-augmented requests may now answer CreateTaskResult: breaking for whoever reads the answer", () => {
      const call = method(report, "tools/call", { change: "results changed" });
      expect(call.detail).to.equal("CallToolResult → CallToolResult | CreateTaskResult");
      expect(call.impact).to.deep.equal({ server: "additive", client: "breaking" });
      expect(method(report, "sampling/createMessage", { change: "results changed" }).impact).to.deep.equal({ server: "breaking", client: "additive" });
    });

    it("finds JSONRPCError → JSONRPCErrorResponse as a rename (best effort), with id made optional and Error named", () => {
      expect(report.definitions.renamed.map(({ from, to }) => ({ from, to }))).to.deep.equal([{ from: "JSONRPCError", to: "JSONRPCErrorResponse" }]);
      expect(report.definitions.removed.map((d) => d.name)).not.to.include("JSONRPCError");
      expect(report.definitions.added.map((d) => d.name)).not.to.include("JSONRPCErrorResponse");
      expect(report.definitions.added.map((d) => d.name)).to.include("Error");
      const changed = report.changed.find((d) => d.definition === "JSONRPCErrorResponse")!;
      expect(changed.was).to.equal("JSONRPCError");
      expect(changed.changes.map((c) => [c.path, c.change, c.to])).to.deep.include.members([
        ["id", "now optional", undefined],
        ["error", "type changed", "Error (named)"],
      ]);
    });

    it("lists the params made into named definitions: inline in 2025-06-18, defined by name in 2025-11-25 (read from the raw schemas)", () => {
      const before = rawSchema("2025-06-18").definitions;
      const after = rawSchema("2025-11-25").definitions;
      const expected = Object.entries(before)
        .filter(([, d]) => {
          // Messages (a const method) whose params object is written inline.
          const properties = d.properties as JsonObject | undefined;
          const params = properties?.params as JsonObject | undefined;
          return typeof (properties?.method as JsonObject | undefined)?.const === "string" && params !== undefined && params.$ref === undefined;
        })
        .map(([name]) => `${name}Params`)
        .filter((name) => name in after)
        .sort();
      expect(expected).to.include("CallToolRequestParams").and.to.include("InitializeRequestParams");
      expect([...report.definitions.named].sort()).to.deep.equal(expected);
    });

    it("jsonrpc and id that moved from the envelope into each request definition are not a wire change", () => {
      const call = report.changed.find((d) => d.definition === "CallToolRequest")!;
      for (const path of ["jsonrpc", "id"]) {
        const change = call.changes.find((c) => c.path === path)!;
        expect(change.to).to.contain("on the wire already, through JSONRPCRequest");
        expect(change.impact).to.deep.equal({ server: "additive", client: "additive" });
      }
    });
  });

  describe("2025-11-25 → 2026-07-28", () => {
    let report: DiffReport;
    before(() => {
      report = diffProtocols(model("2025-11-25"), model("2026-07-28"));
    });

    it("reports the era change", () => {
      expect(report.era).to.deep.equal({ from: "session", to: "stateless", impact: { server: "breaking", client: "breaking" } });
    });

    it("removes initialize, ping, logging/setLevel, resources/(un)subscribe and tasks from the client: breaking for clients", () => {
      expect(methods(report, { kind: "request", direction: "client", change: "removed" })).to.deep.equal(
        ["initialize", "logging/setLevel", "ping", "resources/subscribe", "resources/unsubscribe", ...TASKS].sort(),
      );
      for (const name of ["initialize", "ping", "logging/setLevel", "resources/subscribe"])
        expect(method(report, name, { direction: "client", change: "removed" }).impact).to.deep.equal({ server: "additive", client: "breaking" });
    });

    it("removes every server → client JSON-RPC request (those of 2025-11-25's ServerRequest)", () => {
      expect(methods(report, { kind: "request", direction: "server", change: "removed" })).to.deep.equal(unionMethods("2025-11-25", "ServerRequest"));
    });

    it("adds server/discover and subscriptions/listen, which every server must answer", () => {
      expect(methods(report, { kind: "request", direction: "client", change: "added" })).to.deep.equal(["server/discover", "subscriptions/listen"]);
      for (const name of ["server/discover", "subscriptions/listen"])
        expect(method(report, name, { change: "added" }).impact).to.deep.equal({ server: "breaking", client: "additive" });
    });

    it("moves sampling, roots and elicitation into input requests, and changes the notifications as PROTOCOL-NOTES says", () => {
      expect(methods(report, { kind: "input request", change: "added" })).to.deep.equal(["elicitation/create", "roots/list", "sampling/createMessage"]);
      expect(method(report, "roots/list", { kind: "request", change: "removed" }).reason).to.contain("it remains as an input request");
      expect(methods(report, { kind: "notification", direction: "client", change: "removed" })).to.deep.equal([
        "notifications/initialized",
        "notifications/progress",
        "notifications/roots/list_changed",
        "notifications/tasks/status",
      ]);
      expect(methods(report, { kind: "notification", change: "added" })).to.deep.equal(["notifications/subscriptions/acknowledged"]);
    });

    it("makes resultType required in every result: breaking for servers, additive for clients", () => {
      const after = rawSchema("2026-07-28").definitions;
      const before = rawSchema("2025-11-25").definitions;
      const expected = Object.entries(after)
        .filter(([name, d]) => ((d.required as string[] | undefined) ?? []).includes("resultType") && name in before)
        .filter(([name]) => !((before[name]!.properties as JsonObject | undefined) ?? {}).resultType)
        .map(([name]) => name)
        .sort();
      expect(expected).to.include.members(["CallToolResult", "ListToolsResult", "Result", "CompleteResult"]);
      const reported = report.changed
        .filter((d) => d.changes.some((c) => c.path === "resultType" && c.change === "property added" && c.to === "string, required"))
        .map((d) => d.definition)
        .sort();
      expect(reported).to.deep.equal(expected);
      const call = report.changed.find((d) => d.definition === "CallToolResult")!.changes.find((c) => c.path === "resultType")!;
      expect(call.impact).to.deep.equal({ server: "breaking", client: "additive" });
    });

    it("reports the required _meta version and capabilities, ttlMs and cacheScope, and completion.values capped at 100", () => {
      const changes = (name: string) => report.changed.find((d) => d.definition === name)!.changes;
      expect(changes("CallToolRequestParams").find((c) => c.path === "_meta.io.modelcontextprotocol/protocolVersion")).to.deep.include({
        change: "property added",
        to: "string, required",
        impact: { server: "additive", client: "breaking" },
      });
      expect(changes("ListToolsResult").map((c) => `${c.path} ${c.change} ${c.to ?? ""}`)).to.include.members([
        "ttlMs property added integer, required",
        'cacheScope property added "private" | "public", required',
      ]);
      expect(changes("CompleteResult").find((c) => c.path === "completion.values")).to.deep.include({
        change: "constraint changed",
        from: "no maxItems",
        to: "maxItems 100",
        impact: { server: "breaking", client: "additive" },
      });
    });

    it("calls no removed definition a rename when several new ones fit it equally (the named errors)", () => {
      expect(report.definitions.renamed).to.deep.equal([]);
      expect(report.definitions.removed.map((d) => d.name)).to.include("URLElicitationRequiredError");
      expect(report.definitions.added.map((d) => d.name)).to.include.members(["ParseError", "InvalidParamsError", "HeaderMismatchError"]);
    });
  });

  it("a revision against itself: nothing changed", () => {
    const report = diffProtocols(model("2025-03-26"), model("2025-03-26"));
    expect(report.methods).to.deep.equal([]);
    expect(report.definitions).to.deep.equal({ added: [], removed: [], renamed: [], named: [], inlined: [] });
    expect(report.changed).to.deep.equal([]);
    expect(report.summary).to.deep.equal({ server: { breaking: 0, additive: 0 }, client: { breaking: 0, additive: 0 } });
  });

  it("a renamed definition (every $ref rewritten) is found as a rename with nothing else changed", () => {
    const { document } = rawSchema("2025-06-18");
    const text = JSON.stringify(document)
      .replace(/"#\/definitions\/Annotations"/g, '"#/definitions/ContentAnnotations"')
      .replace('"Annotations":{', '"ContentAnnotations":{');
    const renamed = buildProtocol(loadSchema("2025-06-18", text));
    const report = diffProtocols(model("2025-06-18"), renamed);
    expect(report.definitions.renamed.map(({ from, to }) => ({ from, to }))).to.deep.equal([{ from: "Annotations", to: "ContentAnnotations" }]);
    expect(report.definitions.added).to.deep.equal([]);
    expect(report.definitions.removed).to.deep.equal([]);
    // References follow the rename: no definition that points at it reports a type change.
    expect(report.changed.map((d) => [d.definition, d.changes.length])).to.deep.equal([["ContentAnnotations", 0]]);
  });
});

/**
 * The version bump of issue 17, synthesised from the latest pinned revision: a request
 * tools/validate added, completion/complete removed, CallToolResult.structuredContent removed,
 * Tool.category added. Everything else, the patched nodes included, is a copy.
 */
function nextRevision(base: string): string {
  const document = structuredClone(rawSchema(base).document);
  const defs = document.$defs as Record<string, JsonObject>;
  const retarget = (union: string, from: string, to: string) => {
    const members = defs[union]!.anyOf as JsonObject[];
    members[members.findIndex((m) => m.$ref === `#/$defs/${from}`)] = { $ref: `#/$defs/${to}` };
  };
  defs.ValidateToolRequest = JSON.parse(
    JSON.stringify(defs.CallToolRequest).replace('"tools/call"', '"tools/validate"').replace("#/$defs/CallToolRequestParams", "#/$defs/ValidateToolRequestParams"),
  ) as JsonObject;
  defs.ValidateToolRequestParams = structuredClone(defs.CallToolRequestParams!);
  const result = defs.CompleteResult!;
  defs.ValidateToolResult = {
    type: "object",
    properties: { ...(result.properties as JsonObject), valid: { type: "boolean" } },
    required: [...((result.required as string[]) ?? []).filter((name) => name !== "completion"), "valid"],
  };
  delete (defs.ValidateToolResult.properties as JsonObject).completion;
  defs.ValidateToolResultResponse = JSON.parse(JSON.stringify(defs.CompleteResultResponse).replace("#/$defs/CompleteResult", "#/$defs/ValidateToolResult")) as JsonObject;
  retarget("ClientRequest", "CompleteRequest", "ValidateToolRequest");
  retarget("ServerResult", "CompleteResult", "ValidateToolResult");
  for (const name of ["CompleteRequest", "CompleteRequestParams", "CompleteResult", "CompleteResultResponse"]) delete defs[name];
  const callResult = defs.CallToolResult!;
  delete (callResult.properties as JsonObject).structuredContent;
  callResult.required = ((callResult.required as string[] | undefined) ?? []).filter((name) => name !== "structuredContent");
  (defs.Tool!.properties as JsonObject).category = { type: "string" };
  return JSON.stringify(document);
}

describe("codegen/diff of a synthetic next revision copied from the latest (issue 17)", () => {
  const base = "2026-07-28";
  const next = "2026-12-01";
  let text: string;
  let report: DiffReport;
  before(() => {
    text = nextRevision(base);
    report = diffProtocols(model(base), buildProtocol(loadSchema(next, text)));
  });

  it("carries the same patches, so the widened nodes load the same", () => {
    const a = loadSchema(base, schemaText(base));
    const b = loadSchema(next, text);
    expect(b.patches).to.deep.equal(a.patches).and.to.include("ElicitResult numbers");
    const elicit = (loaded: typeof a) => ((loaded.document.$defs as Record<string, JsonObject>).ElicitResult as JsonObject).properties;
    expect(elicit(b)).to.deep.equal(elicit(a));
  });

  it("reports what changed, and no patched node as a change", () => {
    expect(method(report, "tools/validate", { change: "added" }).direction).to.equal("client");
    expect(method(report, "completion/complete", { change: "removed" }).direction).to.equal("client");
    const changed = new Map(report.changed.map((d) => [d.definition, d.changes.map((c) => `${c.path} ${c.change}`)]));
    expect(changed.get("CallToolResult")).to.deep.equal(["structuredContent property removed"]);
    expect(changed.get("Tool")).to.deep.equal(["category property added"]);
    // The two unions whose members were swapped, and the two edited definitions: nothing else.
    expect([...changed.keys()].sort()).to.deep.equal(["CallToolResult", "ClientRequest", "ServerResult", "Tool"]);
  });

  it("without the patches on the new side, the patched nodes would show as changes: the check above can fail", () => {
    const unpatched = diffProtocols(model(base), buildProtocol(loadSchema(next, text, [])));
    expect(unpatched.changed.map((d) => d.definition)).to.include("ElicitResult");
  });

  it("invents no rename: the response wrappers of a removed and an added method score below the threshold", () => {
    expect(report.definitions.renamed).to.deep.equal([]);
    expect(report.definitions.removed.map((d) => d.name)).to.include("CompleteResultResponse");
    expect(report.definitions.added.map((d) => d.name)).to.include("ValidateToolResultResponse");
  });

  it("a rename it does report comes with its evidence", () => {
    const rename = diffProtocols(model("2025-06-18"), model("2025-11-25")).definitions.renamed.find((r) => r.from === "JSONRPCError")!;
    expect(rename.similarity).to.be.at.least(RENAME_THRESHOLD);
    expect(rename.evidence).to.deep.include({ same: ["id", "jsonrpc"], retyped: ["error"], onlyBefore: [], onlyAfter: [] });
    expect(rename.evidence.sharedWords).to.deep.equal(["JSONRPC", "Error"]);
    expect(rename.similarity).to.be.closeTo(0.7 * rename.evidence.structure + 0.3 * rename.evidence.name, 0.011);
  });
});

describe("mcp-codegen diff, through the CLI", function () {
  this.timeout(60_000);

  it("prints Markdown: the summary, the methods table, the renames stated as best effort", () => {
    const run = runCli(["diff", "2025-11-25", "2026-07-28"]);
    expect(run.status, describeRun(run)).to.equal(0);
    expect(run.stdout).to.match(/^# MCP 2025-11-25 → 2026-07-28$/m);
    expect(run.stdout).to.match(/^\| server implementers \| \d+ \| \d+ \|$/m);
    expect(run.stdout).to.contain("| `initialize` | client → server | request removed | additive | **breaking** |");
    expect(run.stdout).to.contain("| `server/discover` | client → server | request added | **breaking** | additive |");
    expect(run.stdout).to.match(/^### Renamed \(0, best effort\)$/m);
    expect(run.stdout).to.contain("| `resultType` added (string, required) | **breaking** | additive |");
  });

  it("prints JSON with --json: the engine's report, as is", () => {
    const run = runCli(["diff", "2025-06-18", "2025-11-25", "--json"]);
    expect(run.status, describeRun(run)).to.equal(0);
    expect(JSON.parse(run.stdout)).to.deep.equal(JSON.parse(JSON.stringify(diffProtocols(model("2025-06-18"), model("2025-11-25")))));
  });

  it("an unpinned revision exits 1 naming it; a missing revision argument exits 2", () => {
    const unknown = runCli(["diff", "2025-11-25", "2031-01-01"]);
    expect(unknown.status, describeRun(unknown)).to.equal(1);
    expect(unknown.stderr).to.contain("unknown revision 2031-01-01: not pinned with mcp-codegen").and.contain("--schema <schema.json>");
    const usage = runCli(["diff", "2025-11-25"]);
    expect(usage.status, describeRun(usage)).to.equal(2);
    expect(usage.stderr).to.contain("diff takes two revisions");
  });
});
