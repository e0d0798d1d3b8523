/**
 * The generated validators (`isX` of generated/<rev>/validators.ts) against ajv and against the
 * official SDK's zod schemas, on one corpus of realistic MCP messages, in one process.
 *
 *   node --import tsx bench/validators.ts [--quick]
 *
 * - ours: `isX` of generated/2025-11-25 (the SDK's revision).
 * - ajv:  the same PATCHED 2025-11-25 schema document the generator reads (`loadSchema(...).document`),
 *         compiled by Ajv2020 with the same format rules (test/support/oracle.ts: ajv-formats'
 *         uri and uri-template, the anchored base64 expression for byte). This is the test oracle.
 * - zod:  `XSchema.safeParse(value).success` from `@modelcontextprotocol/sdk/types.js`.
 *
 * Every (message, validator) pair gets a loop function of its own (so no pair shares inline
 * caches with another), a calibrated iteration count of about RUN_MS, a warm-up, and RUNS timed
 * runs interleaved across validators; the table gives the median ops/s. A run is timed in CPU
 * time of this process (process.cpuUsage, user + system), not wall time, so that other work on
 * a shared machine does not land in one column by chance; with an idle machine both agree.
 * Every loop is bounded in iterations and in (wall) time. Targets (issue 3): >= 1.5x ajv on every message, geomean >= 2x,
 * >= 30x zod. They are reported, never asserted. The verdicts of the three are checked first:
 * a message must be valid (or invalid) for all of them, else it is reported and not timed.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as sdk from "@modelcontextprotocol/sdk/types.js";
import * as ours from "../generated/2025-11-25/validators.js";
import { isByte } from "../runtime/support/validation.js";
import { REVISIONS } from "../generated/index.js";
import { oracleFor } from "../test/support/oracle.js";
import { calibrate, median, newPair, timePairs, timeRun, type Check, type Pair, type Timing } from "./support/pairs.js";
import { record } from "./support/results.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const REVISION = "2025-11-25";
const QUICK = process.argv.includes("--quick");
/** Timed runs per pair; the median is reported. */
const RUNS = QUICK ? 5 : 15;
/** Target duration of one timed run. */
const RUN_MS = QUICK ? 10 : 30;
/** No pair runs longer than this in all (calibration, warm-up and runs). */
const PAIR_BUDGET_MS = QUICK ? 1_500 : 6_000;
const MAX_ITERATIONS = 50_000_000;
const TIMING: Timing = { runMs: RUN_MS, pairBudgetMs: PAIR_BUDGET_MS, maxIterations: MAX_ITERATIONS };

// -- the corpus ------------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const base64 = (bytes: number) => randomBytes(bytes).toString("base64");

const callToolRequest = {
  jsonrpc: "2.0",
  id: 42,
  method: "tools/call",
  params: {
    name: "search_issues",
    arguments: { query: "label:bug is:open validator", repository: "acme/widgets", limit: 25, includeClosed: false, fields: ["title", "labels", "assignee"] },
    _meta: { progressToken: "call-42" },
  },
};

const embeddedResource = {
  type: "resource",
  resource: {
    uri: "file:///home/dev/project/src/report.md",
    mimeType: "text/markdown",
    text: "# Weekly report\n\n" + "- Closed 12 issues, opened 7, reviewed 19 pull requests.\n".repeat(20),
  },
  annotations: { audience: ["user", "assistant"], priority: 0.7 },
};

const callToolResult = {
  content: [
    { type: "text", text: "Found 3 matching issues. The most recent one is #1234: \"Validator rejects fractional priority\"." },
    { type: "image", data: base64(24 * 1024), mimeType: "image/png", annotations: { audience: ["user"], priority: 0.4 } },
    embeddedResource,
  ],
  structuredContent: { total: 3, issues: [{ id: 1234, title: "Validator rejects fractional priority" }, { id: 1201, title: "Timeout on large lists" }, { id: 1188, title: "Docs typo" }] },
  isError: false,
};

function tool(i: number): Json {
  const kinds = ["search", "create", "update", "delete", "list"] as const;
  const kind = kinds[i % kinds.length]!;
  return {
    name: `${kind}_record_${i}`,
    title: `${kind[0]!.toUpperCase()}${kind.slice(1)} record ${i}`,
    description: `${kind[0]!.toUpperCase()}${kind.slice(1)}s records in collection ${i}. Returns the affected records as JSON; fails with isError when the collection does not exist.`,
    inputSchema: {
      type: "object",
      properties: {
        collection: { type: "string", description: "Name of the collection" },
        query: { type: "string", description: "Filter expression, e.g. status:open owner:me" },
        limit: { type: "integer", minimum: 1, maximum: 500, default: 50 },
        order: { type: "string", enum: ["asc", "desc"] },
        fields: { type: "array", items: { type: "string" }, description: "Fields to return" },
        ...(kind === "create" || kind === "update" ? { record: { type: "object", additionalProperties: true, description: "The record's fields" } } : {}),
      },
      required: kind === "list" ? ["collection"] : ["collection", "query"],
      $schema: "https://json-schema.org/draft/2020-12/schema",
    },
    ...(i % 3 === 0 ? { outputSchema: { type: "object", properties: { count: { type: "integer" }, records: { type: "array", items: { type: "object" } } }, required: ["count"] } } : {}),
    annotations: { title: `Record tool ${i}`, readOnlyHint: kind === "search" || kind === "list", destructiveHint: kind === "delete", idempotentHint: kind !== "create", openWorldHint: false },
    ...(i % 5 === 0 ? { icons: [{ src: "https://cdn.example.com/icons/records.svg", mimeType: "image/svg+xml", sizes: ["any"] }] } : {}),
    _meta: { "com.example/owner": "platform-team" },
  };
}

const listToolsResult = { tools: Array.from({ length: 50 }, (_, i) => tool(i)), nextCursor: "eyJwYWdlIjoyfQ==" };

const initializeRequest = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {
      roots: { listChanged: true },
      sampling: { tools: {} },
      elicitation: { form: {}, url: {} },
      tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
      experimental: { "com.example/streaming": { enabled: true } },
    },
    clientInfo: { name: "acme-desktop", title: "Acme Desktop", version: "3.12.0", websiteUrl: "https://acme.example.com", icons: [{ src: "https://acme.example.com/icon.png", mimeType: "image/png", sizes: ["48x48"] }] },
  },
};

const MiB = 1024 * 1024;
const readResourceResult = {
  contents: [{ uri: "file:///home/dev/project/assets/model.bin", mimeType: "application/octet-stream", blob: base64(MiB) }],
  _meta: { "com.example/cache": "miss" },
};

const request = callToolRequest;
const notification = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "call-42", progress: 50, total: 100, message: "Searching page 3 of 6" } };
const response = { jsonrpc: "2.0", id: 42, result: callToolResult };

interface Case {
  readonly label: string;
  readonly definition: string;
  readonly value: unknown;
  readonly valid: boolean;
  readonly zod?: { safeParse(value: unknown): { success: boolean } };
}

const CASES: readonly Case[] = [
  { label: "CallToolRequest", definition: "CallToolRequest", value: callToolRequest, valid: true, zod: sdk.CallToolRequestSchema },
  { label: "CallToolResult (text + 24 KiB image + resource)", definition: "CallToolResult", value: callToolResult, valid: true, zod: sdk.CallToolResultSchema },
  { label: "ListToolsResult (50 tools)", definition: "ListToolsResult", value: listToolsResult, valid: true, zod: sdk.ListToolsResultSchema },
  { label: "InitializeRequest", definition: "InitializeRequest", value: initializeRequest, valid: true, zod: sdk.InitializeRequestSchema },
  { label: "ReadResourceResult (1 MiB blob)", definition: "ReadResourceResult", value: readResourceResult, valid: true, zod: sdk.ReadResourceResultSchema },
  { label: "JSONRPCMessage: request", definition: "JSONRPCMessage", value: request, valid: true, zod: sdk.JSONRPCMessageSchema },
  { label: "JSONRPCMessage: notification", definition: "JSONRPCMessage", value: notification, valid: true, zod: sdk.JSONRPCMessageSchema },
  { label: "JSONRPCMessage: response", definition: "JSONRPCMessage", value: response, valid: true, zod: sdk.JSONRPCMessageSchema },
  {
    label: "invalid CallToolRequest (no params.name)",
    definition: "CallToolRequest",
    value: { ...callToolRequest, params: { arguments: callToolRequest.params.arguments } },
    valid: false,
    zod: sdk.CallToolRequestSchema,
  },
  {
    label: "invalid JSONRPCMessage (jsonrpc \"1.0\")",
    definition: "JSONRPCMessage",
    value: { ...request, jsonrpc: "1.0" },
    valid: false,
    zod: sdk.JSONRPCMessageSchema,
  },
];

// -- measurement -------------------------------------------------------------------------------

const geomean = (xs: readonly number[]) => Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length);

// -- run ---------------------------------------------------------------------------------------

const oracle = oracleFor(REVISION);
const validators = ours.validators as Readonly<Record<string, { is: Check }>>;

interface Row {
  readonly label: string;
  readonly ours: number;
  readonly ajv: number;
  readonly zod?: number;
}

const rows: Row[] = [];
const problems: string[] = [];
console.log(`MCP ${REVISION} validators: ours (generated isX) vs ajv (same patched schema, same formats) vs the SDK's zod schemas`);
console.log(`node ${process.version}, ${RUNS} runs of ~${RUN_MS} ms per pair, median ops per CPU second${QUICK ? " (quick)" : ""}\n`);

for (const c of CASES) {
  const ajvValidate = oracle.validator(c.definition);
  const candidates: { name: Pair["name"]; check: Check }[] = [
    { name: "ours", check: validators[c.definition]!.is },
    { name: "ajv", check: (value) => ajvValidate(value) as boolean },
  ];
  if (c.zod) {
    const schema = c.zod;
    candidates.push({ name: "zod", check: (value) => schema.safeParse(value).success });
  }
  // Same corpus, same verdicts: a pair that disagrees is not timed.
  const verdicts = candidates.map(({ name, check }) => ({ name, verdict: check(c.value) }));
  const wrong = verdicts.filter((v) => v.verdict !== c.valid);
  for (const v of wrong) problems.push(`${c.label}: ${v.name} says ${v.verdict ? "valid" : "invalid"}, expected ${c.valid ? "valid" : "invalid"}`);
  if (wrong.some((v) => v.name !== "zod")) continue;

  const pairs: Pair[] = candidates
    .filter(({ name }) => !wrong.some((v) => v.name === name))
    .map(({ name, check }) => newPair(name, check));
  timePairs(pairs, c.value, TIMING, RUNS);
  const ops = (name: Pair["name"]) => {
    const pair = pairs.find((p) => p.name === name);
    return pair && pair.opsPerSecond.length > 0 ? median(pair.opsPerSecond) : undefined;
  };
  for (const pair of pairs)
    record({ bench: "validators", measure: c.label, contender: pair.name, unit: "ops/s", median: median(pair.opsPerSecond), runs: [...pair.opsPerSecond] });
  rows.push({ label: c.label, ours: ops("ours")!, ajv: ops("ajv")!, ...(ops("zod") !== undefined ? { zod: ops("zod")! } : {}) });
}

// -- report ------------------------------------------------------------------------------------

const formatOps = (n: number | undefined) => {
  if (n === undefined) return "-";
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return n.toFixed(1);
};
const formatRatio = (n: number | undefined) => (n === undefined ? "-" : `${n >= 100 ? n.toFixed(0) : n.toFixed(2)}x`);

const table: string[][] = [["message", "ours ops/s", "ajv ops/s", "zod ops/s", "vs ajv", "vs zod"]];
for (const row of rows)
  table.push([row.label, formatOps(row.ours), formatOps(row.ajv), formatOps(row.zod), formatRatio(row.ours / row.ajv), formatRatio(row.zod && row.ours / row.zod)]);
const vsAjv = rows.map((r) => r.ours / r.ajv);
const vsZod = rows.filter((r) => r.zod !== undefined).map((r) => r.ours / r.zod!);
table.push(["geomean", "", "", "", formatRatio(geomean(vsAjv)), formatRatio(geomean(vsZod))]);
const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
for (const [i, row] of table.entries()) {
  console.log(row.map((cell, j) => (j === 0 ? cell.padEnd(widths[j]!) : cell.padStart(widths[j]!))).join("  "));
  if (i === 0 || i === table.length - 2) console.log(widths.map((w) => "-".repeat(w)).join("  "));
}

const minAjv = Math.min(...vsAjv);
const minZod = Math.min(...vsZod);
console.log(
  `\ntargets (issue 3): every message >= 1.5x ajv: ${minAjv >= 1.5 ? "met" : "MISSED"} (lowest ${formatRatio(minAjv)}); ` +
    `geomean >= 2x ajv: ${geomean(vsAjv) >= 2 ? "met" : "MISSED"} (${formatRatio(geomean(vsAjv))}); ` +
    `>= 30x zod: ${minZod >= 30 ? "met" : "MISSED"} (lowest ${formatRatio(minZod)})`,
);
if (problems.length > 0) console.log(`\nverdicts that differ from the corpus' (not timed when ours or ajv):\n  ${problems.join("\n  ")}`);

console.log("\ngenerated/<rev>/validators.ts:");
for (const revision of REVISIONS) {
  const text = readFileSync(join(ROOT, "generated", revision, "validators.ts"));
  console.log(`  ${revision}  ${(text.length / 1024).toFixed(1).padStart(6)} KiB  gzip ${(gzipSync(text).length / 1024).toFixed(1).padStart(5)} KiB`);
}
const support = readFileSync(join(ROOT, "runtime", "support", "validation.ts"));
console.log(`  runtime/support/validation.ts (shared) ${(support.length / 1024).toFixed(1)} KiB  gzip ${(gzipSync(support).length / 1024).toFixed(1)} KiB`);

// -- format byte: scan or decode ----------------------------------------------------------------

// The rule in runtime/support/validation.ts (isByte) rests on this table: below some length a search for
// one bad character (no allocation) wins, above it the native `atob` (one short-lived string) does.
// Both candidates are timed alone, beside isByte itself, on valid base64 of each length.
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;
const candidates: Readonly<Record<string, Check>> = {
  scan: (value) => !NOT_BASE64.test(value as string),
  decode: (value) => {
    try {
      return atob(value as string).length >= 0;
    } catch {
      return false;
    }
  },
  isByte: (value) => isByte(value as string),
};
console.log("\nformat byte, ns per valid string (median CPU time): a scan, atob, and isByte's rule");
console.log(`${"chars".padStart(7)}  ${Object.keys(candidates).map((name) => name.padStart(9)).join("  ")}  faster`);
for (const bytes of [12, 48, 72, 96, 192, 768, 3072, 24 * 1024]) {
  const value = base64(bytes);
  const pairs = Object.entries(candidates).map(([name, check]) => newPair(name, check));
  for (const pair of pairs) calibrate(pair, value, TIMING);
  for (let run = 0; run < RUNS; run++) for (const pair of pairs) timeRun(pair, value, TIMING);
  const ns = pairs.map((pair) => 1e9 / median(pair.opsPerSecond));
  const cells = ns.map((n) => n.toFixed(0).padStart(9)).join("  ");
  console.log(`${String(value.length).padStart(7)}  ${cells}  ${ns[0]! <= ns[1]! ? "scan" : "decode"}`);
}
