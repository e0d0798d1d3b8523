// Prompts through the server API: argument specs, required and optional, in both eras.
import { expect } from "chai";
import { createServer, type McpServer } from "../../../runtime/index.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { connectClient, rejection } from "../../support/mcp.js";

function newServer(): McpServer {
  return createServer({ name: "prompts-test", version: "1.0.0", logger: silentLogger })
    .prompt(
      {
        name: "translate",
        title: "Translate",
        arguments: [
          { name: "text", required: true },
          { name: "to", required: true },
          { name: "tone", description: "optional" },
        ],
      },
      (args: Record<string, string>) => ({ messages: [{ role: "user", content: { type: "text", text: JSON.stringify(args) } }] }),
    )
    .prompt({ name: "plain" }, () => ({ description: "no arguments", messages: [] }));
}

describe("server prompts", () => {
  for (const revision of ["2025-06-18", "2026-07-28"] as const)
    describe(revision, () => {
      let client: Awaited<ReturnType<typeof connectClient>>;
      before(async () => (client = await connectClient(newServer(), revision)));
      after(() => client.close());

      it("lists prompts with their argument specs", async () => {
        const { items } = await client.listPrompts();
        expect(items).to.deep.equal([
          { name: "translate", title: "Translate", arguments: [{ name: "text", required: true }, { name: "to", required: true }, { name: "tone", description: "optional" }] },
          { name: "plain" },
        ]);
      });

      it("renders with the required arguments, with or without the optional one; extra ones pass through", async () => {
        const text = async (args: Record<string, string>) => ((await client.getPrompt("translate", args)).messages[0]!.content as { text: string }).text;
        expect(JSON.parse(await text({ text: "hola", to: "en" }))).to.deep.equal({ text: "hola", to: "en" });
        expect(JSON.parse(await text({ text: "hola", to: "en", tone: "warm", extra: "x" }))).to.deep.equal({ text: "hola", to: "en", tone: "warm", extra: "x" });
        expect(await client.getPrompt("plain")).to.deep.include({ description: "no arguments", messages: [] });
      });

      it("a missing required argument is -32602 naming every missing one", async () => {
        const one = await rejection(client.getPrompt("translate", { text: "hola" }));
        expect(one.toJSON()).to.deep.equal({ code: -32602, message: "Prompt translate is missing required argument: to", data: { missing: ["to"] } });
        const both = await rejection(client.getPrompt("translate", { tone: "warm" }));
        expect(both.data).to.deep.equal({ missing: ["text", "to"] });
      });

      it("an unknown prompt is -32602", async () => {
        const error = await rejection(client.getPrompt("missing"));
        expect(error.toJSON()).to.deep.equal({ code: -32602, message: "Unknown prompt: missing", data: { name: "missing" } });
      });
    });

  it("refuses a second prompt of the same name", () => {
    expect(() => newServer().prompt({ name: "plain" }, () => ({ messages: [] }))).to.throw(/already registered/);
  });
});
