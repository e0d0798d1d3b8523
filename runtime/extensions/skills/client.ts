// The Skills extension (SEP-2640), host side: list and get a server's skill entries, and read a
// skill's files, each checked against the entry before it is used ("Integrity and verification"):
// listed, the entry's size, the entry's digest, and for SKILL.md a frontmatter equal to the
// entry's. Nothing is read ahead of need: list and get never read a file.
import { FrontmatterError, frontmatterOf, sameYaml, type YamlValue } from "./frontmatter.js";
import {
  SKILL_LIMITS,
  SKILL_MD,
  SKILL_METHOD_SCHEMAS,
  SKILLS_EXTENSION,
  sha256Digest,
  skillRoot,
  type SkillEntry,
  type SkillResourceEntry,
} from "./protocol.js";
import type { CallOptions, McpClient } from "../../client/client.js";

/**
 * Why `SkillsClient.read` refused a file: not listed by its entry, or its size, digest or
 * frontmatter differ from the entry's.
 */
export type SkillVerificationReason = "unlisted" | "size" | "digest" | "frontmatter";

/** A skill file failed verification: it must not be used, and for SKILL.md the skill must not be loaded. */
export class SkillVerificationError extends Error {
  constructor(
    readonly reason: SkillVerificationReason,
    readonly uri: string,
    message: string,
  ) {
    super(`${uri}: ${message}`);
    this.name = "SkillVerificationError";
  }
}

/** A file as read by {@link SkillsClient.read}, verified against its entry. */
export interface SkillFile {
  readonly uri: string;
  readonly mimeType?: string;
  /** Exactly the bytes the entry's digest covers. */
  readonly bytes: Uint8Array;
  /** When the server sent text. */
  readonly text?: string;
  /** Size and digest were checked: false only for a "dynamic" skill, which has none. */
  readonly verified: boolean;
  /** The skill's own SKILL.md: its frontmatter, equal to the entry's, and the markdown after it. */
  readonly frontmatter?: Record<string, YamlValue>;
  readonly body?: string;
}

/** At most this many skills/list pages are walked; a server still sending cursors after that is answered with an error. */
const MAX_PAGES = 100;

/**
 * Lists and reads a server's Agent Skills (the skills extension), verifying every file it reads
 * against its entry's size and digest.
 */
export class SkillsClient {
  constructor(private readonly client: McpClient) {}

  /** The server declared io.modelcontextprotocol/skills. */
  get supported(): boolean {
    return this.settings !== undefined;
  }

  /** The server serves resources/directory/read. */
  get directoryRead(): boolean {
    return this.settings?.directoryRead === true;
  }

  private get settings(): Record<string, unknown> | undefined {
    const extensions = (this.client.serverCapabilities as { extensions?: Record<string, unknown> }).extensions;
    const settings = extensions?.[SKILLS_EXTENSION];
    return typeof settings === "object" && settings !== null ? (settings as Record<string, unknown>) : undefined;
  }

  /**
   * The server's skills: every page, or the one page at `cursor`. An entry that breaks SEP-2640's
   * rules fails the call, naming it. Empty on a server without the extension. Reads no file.
   */
  async list(options: CallOptions & { readonly cursor?: string } = {}): Promise<{ skills: SkillEntry[]; nextCursor?: string }> {
    if (!this.supported) return { skills: [] };
    const { cursor: first, ...call } = options;
    const skills: SkillEntry[] = [];
    let cursor = first;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.client.request<{ skills: unknown[]; nextCursor?: string }>("skills/list", cursor === undefined ? {} : { cursor }, {
        ...call,
        resultSchema: SKILL_METHOD_SCHEMAS["skills/list"].result,
      });
      result.skills.forEach((entry, i) => skills.push(checkEntry(entry, `skills/list entry ${skills.length + i}`)));
      if (first !== undefined) return result.nextCursor === undefined ? { skills } : { skills, nextCursor: result.nextCursor };
      if (!result.nextCursor) break;
      if (page === MAX_PAGES - 1) throw new Error(`skills/list still had a nextCursor after ${MAX_PAGES} pages`);
      cursor = result.nextCursor;
    }
    const seen = new Set<string>();
    for (const skill of skills) {
      if (seen.has(skill.uri)) throw new Error(`skills/list lists ${skill.uri} twice`);
      seen.add(skill.uri);
    }
    return { skills };
  }

  /** One skill's entry by the URI of its SKILL.md, listed or not. Reads no file. */
  async get(uri: string, options: CallOptions = {}): Promise<SkillEntry> {
    const result = await this.client.request<{ skill: unknown }>("skills/get", { uri }, { ...options, resultSchema: SKILL_METHOD_SCHEMAS["skills/get"].result });
    const skill = checkEntry(result.skill, "skills/get");
    if (skill.uri !== uri) throw new Error(`skills/get for ${uri} answered with ${skill.uri}`);
    return skill;
  }

  /**
   * Reads one file of `skill` and verifies it: `ref` is a path under the skill's root
   * (`references/FORMS.md`) or an absolute URI, SKILL.md by default. The file must be listed in
   * the entry, and its size and digest must match; SKILL.md's frontmatter must equal the entry's.
   * A "dynamic" skill skips the list, size and digest checks (`verified: false`), not the
   * frontmatter one. A stateless-era copy from the client's cache that fails is fetched once more.
   *
   * @throws {SkillVerificationError} when a check fails: the content must not be used.
   */
  async read(skill: SkillEntry, ref: string = SKILL_MD, options: CallOptions = {}): Promise<SkillFile> {
    const root = skillRoot(skill.uri)!;
    const uri = ref.includes("://") ? ref : `${root}/${ref.replace(/^\.?\//, "")}`;
    const listed = skill.resources === "dynamic" ? undefined : skill.resources.find((r) => r.uri === uri);
    if (skill.resources !== "dynamic" && !listed) throw new SkillVerificationError("unlisted", uri, `not listed in the entry of ${skill.uri}`);
    try {
      return await this.fetchVerified(skill, uri, listed, options);
    } catch (error) {
      if (!(error instanceof SkillVerificationError) || this.client.era !== "stateless" || options.fresh) throw error;
      return this.fetchVerified(skill, uri, listed, { ...options, fresh: true });
    }
  }

  /** The direct children of a directory resource (`skill://pdf-processing/templates`), every page. Needs `directoryRead`. */
  async readDirectory(uri: string, options: CallOptions = {}): Promise<{ uri: string; name: string; mimeType?: string }[]> {
    if (!this.directoryRead) throw new Error(`the server does not declare ${SKILLS_EXTENSION} directoryRead`);
    const children: { uri: string; name: string; mimeType?: string }[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.client.request<{ resources: { uri: string; name: string; mimeType?: string }[]; nextCursor?: string }>(
        "resources/directory/read",
        cursor === undefined ? { uri } : { uri, cursor },
        { ...options, resultSchema: SKILL_METHOD_SCHEMAS["resources/directory/read"].result },
      );
      children.push(...result.resources);
      if (!result.nextCursor) return children;
      cursor = result.nextCursor;
    }
    throw new Error(`resources/directory/read of ${uri} still had a nextCursor after ${MAX_PAGES} pages`);
  }

  private async fetchVerified(skill: SkillEntry, uri: string, listed: SkillResourceEntry | undefined, options: CallOptions): Promise<SkillFile> {
    const read = await this.client.readResource(uri, options);
    const content = read.contents.find((c) => c.uri === uri) ?? read.contents[0];
    if (!content) throw new SkillVerificationError("size", uri, "resources/read returned no content");
    const text = "text" in content && typeof content.text === "string" ? content.text : undefined;
    const bytes = text !== undefined ? new TextEncoder().encode(text) : decodeBase64(String((content as { blob?: unknown }).blob ?? ""));
    // Size first: a truncated or padded read fails before it is hashed (SEP-2640 "Resources").
    if (listed && bytes.length !== listed.size) throw new SkillVerificationError("size", uri, `${bytes.length} bytes, the entry says ${listed.size}`);
    if (listed && (await sha256Digest(bytes)) !== listed.digest) throw new SkillVerificationError("digest", uri, `the content's digest is not the entry's ${listed.digest}`);
    const file = { uri, mimeType: content.mimeType, bytes, text, verified: listed !== undefined };
    if (uri !== skill.uri) return file;
    if (text === undefined) throw new SkillVerificationError("frontmatter", uri, `${SKILL_MD} arrived as bytes, not text`);
    let parsed;
    try {
      parsed = await frontmatterOf(text);
    } catch (error) {
      throw new SkillVerificationError("frontmatter", uri, error instanceof FrontmatterError ? error.message : String(error));
    }
    const differences = [...new Set([...Object.keys(parsed.fields), ...Object.keys(skill.frontmatter)])]
      .filter((key) => !sameYaml(parsed.fields[key], skill.frontmatter[key]))
      .map((key) => `${key}: the file says ${JSON.stringify(parsed.fields[key] ?? null)}, the entry ${JSON.stringify(skill.frontmatter[key] ?? null)}`);
    if (differences.length > 0) throw new SkillVerificationError("frontmatter", uri, `frontmatter differs from the entry's (${differences.join("; ")})`);
    return { ...file, frontmatter: parsed.fields, body: parsed.body };
  }
}

/** An entry as SEP-2640 defines it, or an error naming what is wrong (hosts MUST NOT load an invalid entry). */
function checkEntry(value: unknown, where: string): SkillEntry {
  const entry = value as SkillEntry;
  const fail = (problem: string) => new Error(`${where} (${typeof entry?.uri === "string" ? entry.uri : "no uri"}) is invalid: ${problem}`);
  const root = skillRoot(entry.uri);
  if (root === undefined) throw fail(`its uri must end in /${SKILL_MD}`);
  const name = root.slice(root.lastIndexOf("/") + 1);
  if (entry.frontmatter.name !== name) throw fail(`the uri's last skill-path segment "${name}" is not frontmatter.name ${JSON.stringify(entry.frontmatter.name)}`);
  if (entry.resources === "dynamic") return entry;
  if (!entry.resources.some((r) => r.uri === entry.uri)) throw fail(`resources does not list its ${SKILL_MD}`);
  const uris = new Set<string>();
  let total = 0;
  for (const file of entry.resources) {
    if (!file.uri.startsWith(`${root}/`)) throw fail(`${file.uri} is outside the skill`);
    if (uris.has(file.uri)) throw fail(`${file.uri} is listed twice`);
    uris.add(file.uri);
    total += file.size;
  }
  if (uris.size > SKILL_LIMITS.resources) throw fail(`${uris.size} files, over the limit of ${SKILL_LIMITS.resources}`);
  if (total > SKILL_LIMITS.totalBytes) throw fail(`${total} bytes, over the limit of ${SKILL_LIMITS.totalBytes}`);
  return entry;
}

function decodeBase64(blob: string): Uint8Array {
  const binary = atob(blob);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
