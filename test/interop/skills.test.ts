// Skills (SEP-2640) against SDK v2 2.4's own implementation (tools/interop), both eras, in process
// over Streamable HTTP (each side's fetch handler as the other's fetch):
//   - SDK v2's SkillsClient lists, gets and verifies (size, digest, frontmatter with its own YAML
//     parser) the skills of our server.skill;
//   - our SkillsClient does the same with the skills of SDK v2's SkillsExtension.
// The SKILL.md uses the YAML our frontmatter reader accepts beyond plain strings, so the two
// parsers are compared on it.
import { expect } from "chai";
import { createServer, McpClient, parseFrontmatter, SkillsClient } from "../../runtime/index.js";
import { fetchHandler, HttpClientTransport } from "../../runtime/http.js";
import { interopPeers } from "./support/peers.js";

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const SKILL_MD = [
  "---",
  "name: refunds",
  "description: >-",
  "  Process customer refund requests",
  "  per company policy",
  "license: 'Apache-2.0'",
  'compatibility: "Requires: network access"',
  "metadata:",
  "  version: \"1.2\"",
  "reviewed: true",
  "owners: [billing, support]",
  "count: 3",
  "allowed-tools: Read Grep # ignored for MCP-served skills unless approved",
  "---",
  "",
  "# Refunds",
  "Read examples/email.md.",
  "",
].join("\n");
const EMAIL = "Dear customer,\n";
const FILES = { "SKILL.md": SKILL_MD, "examples/email.md": EMAIL };
const FRONTMATTER = {
  name: "refunds",
  description: "Process customer refund requests per company policy",
  license: "Apache-2.0",
  compatibility: "Requires: network access",
  metadata: { version: "1.2" },
  reviewed: true,
  owners: ["billing", "support"],
  count: 3,
  "allowed-tools": "Read Grep",
};
const quiet = () => {};

describe("interop: skills (SEP-2640) with SDK v2", function () {
  let peers: Any;
  before(async function () {
    peers = await interopPeers(this);
  });

  // Our frontmatter reader and SDK v2's (through its skillEntry) on the same documents: the same
  // fields, or both refuse.
  const documents = [
    "description: plain",
    "description: 'it''s: quoted'",
    'description: "esc\\t\\u00e9"',
    "description: |\n  kept\n  lines\n",
    "description: >\n  folded\n  lines\n\n  para\n",
    "description: |-\n  stripped\n",
    "description: a\ncount: 0x1F\nv: 1.0\nn: ~\nb: False\ns: 1.2.3\nneg: -7\nexp: 1e3",
    "description: a\nlist:\n  - x\n  - 2\nflow: [a, b]\nmetadata:\n  k: v",
    "description: a # comment\n# full-line comment\nx: 'q' # after quotes",
    "description: Use it: often",
    "description: a\nm: &x 1",
    "description: a\ndescription: b",
  ];
  for (const yaml of documents)
    it(`frontmatter reader agrees with SDK v2's: ${JSON.stringify(yaml).slice(0, 60)}`, async () => {
      const text = `---\nname: t\n${yaml}\n---\nbody\n`;
      let theirs: unknown;
      try {
        theirs = (await peers.skillEntry("t", { "SKILL.md": text })).frontmatter;
      } catch {
        theirs = "refused";
      }
      let mine: unknown;
      try {
        mine = parseFrontmatter(text).fields;
      } catch {
        mine = "refused";
      }
      expect(mine).to.deep.equal(theirs);
      // The last three are not YAML either reader takes (": " in a plain value, an anchor, a duplicate key).
      expect(mine === "refused", "refused").to.equal(documents.indexOf(yaml) >= documents.length - 3);
    });

  for (const [era, negotiation, expected] of [
    ["session", undefined, "2025-11-25"],
    ["stateless", { mode: "auto" }, "2026-07-28"],
  ] as const)
    it(`${era} era: SDK v2's SkillsClient lists, gets and verifies the skills of our server`, async () => {
      const server = createServer({ name: "ours", version: "1.0.0", logger: quiet }).skill("acme/billing/refunds", FILES);
      const handler = fetchHandler(server);
      const client = new peers.Client({ name: "sdk-v2", version: "2.4.0" }, negotiation ? { versionNegotiation: negotiation } : {});
      await client.connect(new peers.StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: (input: Any, init: Any) => handler(new Request(input, init)) }));
      try {
        expect(client.getNegotiatedProtocolVersion()).to.equal(expected);
        const skills = new peers.SkillsClient(client);
        expect(skills.supported).to.equal(true);
        expect(skills.directoryRead).to.equal(true);
        const { skills: listed, invalid } = await skills.list();
        expect(invalid).to.deep.equal([]);
        expect(listed).to.have.length(1);
        expect(listed[0].uri).to.equal("skill://acme/billing/refunds/SKILL.md");
        expect(listed[0].frontmatter).to.deep.equal(FRONTMATTER);
        const { skill } = await skills.get(listed[0].uri);
        expect(skill).to.deep.equal(listed[0]);
        // The SDK parses SKILL.md itself and compares its frontmatter with the one our server published.
        const manifest = await skills.read(skill);
        expect(manifest.verified).to.equal(true);
        expect(manifest.frontmatter).to.deep.equal(FRONTMATTER);
        expect((await skills.read(skill, "examples/email.md")).text).to.equal(EMAIL);
        const { resources } = await skills.readDirectory("skill://acme/billing/refunds/examples");
        expect(resources.map((r: Any) => r.uri)).to.deep.equal(["skill://acme/billing/refunds/examples/email.md"]);
      } finally {
        await client.close();
        await server.close();
      }
    });

  for (const revision of ["2025-11-25", "auto"] as const)
    it(`revision ${revision}: our SkillsClient lists, gets and verifies the skills of SDK v2's SkillsExtension`, async () => {
      const catalog = await peers.SkillsExtension.load(peers.memorySkillFiles(Object.fromEntries(Object.entries(FILES).map(([path, text]) => [`refunds/${path}`, text]))), {
        prefix: "acme",
        onWarning: quiet,
      });
      const handler = peers.createMcpHandler(() => {
        const sdk = new peers.McpServer({ name: "sdk-v2", version: "2.4.0" });
        catalog.attach(sdk);
        return sdk;
      });
      const client = await McpClient.connect(new HttpClientTransport("http://sdk.test/mcp", { fetch: (input, init) => handler.fetch(new Request(input, init)) }), {
        name: "ours",
        version: "1.0.0",
        revision,
        logger: quiet,
      });
      try {
        expect(client.revision).to.equal(revision === "auto" ? "2026-07-28" : revision);
        const skills = new SkillsClient(client);
        expect(skills.supported).to.equal(true);
        const { skills: listed } = await skills.list();
        expect(listed).to.have.length(1);
        // Our reader parses the frontmatter the SDK published; read() compares it with the file.
        expect(listed[0]!.frontmatter).to.deep.equal(FRONTMATTER);
        expect(await skills.get(listed[0]!.uri)).to.deep.equal(listed[0]);
        const manifest = await skills.read(listed[0]!);
        expect(manifest).to.deep.include({ verified: true, frontmatter: FRONTMATTER, text: SKILL_MD });
        expect((await skills.read(listed[0]!, "examples/email.md")).text).to.equal(EMAIL);
      } finally {
        await client.close();
      }
    });
});
