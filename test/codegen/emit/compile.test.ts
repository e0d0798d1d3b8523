/**
 * The emitted modules compile under `tsc --noEmit` in strict mode, as a consumer would build
 * them (module NodeNext), together with a small consumer that uses them the way the runtime
 * and users will: the JSON recursion, method -> result maps, quoted `_meta` keys.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect } from "chai";
import { STRICT_FLAGS, TSC } from "../../support/tsc.js";
import { removeDir, ROOT, tempDir } from "../../support/project.js";



function consumer(generated: string): string {
  return `import type * as Latest from "${generated}/2026-07-28/index.js";
import type * as V1125 from "${generated}/2025-11-25/index.js";
import type * as V0618 from "${generated}/2025-06-18/index.js";
import { LATEST_REVISION, PROTOCOLS } from "${generated}/index.js";

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// 2026-07-28's JSONValue is recursive and, patched as schema.ts has it, admits fractions and null.
export const json: Latest.JSONValue = { a: [1, 2.5, "x", true, null, { b: [[], {}] }] };
// @ts-expect-error undefined is not a JSON value
export const notJson: Latest.JSONValue = undefined;

// Results are typed from the method (PROTOCOL-NOTES, trap 14).
export const callTool: Equals<V1125.ClientRequests["tools/call"]["result"], V1125.CallToolResult | V1125.CreateTaskResult> = true;
export const ping: Equals<V1125.ClientRequests["ping"]["result"], V1125.EmptyResult> = true;
export const read: Equals<Latest.ClientRequests["resources/read"]["result"], Latest.ReadResourceResult | Latest.InputRequiredResult> = true;
export const elicit: Equals<V0618.ServerRequests["elicitation/create"]["result"], V0618.ElicitResult> = true;

// Quoted _meta keys are real, typed properties.
export const version: Latest.RequestMetaObject["io.modelcontextprotocol/protocolVersion"] = "2026-07-28";

// A log line and an error's data may be any JSON value.
export const log: V1125.LoggingMessageNotificationParams = { level: "info", data: "plain text" };
export const error: V1125.Error = { code: -32603, message: "internal", data: [1, 2] };
// @ts-expect-error "verbose" is not a LoggingLevel
export const badLevel: V1125.LoggingMessageNotificationParams = { level: "verbose", data: 1 };

export const latest: "2026-07-28" = LATEST_REVISION;
export const era: "stateless" = PROTOCOLS["2026-07-28"].ERA;
`;
}

describe("codegen/emit: the generated modules compile", function () {
  this.timeout(120_000);
  let dir: string | undefined;
  after(() => removeDir(dir));

  it("generated/index.ts and a strict consumer pass tsc --noEmit (strict, NodeNext) with no diagnostics", () => {
    dir = tempDir("compile");
    const probe = join(dir, "consumer.mts");
    writeFileSync(probe, consumer(relative(dir, join(ROOT, "generated")).split("\\").join("/")));
    const run = spawnSync(process.execPath, [TSC, ...STRICT_FLAGS, join(ROOT, "generated", "index.ts"), probe], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 110_000,
    });
    expect(run.error).to.equal(undefined);
    expect(run.stdout + run.stderr, "tsc diagnostics").to.equal("");
    expect(run.status).to.equal(0);
  });
});
