// The README's quick start: the code block there is examples/quickstart/server.ts, verbatim, and
// that server answers the official SDK client (session era) and our client at 2026-07-28, over stdio
// and, with --http, over Streamable HTTP.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { connectHttp, httpServer, ROOT, sdkSession, statelessSession, text } from "./support.js";

describe("examples/quickstart", () => {
  it("is the README's quick start, line for line", () => {
    const source = readFileSync(join(ROOT, "examples", "quickstart", "server.ts"), "utf8");
    const code = source
      .slice(source.indexOf("\n") + 1)
      .replaceAll("../../runtime/index.js", "@mcp-codegen/runtime")
      .replaceAll("../../runtime/http.js", "@mcp-codegen/runtime/http");
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).to.contain("```ts\n" + code + "```");
    expect(code.split("\n").length).to.be.at.most(32);
  });

  it("answers the SDK client over stdio: the tool, the resource and the prompt", async () => {
    const session = await sdkSession("quickstart");
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name)).to.deep.equal(["add"]);
      expect(text((await session.client.callTool({ name: "add", arguments: { a: 2, b: 3 } })) as { content?: unknown })).to.equal("5");
      const bad = (await session.client.callTool({ name: "add", arguments: { a: "2" } })) as { isError?: boolean };
      expect(bad.isError).to.equal(true);
      const read = await session.client.readResource({ uri: "note://hello" });
      expect(read.contents).to.deep.equal([{ uri: "note://hello", mimeType: "text/plain", text: "Hello from mcp-codegen" }]);
      const prompt = await session.client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
      expect(prompt.messages).to.deep.equal([{ role: "user", content: { type: "text", text: "Say hello to Ada." } }]);
    } finally {
      await session.close();
    }
  });

  it("answers our client speaking 2026-07-28 from the same code", async () => {
    const session = await statelessSession("quickstart");
    try {
      const result = await session.client.callTool("add", { a: 1.5, b: 2 });
      expect(text(result)).to.equal("3.5");
      expect(result).to.include({ resultType: "complete" });
    } finally {
      await session.close();
    }
  });

  for (const era of ["session", "stateless"] as const)
    it(`--http: answers ${era === "session" ? "the SDK client (session era)" : "our client at 2026-07-28"} over Streamable HTTP`, async () => {
      const server = await httpServer("quickstart");
      try {
        const connected = await connectHttp(era, server.url);
        try {
          expect(text(await connected.api.callTool("add", { a: 2, b: 3 }))).to.equal("5");
          expect((await connected.api.readResource("note://hello")).contents[0]!.text).to.equal("Hello from mcp-codegen");
        } finally {
          await (connected.sdk ?? connected.stateless)!.close();
        }
      } finally {
        await server.stop();
      }
    });
});
