// The Skills extension (SEP-2640), server side: each file of a skill is a resource under
// skill://<skill-path>/<file-path>, skills/list and skills/get return the skills' entries (their
// frontmatter, and every file's digest and size), and resources/directory/read lists a skill's
// directories. Built on the open server API: resources, `handle` and `extension`.
import type { RequestContext } from "../../dispatch/context.js";
import { ErrorCode, RpcError } from "../../jsonrpc/errors.js";
import { FrontmatterError, frontmatterOf } from "./frontmatter.js";
import { isThenable } from "../../util/thenable.js";
import {
  DIRECTORY_MIME_TYPE,
  SKILL_LIMITS,
  SKILL_MD,
  SKILL_METHOD_SCHEMAS,
  SKILL_NAME,
  SKILLS_EXTENSION,
  sha256Digest,
  type SkillEntry,
} from "./protocol.js";
import type { MethodSchemas } from "../../shared/json-schema.js";
import type { ReadResourceResult, Resource } from "../../shared/types.js";

/** A skill's files by path relative to its root (`SKILL.md`, `references/FORMS.md`): text, or raw bytes. */
export type SkillFiles = Readonly<Record<string, string | Uint8Array>>;

/** Options of `server.skill`: MIME types for files whose extension does not tell. */
export interface SkillOptions {
  /** MIME types by file path, for files whose extension the table below does not know. */
  readonly mimeTypes?: Readonly<Record<string, string>>;
}

/** What the catalog needs of the server (McpServer's open API): the wing plugs in through it. */
export interface SkillHost {
  resource(definition: Resource, handler: (uri: string, context: RequestContext) => ReadResourceResult | Promise<ReadResourceResult>): unknown;
  handle(method: string, handler: (params: Record<string, unknown>, context: RequestContext) => unknown, schemas: MethodSchemas): unknown;
  extension(id: string, settings: Record<string, unknown>): unknown;
}

/** Common types by file extension; others are application/octet-stream (bytes) or text/plain (text). */
const MIME_TYPES: Record<string, string> = {
  md: "text/markdown",
  txt: "text/plain",
  py: "text/x-python",
  js: "text/javascript",
  ts: "text/x-typescript",
  sh: "text/x-shellscript",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  html: "text/html",
  csv: "text/csv",
  png: "image/png",
  jpg: "image/jpeg",
  pdf: "application/pdf",
};

interface Child {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
}

/** The server's paginator (sealed cursors, ServerOptions.pageSize). */
export interface Pages {
  page<T>(list: string, items: readonly T[], cursor: unknown): { items: T[]; nextCursor?: string };
}

interface ServedFile {
  readonly bytes: Uint8Array;
}

/** The skills of one server. Entries are built at registration; digests are computed once, on first use. */
export class SkillCatalog {
  private readonly skills = new Map<string, Promise<SkillEntry>>();
  private readonly files = new Map<string, ServedFile>();
  /** Directory URI -> its direct children by URI. */
  private readonly directories = new Map<string, Map<string, Child>>();
  private pending: Promise<void>[] = [];

  /** Pages as the server's own lists do (ServerOptions.pageSize, sealed cursors); an entry is never split. */
  constructor(
    private readonly host: SkillHost,
    private readonly paginator: Pages,
  ) {
    host.extension(SKILLS_EXTENSION, { directoryRead: true });
    host.handle("skills/list", (params) => this.list(params.cursor), SKILL_METHOD_SCHEMAS["skills/list"]);
    host.handle("skills/get", (params) => this.get(params.uri as string), SKILL_METHOD_SCHEMAS["skills/get"]);
    host.handle("resources/directory/read", (params) => this.readDirectory(params.uri as string, params.cursor), SKILL_METHOD_SCHEMAS["resources/directory/read"]);
  }

  /**
   * Serves a skill at `skill://<path>/`. Throws when SKILL.md is missing or its frontmatter
   * unreadable, when the last path segment is not the frontmatter's `name` (SEP-2640 "Resource
   * Mapping"), or when the skill exceeds the SEP's limits.
   */
  add(path: string, files: SkillFiles, options: SkillOptions = {}): void {
    const segments = path.split("/");
    if (segments.some((s) => s === "" || s === "." || s === "..")) throw new Error(`skill path ${JSON.stringify(path)} must be /-separated non-empty segments`);
    const name = segments[segments.length - 1]!;
    if (!SKILL_NAME.test(name)) throw new Error(`skill ${path}: "${name}" breaks the Agent Skills naming rules (1-64 of a-z, 0-9, "-"; no leading, trailing or doubled "-")`);
    const manifest = files[SKILL_MD];
    if (manifest === undefined) throw new Error(`skill ${path} has no ${SKILL_MD}`);
    const read = (() => {
      try {
        return frontmatterOf(typeof manifest === "string" ? manifest : new TextDecoder("utf-8", { fatal: true }).decode(manifest));
      } catch (error) {
        throw unreadable(path, error);
      }
    })();
    if (!isThenable(read)) return this.register(path, name, files, options, read.fields);
    // Where yaml must be imported (Workers), the skill is served once it is read; a failure is
    // then reported by every skills request, since no caller is left to throw to.
    const pending: Promise<void> = read.then(
      (frontmatter) => this.register(path, name, files, options, frontmatter.fields),
      (error: unknown) => {
        throw unreadable(path, error);
      },
    );
    pending.catch(() => {});
    this.pending.push(pending);
  }

  private register(path: string, name: string, files: SkillFiles, options: SkillOptions, frontmatter: Record<string, unknown>): void {
    if (frontmatter.name !== name) throw new Error(`skill ${path}: the frontmatter name is ${JSON.stringify(frontmatter.name)}; SEP-2640 requires it to equal the last path segment, "${name}"`);
    if (typeof frontmatter.description !== "string" || frontmatter.description === "") throw new Error(`skill ${path}: the frontmatter needs a non-empty description`);
    const metadata = frontmatter.metadata;
    // Agent Skills specification: `metadata` maps strings to strings (hosts such as SDK v2 skip a skill that breaks it).
    if (metadata !== undefined && (typeof metadata !== "object" || metadata === null || Array.isArray(metadata) || Object.values(metadata).some((v) => typeof v !== "string")))
      throw new Error(`skill ${path}: the frontmatter metadata must map strings to strings`);

    const root = `skill://${path}`;
    const uri = `${root}/${SKILL_MD}`;
    if (this.skills.has(uri)) throw new Error(`skill ${path} is already registered`);
    const paths = Object.keys(files).sort();
    for (const file of paths)
      if (file.split("/").some((s) => s === "" || s === "." || s === "..")) throw new Error(`skill ${path}: file path ${JSON.stringify(file)} must be /-separated non-empty segments`);
    if (paths.length > SKILL_LIMITS.resources) throw new Error(`skill ${path} has ${paths.length} files; SEP-2640 limits a skill to ${SKILL_LIMITS.resources}`);
    const encoded = paths.map((file) => ({ file, bytes: typeof files[file] === "string" ? new TextEncoder().encode(files[file]) : (files[file] as Uint8Array) }));
    const total = encoded.reduce((sum, f) => sum + f.bytes.length, 0);
    if (total > SKILL_LIMITS.totalBytes) throw new Error(`skill ${path} has ${total} bytes; SEP-2640 limits a skill to ${SKILL_LIMITS.totalBytes}`);

    for (const { file, bytes } of encoded) {
      const fileSegments = file.split("/");
      const fileUri = `${root}/${file}`;
      const text = typeof files[file] === "string";
      const mimeType = options.mimeTypes?.[file] ?? MIME_TYPES[/\.([a-z0-9]+)$/i.exec(file)?.[1]?.toLowerCase() ?? ""] ?? (text ? "text/plain" : "application/octet-stream");
      this.serveFile(fileUri, bytes, text, {
        uri: fileUri,
        name: file === SKILL_MD ? name : fileSegments[fileSegments.length - 1]!,
        ...(file === SKILL_MD ? { description: frontmatter.description as string } : {}),
        mimeType,
        size: bytes.length,
      });
      // The skill's root and every directory under it are directory resources (SEP-2640 "Directory resources").
      let parent = root;
      for (const [i, segment] of fileSegments.entries()) {
        const child = `${parent}/${segment}`;
        const last = i === fileSegments.length - 1;
        this.directory(parent).set(child, { uri: child, name: segment, mimeType: last ? mimeType : DIRECTORY_MIME_TYPE });
        if (!last) this.directory(child);
        parent = child;
      }
    }
    this.skills.set(
      uri,
      Promise.all(encoded.map(async ({ file, bytes }) => ({ uri: `${root}/${file}`, digest: await sha256Digest(bytes), size: bytes.length }))).then((resources) => ({
        uri,
        frontmatter: frontmatter as SkillEntry["frontmatter"],
        resources,
      })),
    );
  }

  private serveFile(uri: string, bytes: Uint8Array, text: boolean, definition: Resource): void {
    const served = this.files.get(uri);
    // A nested skill's files are its enclosing skill's too (SEP-2640 "Nested skills"): one resource, same bytes.
    if (served) {
      if (!sameBytes(served.bytes, bytes)) throw new Error(`${uri} is already served with other content`);
      return;
    }
    this.files.set(uri, { bytes });
    const content = text ? { text: new TextDecoder().decode(bytes) } : { blob: base64(bytes) };
    this.host.resource(definition, () => ({ contents: [{ uri, mimeType: definition.mimeType, ...content }] }));
  }

  private directory(uri: string): Map<string, Child> {
    let children = this.directories.get(uri);
    if (!children) this.directories.set(uri, (children = new Map()));
    return children;
  }

  /** Skills still being read (where yaml is imported): each request waits for them. */
  private ready(): Promise<unknown> | undefined {
    return this.pending.length > 0 ? Promise.all(this.pending) : undefined;
  }

  private async list(cursor: unknown): Promise<{ skills: SkillEntry[]; nextCursor?: string }> {
    await this.ready();
    const { items, nextCursor } = this.paginator.page("skills", [...this.skills.values()], cursor);
    const skills = await Promise.all(items);
    return nextCursor === undefined ? { skills } : { skills, nextCursor };
  }

  private async get(uri: string): Promise<{ skill: SkillEntry }> {
    await this.ready();
    const skill = this.skills.get(uri);
    if (!skill) throw new RpcError(ErrorCode.InvalidParams, `${uri} is not the SKILL.md of a skill this server serves`, { uri });
    return { skill: await skill };
  }

  /** A cursor is good for the directory it was issued for only. */
  private readDirectory(uri: string, cursor: unknown): { resources: Child[]; nextCursor?: string } | Promise<{ resources: Child[]; nextCursor?: string }> {
    const waiting = this.ready();
    return waiting ? waiting.then(() => this.directoryPage(uri, cursor)) : this.directoryPage(uri, cursor);
  }

  private directoryPage(uri: string, cursor: unknown): { resources: Child[]; nextCursor?: string } {
    const children = this.directories.get(uri);
    if (!children) throw new RpcError(ErrorCode.InvalidParams, `${uri} is not a directory this server serves`, { uri });
    const sorted = [...children.values()].sort((a, b) => (a.uri < b.uri ? -1 : 1));
    const { items, nextCursor } = this.paginator.page(`directory ${uri}`, sorted, cursor);
    return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
  }
}

function unreadable(path: string, error: unknown): Error {
  return new Error(`skill ${path}: ${SKILL_MD}: ${error instanceof FrontmatterError ? error.message : "not UTF-8 text"}`);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
