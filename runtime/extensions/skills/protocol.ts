// The wire contract of the Skills extension (SEP-2640), shared by the server (runtime/extensions/skills/server.ts)
// and the client (runtime/extensions/skills/client.ts). SEP-2640 ships no schema.json: the method schemas
// below are written from its tables ("Enumeration via skills/list", "Retrieval via skills/get",
// "resources/directory/read").
import type { YamlValue } from "./frontmatter.js";

/** The skills extension's identifier, under `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
export const SKILL_MD = "SKILL.md";
/** The MIME type of a directory's entry in resources/directory/read. */
export const DIRECTORY_MIME_TYPE = "inode/directory";
/** SEP-2640 "Limits": what every conforming host accepts. */
export const SKILL_LIMITS = { resources: 512, totalBytes: 16 * 1024 * 1024 } as const;
/** Agent Skills naming rules: 1-64 of a-z, 0-9 and "-", no leading, trailing or doubled hyphen. */
export const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** One file of a skill: its URI, size and sha256 digest. */
export interface SkillResourceEntry {
  readonly uri: string;
  /** `sha256:` and 64 lowercase hex digits, over the file's raw bytes. */
  readonly digest: string;
  /** The byte length of the same bytes. */
  readonly size: number;
}

/** One skill as skills/list and skills/get give it: its path, its SKILL.md frontmatter and its files. */
export interface SkillEntry {
  /** The URI of the skill's SKILL.md. */
  readonly uri: string;
  /** The SKILL.md frontmatter, verbatim, as JSON. */
  readonly frontmatter: { readonly name: string; readonly description: string; readonly [field: string]: YamlValue };
  /** Every file of the skill, or "dynamic" when no stable digests exist. */
  readonly resources: readonly SkillResourceEntry[] | "dynamic";
}

/** `sha256:{hex}` of `bytes` (WebCrypto: Node, Bun, Deno and workerd alike). */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const byte of hash) hex += byte.toString(16).padStart(2, "0");
  return `sha256:${hex}`;
}

/** The skill's root directory: its SKILL.md URI without "/SKILL.md", or undefined for another URI. */
export function skillRoot(uri: string): string | undefined {
  return uri.endsWith(`/${SKILL_MD}`) && uri.indexOf("://") > 0 ? uri.slice(0, -SKILL_MD.length - 1) : undefined;
}

const RESOURCE_ENTRY = {
  type: "object",
  required: ["uri", "digest", "size"],
  properties: { uri: { type: "string" }, digest: { type: "string", pattern: "^sha256:[0-9a-f]{64}$" }, size: { type: "integer", minimum: 0 } },
};
const ENTRY = {
  type: "object",
  required: ["uri", "frontmatter", "resources"],
  properties: {
    uri: { type: "string" },
    frontmatter: { type: "object", required: ["name", "description"], properties: { name: { type: "string" }, description: { type: "string" } } },
    resources: { oneOf: [{ const: "dynamic" }, { type: "array", items: RESOURCE_ENTRY }] },
  },
};
const DIRECTORY_CHILD = { type: "object", required: ["uri", "name"], properties: { uri: { type: "string" }, name: { type: "string" }, mimeType: { type: "string" } } };

/** JSON Schemas of the extension's methods (draft 2020-12), for `server.handle` and `client.request`. */
export const SKILL_METHOD_SCHEMAS = {
  "skills/list": {
    params: { type: "object", properties: { cursor: { type: "string" } } },
    result: { type: "object", required: ["skills"], properties: { skills: { type: "array", items: ENTRY }, nextCursor: { type: "string" } } },
    cacheable: true,
  },
  "skills/get": {
    params: { type: "object", required: ["uri"], properties: { uri: { type: "string" } } },
    result: { type: "object", required: ["skill"], properties: { skill: ENTRY } },
    cacheable: true,
  },
  "resources/directory/read": {
    params: { type: "object", required: ["uri"], properties: { uri: { type: "string" }, cursor: { type: "string" } } },
    result: { type: "object", required: ["resources"], properties: { resources: { type: "array", items: DIRECTORY_CHILD }, nextCursor: { type: "string" } } },
    cacheable: true,
  },
} as const;
