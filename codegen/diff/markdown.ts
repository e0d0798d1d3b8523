import type { DefinitionEntry, DiffReport, Direction, Impact, MethodChange, PropertyChange, Rename } from "./report.js";
import { RENAME_THRESHOLD } from "./renames.js";

/** A change repeated in at least this many definitions is also listed once under "Common changes". */
const COMMON = 3;

const arrow = (sender: Direction) => (sender === "client" ? "client → server" : "server → client");
const flows = (list: readonly Direction[]) => list.map(arrow).join(", ");
const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const severity = (s: string) => (s === "breaking" ? "**breaking**" : "additive");
const impactCells = (impact: Impact) => `${severity(impact.server)} | ${severity(impact.client)}`;

/** The report as Markdown: summary, methods, definitions, then every definition's changes. */
export function renderMarkdown(report: DiffReport): string {
  const { from, to } = report;
  const out: string[] = [];
  out.push(`# MCP ${from.revision} → ${to.revision}`, "");
  out.push(
    `- ${from.revision}: ${from.era} era, ${from.dialect}, ${from.definitions} definitions`,
    `- ${to.revision}: ${to.era} era, ${to.dialect}, ${to.definitions} definitions`,
  );
  if (report.era) out.push(`- **The era changes: ${report.era.from} → ${report.era.to}.** The lifecycle differs (initialize and sessions, or per-request \`_meta\`): breaking for servers and clients.`);
  out.push(
    "",
    `Each change is classified for **server implementers** and for **clients**. *breaking*: code written for ${from.revision} in that role must change ` +
      `(the generated types flag most of it when you regenerate and compile); *additive*: nothing written for ${from.revision} stops working, and there is something new to use. ` +
      "A type change costs whoever sends values of the type (the producer) when it narrows and whoever receives them when it widens; " +
      "who sends what is read from the methods that reach the definition.",
    "",
    "## Summary",
    "",
    "| | breaking | additive |",
    "|---|---:|---:|",
    `| server implementers | ${report.summary.server.breaking} | ${report.summary.server.additive} |`,
    `| clients | ${report.summary.client.breaking} | ${report.summary.client.additive} |`,
    "",
  );

  out.push("## Methods", "");
  if (report.methods.length === 0) out.push("No method was added or removed, and none changed its params or results.", "");
  else {
    out.push("| method | direction | change | server | client | why |", "|---|---|---|---|---|---|");
    for (const m of report.methods) out.push(`| ${code(m.method)} | ${arrow(m.direction)} | ${cell(methodChange(m))} | ${impactCells(m.impact)} | ${cell(m.reason)} |`);
    out.push("");
  }

  const { added, removed, renamed, named, inlined } = report.definitions;
  out.push("## Definitions", "");
  out.push(`### Added (${added.length})`, "", added.length ? entries(added) : "None.", "");
  out.push(`### Removed (${removed.length})`, "", removed.length ? entries(removed) : "None.", "");
  out.push(
    `### Renamed (${renamed.length}, best effort)`,
    "",
    "Found by structural similarity: a removed and an added definition whose properties and their types (70%) and names (30%) " +
      `score at least ${RENAME_THRESHOLD}, unambiguously. Messages with different methods are never paired. Check these by eye; ` +
      "a rename missed here shows as one removal and one addition above.",
    "",
  );
  if (renamed.length) {
    out.push("| from | to | similarity | evidence | server | client |", "|---|---|---:|---|---|---|");
    for (const r of renamed) out.push(`| ${code(r.from)} | ${code(r.to)} | ${r.similarity.toFixed(2)} | ${cell(renameEvidence(r))} | **breaking** | **breaking** |`);
  } else out.push("None found.");
  out.push("");
  if (named.length)
    out.push(
      `### Params made into named definitions (${named.length})`,
      "",
      `${from.revision} declares these params inline in their message; ${to.revision} defines them by name. mcp-codegen already named them ` +
        `\`<Message>Params\`, so the generated type names stay; their content is compared below.`,
      "",
      named.map(code).join(", "),
      "",
    );
  if (inlined.length)
    out.push(`### Params made inline (${inlined.length})`, "", `${to.revision} declares these params inline again; mcp-codegen keeps the name.`, "", inlined.map(code).join(", "), "");

  const changed = report.changed.filter((d) => d.changes.length > 0);
  const common = commonChanges(report);
  if (common.length) {
    out.push(`## Common changes (the same change in ${COMMON} or more definitions)`, "");
    out.push("| change | server | client | definitions |", "|---|---|---|---|");
    for (const c of common) out.push(`| ${cell(propertyChange(c.change))} | ${impactCells(c.change.impact)} | ${c.definitions.map(code).join(", ")} |`);
    out.push("");
  }
  out.push(`## Changes by definition (${changed.length})`, "");
  if (changed.length === 0) out.push("No definition present in both revisions changed its structure.", "");
  for (const d of changed) {
    out.push(`### ${d.definition}${d.was ? ` (was ${d.was})` : ""}`, "", `Sent ${flows(d.flows)}.`, "");
    out.push("| change | server | client |", "|---|---|---|");
    for (const c of d.changes) out.push(`| ${cell(propertyChange(c))} | ${impactCells(c.impact)} |`);
    out.push("");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

function methodChange(m: MethodChange): string {
  const what = `${m.kind} ${m.change}`;
  return m.detail ? `${what}: ${m.detail}` : what;
}

function entries(list: readonly DefinitionEntry[]): string {
  return list.map((e) => code(e.name)).join(", ");
}

function propertyChange(c: PropertyChange): string {
  const where = c.path ? code(c.path) : "the definition";
  switch (c.change) {
    case "property added":
      return `${where} added (${c.to})`;
    case "property removed":
      return `${where} removed (was ${c.from})`;
    case "now required":
      return `${where} now required`;
    case "now optional":
      return `${where} now optional`;
    default:
      if (c.membersAdded || c.membersRemoved) {
        const parts = [];
        if (c.membersAdded?.length) parts.push(`+ ${c.membersAdded.join(", ")}`);
        if (c.membersRemoved?.length) parts.push(`− ${c.membersRemoved.join(", ")}`);
        return `${where} ${c.change}: ${parts.join("; ")}`;
      }
      return `${where} ${c.change}: ${c.from} → ${c.to}`;
  }
}

function commonChanges(report: DiffReport): { change: PropertyChange; definitions: string[] }[] {
  const groups = new Map<string, { change: PropertyChange; definitions: string[] }>();
  for (const d of report.changed)
    for (const c of d.changes) {
      const key = JSON.stringify([c.path, c.change, c.from, c.to, c.impact]);
      const group = groups.get(key) ?? { change: c, definitions: [] };
      group.definitions.push(d.definition);
      groups.set(key, group);
    }
  return [...groups.values()].filter((g) => g.definitions.length >= COMMON).sort((x, y) => y.definitions.length - x.definitions.length);
}

/** "structure 1.00 (same: a, b; retyped: c), name 0.50 (shared: Annotations)". */
function renameEvidence({ evidence: e }: Rename): string {
  const list = (label: string, items: readonly string[]) => (items.length ? [`${label}: ${items.join(", ")}`] : []);
  const properties = [...list("same", e.same), ...list("retyped", e.retyped), ...list("only before", e.onlyBefore), ...list("only after", e.onlyAfter)];
  const words = e.sharedWords.length ? ` (shared: ${e.sharedWords.join(", ")})` : "";
  return `structure ${e.structure.toFixed(2)}${properties.length ? ` (${properties.join("; ")})` : ""}, name ${e.name.toFixed(2)}${words}`;
}
