// server.skill (SEP-2640): skills/list, skills/get, resources/directory/read and the skill files as
// resources, in both eras; digests and sizes computed independently here (node:crypto); and the
// registration rules (name = last path segment, SKILL.md required, limits).
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { createServer, parseFrontmatter } from "../../../../runtime/index.js";
import { quiet, rejectionOf } from "../../../support/features-server.js";
import { connectClient } from "../../../support/mcp.js";
import { ROOT } from "../../../support/project.js";

const SKILL_MD = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: \"2.1\"\n---\n\n# PDF\nSee references/FORMS.md.\n";
const FORMS = "Forms: fill them in.\n";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
const digest = (bytes: string | Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

function newServer() {
  return createServer({ name: "skills", version: "1.0.0", logger: quiet }).skill("acme/pdf-processing", {
    "SKILL.md": SKILL_MD,
    "references/FORMS.md": FORMS,
    "assets/logo.png": PNG,
  });
}

describe("server.skill", () => {
  for (const revision of ["2025-11-25", "2026-07-28"] as const)
    it(`${revision}: declares the extension and serves list, get, directory reads and the files`, async () => {
      const server = newServer();
      const client = await connectClient(server, revision);
      try {
        expect((client.serverCapabilities as Record<string, unknown>).extensions).to.deep.equal({ "io.modelcontextprotocol/skills": { directoryRead: true } });
        expect(client.serverCapabilities.resources).to.be.an("object");

        const listed = await client.request("skills/list", {});
        const uri = "skill://acme/pdf-processing/SKILL.md";
        const entry = {
          uri,
          frontmatter: { name: "pdf-processing", description: "Extract, fill, and assemble PDF documents", metadata: { version: "2.1" } },
          resources: [
            { uri: "skill://acme/pdf-processing/SKILL.md", digest: digest(SKILL_MD), size: Buffer.byteLength(SKILL_MD) },
            { uri: "skill://acme/pdf-processing/assets/logo.png", digest: digest(PNG), size: PNG.length },
            { uri: "skill://acme/pdf-processing/references/FORMS.md", digest: digest(FORMS), size: Buffer.byteLength(FORMS) },
          ],
        };
        expect(listed.skills).to.deep.equal([entry]);
        const got = await client.request("skills/get", { uri });
        expect(got.skill).to.deep.equal(entry);
        if (revision === "2026-07-28") {
          // skills/list and skills/get are CacheableResults from 2026-07-28 (SEP-2549).
          expect(listed).to.include({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
          expect(got).to.include({ ttlMs: 0, cacheScope: "private" });
        } else expect(listed).not.to.have.property("ttlMs");

        const unknown = await rejectionOf(client.request("skills/get", { uri: "skill://nope/SKILL.md" }));
        expect(unknown.code).to.equal(-32602);
        // Invalid params name the field from the message's root, as a core method's do.
        const noUri = await rejectionOf(client.request("skills/get", {}));
        expect([noUri.code, noUri.message]).to.deep.equal([-32602, "Invalid params for skills/get: /params: must have required property 'uri'"]);
        expect(noUri.data.issues[0]).to.deep.include({ path: "/params", keyword: "required" });

        // The files are resources: SKILL.md named and described from its frontmatter.
        const resources = (await client.listResources()).items;
        expect(resources.find((r) => r.uri === uri)).to.deep.include({ name: "pdf-processing", description: "Extract, fill, and assemble PDF documents", mimeType: "text/markdown" });
        const read = await client.readResource(uri);
        expect(read.contents[0]).to.deep.include({ uri, mimeType: "text/markdown", text: SKILL_MD });
        const logo = await client.readResource("skill://acme/pdf-processing/assets/logo.png");
        expect(Buffer.from((logo.contents[0] as { blob: string }).blob, "base64")).to.deep.equal(Buffer.from(PNG));

        const root = await client.request("resources/directory/read", { uri: "skill://acme/pdf-processing" });
        expect(root.resources).to.deep.equal([
          { uri: "skill://acme/pdf-processing/SKILL.md", name: "SKILL.md", mimeType: "text/markdown" },
          { uri: "skill://acme/pdf-processing/assets", name: "assets", mimeType: "inode/directory" },
          { uri: "skill://acme/pdf-processing/references", name: "references", mimeType: "inode/directory" },
        ]);
        const sub = await client.request("resources/directory/read", { uri: "skill://acme/pdf-processing/references" });
        expect(sub.resources).to.deep.equal([{ uri: "skill://acme/pdf-processing/references/FORMS.md", name: "FORMS.md", mimeType: "text/markdown" }]);
        for (const notDirectory of [uri, "skill://acme/other"])
          expect((await rejectionOf(client.request("resources/directory/read", { uri: notDirectory }))).code).to.equal(-32602);
        expect((await rejectionOf(client.request("resources/directory/read", {}))).code).to.equal(-32602);
      } finally {
        await client.close();
        await server.close();
      }
    });

  it("pages skills/list and directory reads by ServerOptions.pageSize; a cursor is good for its own list only", async () => {
    const server = createServer({ name: "skills", version: "1.0.0", logger: quiet, pageSize: 1 });
    for (const name of ["alpha", "beta", "gamma"]) server.skill(name, { "SKILL.md": `---\nname: ${name}\ndescription: The ${name} skill\n---\n`, "a.md": "a", "b.md": "b" });
    const client = await connectClient(server, "2026-07-28");
    try {
      const uris: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 5; page++) {
        const result = await client.request("skills/list", cursor === undefined ? {} : { cursor });
        expect(result.skills).to.have.length(1);
        uris.push(...(result.skills as { uri: string }[]).map((s) => s.uri));
        cursor = result.nextCursor as string | undefined;
        if (cursor === undefined) break;
      }
      expect(uris).to.deep.equal(["skill://alpha/SKILL.md", "skill://beta/SKILL.md", "skill://gamma/SKILL.md"]);
      const first = await client.request("resources/directory/read", { uri: "skill://alpha" });
      expect(first.resources).to.have.length(1);
      const second = await client.request("resources/directory/read", { uri: "skill://alpha", cursor: first.nextCursor });
      expect(second.resources).to.have.length(1);
      expect((await rejectionOf(client.request("resources/directory/read", { uri: "skill://beta", cursor: first.nextCursor }))).code).to.equal(-32602);
      expect((await rejectionOf(client.request("skills/list", { cursor: "forged" }))).code).to.equal(-32602);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("the entry's frontmatter is the file's, as the frontmatter parser reads it", () => {
    expect(parseFrontmatter(SKILL_MD).fields).to.deep.equal({ name: "pdf-processing", description: "Extract, fill, and assemble PDF documents", metadata: { version: "2.1" } });
  });

  it("refuses a skill that breaks SEP-2640's rules, naming it", () => {
    const server = () => createServer({ name: "skills", version: "1.0.0", logger: quiet });
    expect(() => server().skill("other-name", { "SKILL.md": SKILL_MD })).to.throw(/frontmatter name is "pdf-processing".*"other-name"/);
    expect(() => server().skill("pdf-processing", { "README.md": "x" })).to.throw(/has no SKILL.md/);
    expect(() => server().skill("pdf-processing", { "SKILL.md": "# no frontmatter" })).to.throw(/does not begin with a --- delimited/);
    expect(() => server().skill("pdf-processing", { "SKILL.md": "---\nname: pdf-processing\n---\n" })).to.throw(/non-empty description/);
    expect(() => server().skill("pdf-processing", { "SKILL.md": SKILL_MD.replace('"2.1"', "2.1") })).to.throw(/metadata must map strings to strings/);
    expect(() => server().skill("Bad--Name", { "SKILL.md": SKILL_MD })).to.throw(/naming rules/);
    expect(() => server().skill("pdf-processing", { "SKILL.md": SKILL_MD, "../escape.md": "x" })).to.throw(/non-empty segments/);
    const many = Object.fromEntries(Array.from({ length: 512 }, (_, i) => [`f${i}.txt`, "x"]));
    expect(() => server().skill("pdf-processing", { "SKILL.md": SKILL_MD, ...many })).to.throw(/limits a skill to 512/);
    const twice = server().skill("pdf-processing", { "SKILL.md": SKILL_MD });
    expect(() => twice.skill("pdf-processing", { "SKILL.md": SKILL_MD })).to.throw(/already registered/);
  });

  it("where yaml must be imported (Workers), skills are served once read, and one that fails its checks is reported by every skills request", () => {
    // A child process that looks like a Worker to the runtime (navigator.userAgent), so that yaml
    // is imported, not required: the skills registered before it arrives wait for it.
    const serve = (names: readonly string[]) => {
      const script = `
        Object.defineProperty(globalThis, "navigator", { value: { userAgent: "Cloudflare-Workers" }, configurable: true });
        const { createMemoryPair, createServer, McpClient } = await import(${JSON.stringify(join(ROOT, "runtime", "index.ts"))});
        const server = createServer({ name: "skills", version: "1.0.0", logger: () => {} }).tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [] }));
        for (const name of ${JSON.stringify(names)}) server.skill(name, { "SKILL.md": ${JSON.stringify(SKILL_MD)}, "references/FORMS.md": "x" });
        const [a, b] = createMemoryPair();
        await server.listen(b);
        const client = await McpClient.connect(a, { name: "c", version: "1", revision: "2026-07-28" });
        // A tool call first: it waits for the tool-schema engine (imported here too), which the skills methods' checks use.
        await client.callTool("echo", {});
        const answer = (promise) => promise.then((result) => result, (error) => ({ error: error.code, message: error.message }));
        console.log(JSON.stringify({
          list: await answer(client.request("skills/list", {})),
          directory: await answer(client.request("resources/directory/read", { uri: "skill://pdf-processing" })),
          get: await answer(client.request("skills/get", { uri: "skill://pdf-processing/SKILL.md" })),
        }));
        await client.close();
        await server.close();`;
      const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
      expect(run.status, run.stderr).to.equal(0);
      return JSON.parse(run.stdout) as Record<string, { skills?: { uri: string }[]; resources?: { uri: string }[]; skill?: { uri: string }; error?: number; message?: string }>;
    };
    const good = serve(["pdf-processing"]);
    expect(good.list!.skills!.map((skill) => skill.uri)).to.deep.equal(["skill://pdf-processing/SKILL.md"]);
    expect(good.directory!.resources!.map((resource) => resource.uri)).to.deep.equal(["skill://pdf-processing/SKILL.md", "skill://pdf-processing/references"]);
    expect(good.get!.skill!.uri).to.equal("skill://pdf-processing/SKILL.md");
    const bad = serve(["pdf-processing", "other-name"]);
    for (const request of ["list", "directory", "get"]) {
      expect(bad[request]!.error, request).to.equal(-32603);
      expect(bad[request]!.message, request).to.match(/frontmatter name is "pdf-processing".*"other-name"/);
    }
  });
});
