// Resources and templates through the server API: exact URIs before templates, templates in
// registration order with their variables, not-found in each era's code.
import { expect } from "chai";
import { createServer, resourceNotFound, type McpServer } from "../../../runtime/index.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { connectClient, rejection } from "../../support/mcp.js";

function newServer(): McpServer {
  const server = createServer({ name: "resources-test", version: "1.0.0", logger: silentLogger });
  server.resource({ uri: "docs://readme", name: "readme", mimeType: "text/markdown" }, (uri) => ({ contents: [{ uri, text: "# static" }] }));
  server.resource({ uri: "docs://logo", name: "logo", mimeType: "image/png" }, (uri) => ({ contents: [{ uri, mimeType: "image/png", blob: "iVBORw0KGgo=" }] }));
  // Would also match docs://readme: the exact URI must win.
  server.resourceTemplate({ uriTemplate: "docs://{name}", name: "any doc" }, (uri, variables) => ({
    contents: [{ uri, text: `template docs://{name}: ${JSON.stringify(variables)}` }],
  }));
  server.resourceTemplate({ uriTemplate: "repo://{owner}/{repo}/blob/{+path}", name: "file in a repo" }, (uri, variables) => ({
    contents: [{ uri, text: JSON.stringify(variables) }],
  }));
  // Registered after a template it overlaps: never reached for repo://... URIs the first one matches.
  server.resourceTemplate({ uriTemplate: "repo://{+anything}", name: "anything in a repo" }, (uri, variables) => ({
    contents: [{ uri, text: `fallback ${JSON.stringify(variables)}` }],
  }));
  server.resourceTemplate({ uriTemplate: "gone://{id}", name: "deleted things" }, (uri, _variables, context) => {
    throw resourceNotFound(uri, context);
  });
  return server;
}

describe("server resources", () => {
  it("reads a static text and a static blob resource", async () => {
    const client = await connectClient(newServer(), "2025-11-25");
    expect(await client.readResource("docs://readme")).to.deep.equal({ contents: [{ uri: "docs://readme", text: "# static" }] });
    expect(await client.readResource("docs://logo")).to.deep.equal({ contents: [{ uri: "docs://logo", mimeType: "image/png", blob: "iVBORw0KGgo=" }] });
    await client.close();
  });

  it("tries the exact URI first, then the templates in registration order, with decoded variables", async () => {
    const client = await connectClient(newServer(), "2025-11-25");
    const text = async (uri: string) => ((await client.readResource(uri)).contents[0] as { text: string }).text;
    expect(await text("docs://readme")).to.equal("# static");
    expect(await text("docs://changelog")).to.equal('template docs://{name}: {"name":"changelog"}');
    expect(await text("docs://caf%C3%A9")).to.equal('template docs://{name}: {"name":"café"}');
    expect(JSON.parse(await text("repo://acme/rocket/blob/src/engine/main.rs"))).to.deep.equal({ owner: "acme", repo: "rocket", path: "src/engine/main.rs" });
    expect(await text("repo://acme/tree")).to.equal('fallback {"anything":"acme/tree"}');
    await client.close();
  });

  it("lists static resources and templates apart", async () => {
    const client = await connectClient(newServer(), "2025-11-25");
    expect((await client.listResources()).items.map((r) => r.uri)).to.deep.equal(["docs://readme", "docs://logo"]);
    expect((await client.listResourceTemplates()).items.map((t) => t.uriTemplate)).to.deep.equal([
      "docs://{name}",
      "repo://{owner}/{repo}/blob/{+path}",
      "repo://{+anything}",
      "gone://{id}",
    ]);
    await client.close();
  });

  it("not found is -32002 in the session era and -32602 in the stateless era, with the URI in data", async () => {
    for (const [revision, code] of [
      ["2024-11-05", -32002],
      ["2025-11-25", -32002],
      ["2026-07-28", -32602],
    ] as const) {
      const client = await connectClient(newServer(), revision);
      for (const uri of ["nothing://here", "docs://a/b", "gone://42"]) {
        const error = await rejection(client.readResource(uri));
        expect(error.toJSON(), `${revision} ${uri}`).to.deep.equal({ code, message: `Resource not found: ${uri}`, data: { uri } });
      }
      await client.close();
    }
  });

  it("refuses a second resource with the same URI, and a second template with the same pattern", () => {
    const server = newServer();
    expect(() => server.resource({ uri: "docs://readme", name: "again" }, () => ({ contents: [] }))).to.throw(/already registered/);
    expect(() => server.resourceTemplate({ uriTemplate: "docs://{name}", name: "again" }, () => ({ contents: [] }))).to.throw(/already registered/);
  });

  it("refuses an invalid URI template at registration", () => {
    expect(() => newServer().resourceTemplate({ uriTemplate: "docs://{unclosed", name: "bad" }, () => ({ contents: [] }))).to.throw(/invalid URI template/);
    expect(() => newServer().resourceTemplate({ uriTemplate: "docs://{a b}", name: "bad" }, () => ({ contents: [] }))).to.throw(/invalid URI template/);
  });

  describe("a template's list: its resources in resources/list", () => {
    /** Notes 1..n behind note://{id}, listed by the template, beside one static resource; pages of 2. */
    function notesServer(count: number, visible?: (uri: string) => boolean) {
      const server = createServer({ name: "notes", version: "1.0.0", logger: silentLogger, pageSize: 2, ...(visible ? { visible: (_kind: string, name: string) => visible(name) } : {}) });
      const calls: string[] = [];
      server.resource({ uri: "docs://readme", name: "readme" }, (uri) => ({ contents: [{ uri, text: "readme" }] }));
      server.resourceTemplate({ uriTemplate: "note://{id}", name: "note" }, (uri, { id }) => ({ contents: [{ uri, text: `note ${String(id)}` }] }), {
        list: async (context) => {
          calls.push(context.method);
          return Array.from({ length: count }, (_, i) => ({ uri: `note://${i + 1}`, name: `note ${i + 1}`, mimeType: "text/plain" }));
        },
      });
      return { server, calls };
    }

    for (const revision of ["2024-11-05", "2025-11-25", "2026-07-28"] as const)
      it(`${revision}: static resources, then the template's, paged together; each listed URI reads through the template`, async () => {
        const { server, calls } = notesServer(4);
        const client = await connectClient(server, revision);
        const pages: string[][] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listResources(cursor);
          pages.push(page.items.map((r) => r.uri));
          cursor = page.nextCursor;
        } while (cursor !== undefined && pages.length < 10);
        expect(pages).to.deep.equal([["docs://readme", "note://1"], ["note://2", "note://3"], ["note://4"]]);
        expect(calls).to.deep.equal(["resources/list", "resources/list", "resources/list"]);
        expect((await client.readResource("note://3")).contents).to.deep.equal([{ uri: "note://3", text: "note 3" }]);
        // resources/templates/list still lists the template itself.
        expect((await client.listResourceTemplates()).items.map((t) => t.uriTemplate)).to.deep.equal(["note://{id}"]);
        await client.close();
      });

    it("what `visible` hides of the listed resources is not listed", async () => {
      const { server } = notesServer(3, (uri) => uri !== "note://2");
      const client = await connectClient(server, "2025-11-25");
      expect((await client.listResources({ all: true })).items.map((r) => r.uri)).to.deep.equal(["docs://readme", "note://1", "note://3"]);
      await client.close();
    });

    it("a listed URI the template does not match is the server's bug: -32603 naming the template and the URI", async () => {
      const server = createServer({ name: "bad-list", version: "1.0.0", logger: silentLogger });
      server.resourceTemplate({ uriTemplate: "note://{id}", name: "note" }, () => ({ contents: [] }), { list: () => [{ uri: "other://1", name: "x" }] });
      const client = await connectClient(server, "2025-11-25");
      const error = await rejection(client.listResources());
      expect(error.code).to.equal(-32603);
      expect(error.message).to.include('the list of resource template note://{id} returned "other://1", which the template does not match');
      await client.close();
    });
  });
});
