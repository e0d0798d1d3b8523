// Pagination (issue 5): opaque, tamper-evident cursors with a configurable page size on
// tools/list, prompts/list, resources/list and resources/templates/list. An invalid, altered or
// foreign cursor (another list's, another server's) is -32602. Session era through the official
// SDK client's list calls; stateless era with raw messages, where every page carries the same
// cacheScope.
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import { createServer, type McpServer } from "../../../runtime/index.js";
import { connectSdk, expectStateless, quiet, RawPeer, rejectionOf, SESSION_ERA, type Json } from "../../support/features-server.js";

const LISTS = [
  { method: "tools/list", key: "tools", name: (item: Json) => item.name, definition: "ListToolsResult" },
  { method: "prompts/list", key: "prompts", name: (item: Json) => item.name, definition: "ListPromptsResult" },
  { method: "resources/list", key: "resources", name: (item: Json) => item.uri, definition: "ListResourcesResult" },
  { method: "resources/templates/list", key: "resourceTemplates", name: (item: Json) => item.uriTemplate, definition: "ListResourceTemplatesResult" },
] as const;

/** `count` of each: tools t0.., prompts p0.., resources res://r0.., templates tpl://t0/{x}.. */
function pagedServer(
  options: { count?: number; pageSize?: number; revisions?: string[]; cache?: { ttlMs?: number; scope?: "public" | "private" }; secret?: string | string[] } = {},
) {
  const { count = 5, pageSize = 2, ...rest } = options;
  const server = createServer({ name: "pagination", version: "1.0.0", logger: quiet, pageSize, ...rest });
  for (let i = 0; i < count; i++) {
    server.tool({ name: `t${i}`, inputSchema: { type: "object" } }, () => ({ content: [] }));
    server.prompt({ name: `p${i}` }, () => ({ messages: [] }));
    server.resource({ uri: `res://r${i}`, name: `r${i}` }, (uri) => ({ contents: [{ uri, text: "" }] }));
    server.resourceTemplate({ uriTemplate: `tpl://t${i}/{x}`, name: `t${i}` }, (uri) => ({ contents: [{ uri, text: "" }] }));
  }
  return server;
}

const expectedNames = (key: string, count: number) =>
  Array.from({ length: count }, (_, i) => (key === "tools" ? `t${i}` : key === "prompts" ? `p${i}` : key === "resources" ? `res://r${i}` : `tpl://t${i}/{x}`));

/** Flips one character of a base64url string at `index` (counted from the start when >= 0, else from the end). */
function flip(cursor: string, index: number): string {
  const at = index >= 0 ? index : cursor.length + index;
  const c = cursor[at]!;
  return cursor.slice(0, at) + (c === "A" ? "B" : "A") + cursor.slice(at + 1);
}

describe("features: pagination", () => {
  let servers: McpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  const make = (options: Parameters<typeof pagedServer>[0] = {}) => {
    const server = pagedServer(options);
    servers.push(server);
    return server;
  };

  for (const revision of SESSION_ERA) {
    it(`${revision} through the SDK: every list walks in pages of pageSize, in registration order, and the last page has no nextCursor`, async () => {
      const server = make({ revisions: [revision] });
      const { client } = await connectSdk(server);
      const calls = {
        tools: (cursor?: string) => client.listTools(cursor === undefined ? {} : { cursor }),
        prompts: (cursor?: string) => client.listPrompts(cursor === undefined ? {} : { cursor }),
        resources: (cursor?: string) => client.listResources(cursor === undefined ? {} : { cursor }),
        resourceTemplates: (cursor?: string) => client.listResourceTemplates(cursor === undefined ? {} : { cursor }),
      };
      for (const list of LISTS) {
        const sizes: number[] = [];
        const names: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 10; page++) {
          const result = (await calls[list.key](cursor)) as Json;
          sizes.push(result[list.key].length);
          names.push(...result[list.key].map(list.name));
          cursor = result.nextCursor;
          if (cursor === undefined) break;
          expect(cursor).to.be.a("string");
        }
        expect(sizes, list.method).to.deep.equal([2, 2, 1]);
        expect(names, list.method).to.deep.equal(expectedNames(list.key, 5));
        expect(cursor, `${list.method}: the walk ended`).to.equal(undefined);
      }
      await client.close();
    });
  }

  it("2025-11-25 through the SDK: a list of exactly whole pages ends without an empty page", async () => {
    const server = make({ revisions: ["2025-11-25"], count: 4 });
    const { client } = await connectSdk(server);
    const first = await client.listTools();
    const second = await client.listTools({ cursor: first.nextCursor! });
    expect(second.tools.map((t) => t.name)).to.deep.equal(["t2", "t3"]);
    expect(second.nextCursor).to.equal(undefined);
    await client.close();
  });

  it("2025-11-25 through the SDK: an invalid or altered cursor is -32602", async () => {
    const server = make({ revisions: ["2025-11-25"] });
    const { client } = await connectSdk(server);
    const { nextCursor } = await client.listTools();
    const cursor = nextCursor!;
    const payload = cursor.slice(0, cursor.lastIndexOf("."));
    const forged = `${Buffer.from(JSON.stringify({ l: "tools", o: 4 })).toString("base64url")}.${cursor.slice(cursor.lastIndexOf(".") + 1)}`;
    const bad = ["", "garbage", ".", `${payload}.`, `${payload}`, flip(cursor, 0), flip(cursor, -1), `${cursor}x`, forged, "eyJsIjoidG9vbHMiLCJvIjo0fQ.AAAA"];
    for (const candidate of bad) {
      const error = await rejectionOf(client.listTools({ cursor: candidate }));
      expect(error.code, `cursor ${JSON.stringify(candidate)}`).to.equal(-32602);
    }
    const notAString = await rejectionOf(client.request({ method: "tools/list", params: { cursor: 42 } } as never, ListToolsResultSchema));
    expect(notAString.code).to.equal(-32602);
    // the genuine cursor still works afterwards
    expect((await client.listTools({ cursor })).tools.map((t) => t.name)).to.deep.equal(["t2", "t3"]);
    await client.close();
  });

  it("2025-11-25 through the SDK: a cursor from one list is -32602 on every other list, and one from another server is -32602", async () => {
    const server = make({ revisions: ["2025-11-25"] });
    const other = make({ revisions: ["2025-11-25"] });
    const { client } = await connectSdk(server);
    const { client: otherClient } = await connectSdk(other);
    const cursors = {
      tools: (await client.listTools()).nextCursor!,
      prompts: (await client.listPrompts()).nextCursor!,
      resources: (await client.listResources()).nextCursor!,
      resourceTemplates: (await client.listResourceTemplates()).nextCursor!,
    };
    const list = {
      tools: (cursor: string) => client.listTools({ cursor }),
      prompts: (cursor: string) => client.listPrompts({ cursor }),
      resources: (cursor: string) => client.listResources({ cursor }),
      resourceTemplates: (cursor: string) => client.listResourceTemplates({ cursor }),
    };
    for (const from of Object.keys(cursors) as (keyof typeof cursors)[])
      for (const to of Object.keys(list) as (keyof typeof list)[]) {
        if (from === to) continue;
        const error = await rejectionOf(list[to](cursors[from]));
        expect(error.code, `a ${from} cursor on ${to}`).to.equal(-32602);
      }
    const foreign = await rejectionOf(otherClient.listTools({ cursor: cursors.tools }));
    expect(foreign.code, "another server's tools cursor").to.equal(-32602);
    await Promise.all([client.close(), otherClient.close()]);
  });

  it("2026-07-28 raw: every page of every list is a valid result carrying the same ttlMs and cacheScope", async () => {
    const server = make({ cache: { ttlMs: 60_000, scope: "public" } });
    const peer = new RawPeer(server);
    for (const list of LISTS) {
      const names: string[] = [];
      const hints: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const response = await peer.stateless(list.method, cursor === undefined ? {} : { cursor });
        expectStateless(list.definition, response.result);
        names.push(...response.result[list.key].map(list.name));
        hints.push(`${response.result.cacheScope} ${response.result.ttlMs}`);
        cursor = response.result.nextCursor;
        if (cursor === undefined) break;
      }
      expect(names, list.method).to.deep.equal(expectedNames(list.key, 5));
      expect(hints, list.method).to.deep.equal(["public 60000", "public 60000", "public 60000"]);
    }
    await peer.close();
  });

  it("2026-07-28 raw: an altered cursor, or one from another list, is -32602", async () => {
    const server = make();
    const peer = new RawPeer(server);
    const first = await peer.stateless("prompts/list");
    const cursor: string = first.result.nextCursor;
    for (const [method, candidate] of [
      ["prompts/list", flip(cursor, 3)],
      ["prompts/list", flip(cursor, -2)],
      ["tools/list", cursor],
      ["resources/templates/list", cursor],
    ] as const) {
      const response = await peer.stateless(method, { cursor: candidate });
      expect(response.error?.code, `${method} with ${candidate}`).to.equal(-32602);
    }
    await peer.close();
  });

  it("2026-07-28 raw: a cursor from one instance is accepted by another with the same secret, refused by one with another; a key set rotates", async () => {
    const issuer = make({ secret: "shared secret" });
    const first = await new RawPeer(issuer).stateless("tools/list");
    const cursor: string = first.result.nextCursor;
    const secondPage = async (secret: string | string[]) => new RawPeer(make({ secret })).stateless("tools/list", { cursor });
    const same = await secondPage("shared secret");
    expect(same.result.tools.map((tool: Json) => tool.name), "the same secret, another instance").to.deep.equal(["t2", "t3"]);
    expect((await secondPage("another secret")).error?.code, "another secret").to.equal(-32602);
    const rotating = await secondPage(["new secret", "shared secret"]);
    expect(rotating.result.tools.map((tool: Json) => tool.name), "the old key, second in the set").to.deep.equal(["t2", "t3"]);
    const rotated: string = rotating.result.nextCursor;
    const onNew = await new RawPeer(make({ secret: "new secret" })).stateless("tools/list", { cursor: rotated });
    expect(onNew.result.tools.map((tool: Json) => tool.name), "sealed with the first key").to.deep.equal(["t4"]);
    const onOld = await new RawPeer(make({ secret: "shared secret" })).stateless("tools/list", { cursor: rotated });
    expect(onOld.error?.code, "the old key alone cannot open what the new one sealed").to.equal(-32602);
  });

  it("a page size that is not a positive integer is refused when the server is created", () => {
    for (const pageSize of [0, -1, 1.5, Number.NaN]) expect(() => createServer({ name: "x", version: "1", pageSize }), String(pageSize)).to.throw(/pageSize/);
  });
});
