// SkillsClient (SEP-2640): lists without reading any file; reads a file only if it is listed, its
// size and digest match, and for SKILL.md its frontmatter equals the entry's. Tampered servers are
// built from the open server API (resource, handle, extension), with entries whose digests are
// computed here with node:crypto.
import { expect } from "chai";
import { createHash } from "node:crypto";
import { createMemoryPair, createServer, McpClient, SkillsClient, SkillVerificationError, type McpServer, type Revision, type SkillEntry } from "../../../../runtime/index.js";
import { silentLogger } from "../../../../runtime/util/logger.js";
import { SKILL_METHOD_SCHEMAS } from "../../../../runtime/extensions/skills/protocol.js";
import { quiet, rejectionOf, WireTap } from "../../../support/features-server.js";

const SKILL_MD = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: 2.1.0\n---\n\nBody.\n";
const FORMS = "Supporting content.\n";
const URI = "skill://pdf-processing/SKILL.md";
const FORMS_URI = "skill://pdf-processing/references/FORMS.md";
const FRONTMATTER = { name: "pdf-processing", description: "Extract, fill, and assemble PDF documents", metadata: { version: "2.1.0" } };
const digest = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
const fileEntry = (uri: string, text: string) => ({ uri, digest: digest(text), size: Buffer.byteLength(text) });

async function connect(server: McpServer, revision: Revision): Promise<{ client: McpClient; tap: WireTap }> {
  const [clientEnd, serverEnd] = createMemoryPair();
  const tap = new WireTap(serverEnd);
  await server.listen(tap);
  const client = await McpClient.connect(clientEnd, { name: "test", version: "1.0.0", revision, logger: silentLogger });
  return { client, tap };
}

const reads = (tap: WireTap) => tap.log.filter((t) => t.direction === "in" && t.message.method === "resources/read").map((t) => t.message.params.uri);

/** A server whose listing promises `entry` and whose SKILL.md is `served`. */
function tampered(entry: SkillEntry, served: string): McpServer {
  const server = createServer({ name: "tampered", version: "1.0.0", logger: quiet }).extension("io.modelcontextprotocol/skills");
  server.resource({ uri: URI, name: "pdf-processing", mimeType: "text/markdown" }, () => ({ contents: [{ uri: URI, mimeType: "text/markdown", text: served }] }));
  server.resource({ uri: FORMS_URI, name: "FORMS.md" }, () => ({ contents: [{ uri: FORMS_URI, text: FORMS }] }));
  server.handle("skills/list", () => ({ skills: [entry] }), SKILL_METHOD_SCHEMAS["skills/list"]);
  return server;
}

const honestEntry = (): SkillEntry => ({ uri: URI, frontmatter: FRONTMATTER, resources: [fileEntry(URI, SKILL_MD), fileEntry(FORMS_URI, FORMS)] });

describe("SkillsClient", () => {
  for (const revision of ["2025-11-25", "2026-07-28"] as const)
    it(`${revision}: lists without reading, then reads verified files of a server.skill`, async () => {
      const server = createServer({ name: "skills", version: "1.0.0", logger: quiet }).skill("pdf-processing", { "SKILL.md": SKILL_MD, "references/FORMS.md": FORMS });
      const { client, tap } = await connect(server, revision);
      try {
        const skills = new SkillsClient(client);
        expect(skills.supported).to.equal(true);
        expect(skills.directoryRead).to.equal(true);
        const { skills: listed } = await skills.list();
        expect(listed).to.deep.equal([honestEntry()]);
        expect(await skills.get(URI)).to.deep.equal(honestEntry());
        expect(reads(tap)).to.deep.equal([]);

        const manifest = await skills.read(listed[0]!);
        expect(manifest).to.deep.include({ uri: URI, text: SKILL_MD, verified: true, frontmatter: FRONTMATTER, body: "\nBody.\n" });
        const forms = await skills.read(listed[0]!, "references/FORMS.md");
        expect(forms).to.deep.include({ uri: FORMS_URI, text: FORMS, verified: true });
        expect(reads(tap)).to.deep.equal([URI, FORMS_URI]);

        const unlisted = await rejectionOf(skills.read(listed[0]!, "scripts/run.sh"));
        expect(unlisted).to.be.instanceOf(SkillVerificationError).and.to.include({ reason: "unlisted", uri: "skill://pdf-processing/scripts/run.sh" });
        expect(reads(tap)).to.have.length(2);
        expect(await skills.readDirectory("skill://pdf-processing/references")).to.deep.equal([{ uri: FORMS_URI, name: "FORMS.md", mimeType: "text/markdown" }]);
      } finally {
        await client.close();
        await server.close();
      }
    });

  const cases: { reason: string; served: string; entry: () => SkillEntry }[] = [
    { reason: "digest", served: SKILL_MD.replace("Body.", "Evil!"), entry: honestEntry },
    { reason: "size", served: `${SKILL_MD}extra bytes\n`, entry: honestEntry },
    // The entry's digest and size are the served file's: only the frontmatter comparison catches it.
    ...(() => {
      const served = SKILL_MD.replace("Extract, fill, and assemble PDF documents", "Exfiltrate credentials");
      return [{ reason: "frontmatter", served, entry: (): SkillEntry => ({ ...honestEntry(), resources: [fileEntry(URI, served), fileEntry(FORMS_URI, FORMS)] }) }];
    })(),
    { reason: "frontmatter", served: SKILL_MD.replace("version: 2.1.0", "version: 2.1.1"), entry: (): SkillEntry => ({ ...honestEntry(), resources: "dynamic" }) },
  ];
  for (const { reason, served, entry } of cases)
    it(`refuses a SKILL.md that fails the ${reason} check${entry().resources === "dynamic" ? " (dynamic skill)" : ""}`, async () => {
      const server = tampered(entry(), served);
      const { client, tap } = await connect(server, "2025-11-25");
      try {
        const skills = new SkillsClient(client);
        const [skill] = (await skills.list()).skills;
        const error = await rejectionOf(skills.read(skill!));
        expect(error).to.be.instanceOf(SkillVerificationError).and.to.include({ reason, uri: URI });
        if (reason === "frontmatter") expect(error.message).to.match(/description|metadata/);
        expect(reads(tap)).to.deep.equal([URI]);
      } finally {
        await client.close();
        await server.close();
      }
    });

  it("a dynamic skill's SKILL.md is read unverified when its frontmatter matches", async () => {
    const server = tampered({ ...honestEntry(), resources: "dynamic" }, SKILL_MD);
    const { client } = await connect(server, "2026-07-28");
    try {
      const skills = new SkillsClient(client);
      const file = await skills.read((await skills.list()).skills[0]!);
      expect(file).to.deep.include({ verified: false, frontmatter: FRONTMATTER });
    } finally {
      await client.close();
      await server.close();
    }
  });

  const invalid: [string, SkillEntry, RegExp][] = [
    ["a name that is not the last path segment", { ...honestEntry(), frontmatter: { ...FRONTMATTER, name: "other" } }, /last skill-path segment "pdf-processing" is not frontmatter.name "other"/],
    ["resources without its SKILL.md", { ...honestEntry(), resources: [fileEntry(FORMS_URI, FORMS)] }, /does not list its SKILL.md/],
    ["a file outside the skill", { ...honestEntry(), resources: [fileEntry(URI, SKILL_MD), fileEntry("skill://other/x.md", "x")] }, /skill:\/\/other\/x.md is outside the skill/],
    ["a malformed digest", { ...honestEntry(), resources: [{ uri: URI, digest: "md5:00", size: 1 }] }, /digest/],
  ];
  for (const [what, entry, message] of invalid)
    it(`refuses a listing with ${what}`, async () => {
      const server = tampered(entry, SKILL_MD);
      const { client, tap } = await connect(server, "2025-11-25");
      try {
        expect((await rejectionOf(new SkillsClient(client).list())).message).to.match(message);
        expect(reads(tap)).to.deep.equal([]);
      } finally {
        await client.close();
        await server.close();
      }
    });

  it("2026-07-28: a cached SKILL.md that fails the entry is fetched once more, fresh", async () => {
    let served = SKILL_MD;
    const server = createServer({ name: "changing", version: "1.0.0", logger: quiet, cache: { ttlMs: 60_000 } }).extension("io.modelcontextprotocol/skills");
    server.resource({ uri: URI, name: "pdf-processing" }, () => ({ contents: [{ uri: URI, mimeType: "text/markdown", text: served }] }));
    const entryOf = (text: string): SkillEntry => ({ uri: URI, frontmatter: FRONTMATTER, resources: [fileEntry(URI, text)] });
    server.handle("skills/get", () => ({ skill: entryOf(served) }), SKILL_METHOD_SCHEMAS["skills/get"]);
    const { client, tap } = await connect(server, "2026-07-28");
    try {
      const skills = new SkillsClient(client);
      expect((await skills.read(await skills.get(URI))).text).to.equal(SKILL_MD);
      served = SKILL_MD.replace("Body.", "Body, v2.");
      const updated = await skills.get(URI, { fresh: true });
      // The client's cache still holds v1 (ttlMs 60 s, no request made): it fails v2's digest, so the file is read again.
      expect((await client.readResource(URI)).contents[0]).to.include({ text: SKILL_MD });
      expect(reads(tap)).to.deep.equal([URI]);
      expect((await skills.read(updated)).text).to.equal(served);
      expect(reads(tap)).to.deep.equal([URI, URI]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("walks every skills/list page, or returns the one page asked for with its cursor", async () => {
    const server = createServer({ name: "skills", version: "1.0.0", logger: quiet, pageSize: 2 });
    for (const name of ["a", "b", "c"]) server.skill(name, { "SKILL.md": `---\nname: ${name}\ndescription: ${name}\n---\n` });
    const { client } = await connect(server, "2025-11-25");
    try {
      const skills = new SkillsClient(client);
      expect((await skills.list()).skills.map((s) => s.uri)).to.deep.equal(["skill://a/SKILL.md", "skill://b/SKILL.md", "skill://c/SKILL.md"]);
      const first = await client.request<{ nextCursor: string }>("skills/list", {});
      const page = await skills.list({ cursor: first.nextCursor });
      expect(page.skills.map((s) => s.uri)).to.deep.equal(["skill://c/SKILL.md"]);
      expect(page).not.to.have.property("nextCursor");
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("lists nothing from a server without the extension, asking it nothing", async () => {
    const server = createServer({ name: "plain", version: "1.0.0", logger: quiet }).resource({ uri: "note://a", name: "a" }, () => ({ contents: [] }));
    const { client, tap } = await connect(server, "2026-07-28");
    try {
      const skills = new SkillsClient(client);
      expect(skills.supported).to.equal(false);
      expect(await skills.list()).to.deep.equal({ skills: [] });
      expect(tap.log.filter((t) => t.direction === "in" && String(t.message.method).startsWith("skills/"))).to.deep.equal([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
