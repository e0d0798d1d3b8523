/**
 * codegen/scaffold/stubs: what a merge may touch in a stub (the doc comment's first paragraph,
 * the parameter and return types, their imports) and what it never does (everything else).
 */
import { expect } from "chai";
import type { ToolEntry } from "../../../codegen/scaffold/manifest.js";
import { mergeStub, newStub } from "../../../codegen/scaffold/stubs.js";

const TOOL: ToolEntry = {
  name: "get_weather",
  description: "The weather in a city.",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

describe("codegen/scaffold/stubs", () => {
  it("a new stub is a default-exported async function typed from the generated names", () => {
    const stub = newStub("tools", TOOL);
    expect(stub).to.contain('import type { RequestContext } from "@mcp-codegen/runtime";');
    expect(stub).to.contain('import type { GetWeatherArgs, GetWeatherResult } from "../generated/types.js";');
    expect(stub).to.contain("export default async function getWeatherTool(args: GetWeatherArgs, context: RequestContext): Promise<GetWeatherResult> {");
    expect(stub).to.contain(" * The tool `get_weather`: The weather in a city.");
  });

  it("merging a stub that matches its entry changes nothing", () => {
    const stub = newStub("tools", TOOL);
    expect(mergeStub("tools", TOOL, stub)).to.deep.equal({ changes: [] });
  });

  it("repairs generated parts (a parameter type, a lost import, the summary) and leaves the user's text byte for byte", () => {
    const user = `import { readFile } from "node:fs/promises";
import type { GetWeatherResult } from "../generated/types.js";

/**
 * An old summary.
 *
 * My own notes, kept.
 */
export default async function getWeatherTool(args: { city: string }, context: RequestContext): Promise<GetWeatherResult> {
  const raw = await readFile(\`/data/\${args.city}.txt\`, "utf8"); // mine
  return { content: [{ type: "text", text: raw }] };
}

const helper = 42; // mine too
`;
    const merged = mergeStub("tools", TOOL, user);
    expect(merged.problem).to.equal(undefined);
    expect(merged.changes).to.deep.equal(["doc comment", "type of args", "import of RequestContext", "import of GetWeatherArgs"]);
    const text = merged.text!;
    expect(text).to.contain("export default async function getWeatherTool(args: GetWeatherArgs, context: RequestContext): Promise<GetWeatherResult> {");
    expect(text).to.contain(" * The tool `get_weather`: The weather in a city.\n *\n * My own notes, kept.");
    expect(text).to.match(/import type \{ GetWeatherResult, GetWeatherArgs \} from "\.\.\/generated\/types\.js";/);
    expect(text).to.contain('import type { RequestContext } from "@mcp-codegen/runtime";');
    // Everything from the body on is the user's, unchanged.
    const from = user.indexOf("{\n  const raw");
    expect(text.endsWith(user.slice(from))).to.equal(true);
    expect(text).to.contain('import { readFile } from "node:fs/promises";');
  });

  it("a stub without a default-exported function is left alone, with the reason", () => {
    const merged = mergeStub("tools", TOOL, "export async function getWeatherTool() {}\n");
    expect(merged.text).to.equal(undefined);
    expect(merged.problem).to.contain("no `export default function`");
  });
});
