/**
 * The YAML frontmatter of a SKILL.md (Agent Skills specification): the block between a leading
 * `---` line and the next, read by `yaml` (an optional peer dependency: a server or client that
 * serves or reads skills installs it) with the YAML 1.2 core schema. Anchors, aliases and tags are
 * refused, as SDK v2's reader refuses them: a frontmatter is plain data that a client compares
 * with the entry field by field.
 */
import type * as Yaml from "yaml";
import { commonJsRequire } from "../../util/require.js";

/** A value YAML's core schema can hold. */
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

/** A SKILL.md whose frontmatter cannot be read, or breaks the skills extension's rules. */
export class FrontmatterError extends Error {
  constructor(
    message: string,
    /** 1-based, counted in the whole file. */
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = "FrontmatterError";
  }
}

/** A SKILL.md's frontmatter, and the text after it. */
export interface Frontmatter {
  readonly fields: Record<string, YamlValue>;
  /** The markdown after the closing `---` line. */
  readonly body: string;
}

type YamlModule = typeof Yaml;

const MISSING = 'SKILL.md frontmatter is read with the "yaml" package, an optional peer dependency of @mcp-codegen/runtime: install it (npm install yaml)';

let yaml: YamlModule | undefined;

/** yaml, required at once where `require` exists (Node, Bun, Deno); undefined where it must be imported (Workers, bundled). */
function yamlNow(): YamlModule | undefined {
  if (yaml) return yaml;
  const require = commonJsRequire();
  if (!require) return undefined;
  try {
    return (yaml = require("yaml") as YamlModule);
  } catch (error) {
    if ((error as { code?: unknown }).code === "MODULE_NOT_FOUND") throw new FrontmatterError(MISSING);
    return undefined;
  }
}

/** yaml, imported where it cannot be required. */
async function loadYaml(): Promise<YamlModule> {
  const now = yamlNow();
  if (now) return now;
  try {
    return (yaml = (await import("yaml")) as YamlModule);
  } catch {
    throw new FrontmatterError(MISSING);
  }
}

/** Splits a SKILL.md into its frontmatter (parsed) and body; throws FrontmatterError when there is none or it cannot be read. */
export function parseFrontmatter(text: string): Frontmatter {
  const module = yamlNow();
  if (!module) throw new FrontmatterError(`${MISSING}; where it cannot be required, the skills code imports it on first use`);
  return read(module, text);
}

/** {@link parseFrontmatter} at once where yaml can be required, else once it is imported. */
export function frontmatterOf(text: string): Frontmatter | Promise<Frontmatter> {
  const module = yamlNow();
  return module ? read(module, text) : loadYaml().then((loaded) => read(loaded, text));
}

function read(module: YamlModule, text: string): Frontmatter {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const block = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/.exec(source);
  if (!block) throw new FrontmatterError("SKILL.md does not begin with a --- delimited YAML frontmatter block");
  const lines = new module.LineCounter();
  const document = module.parseDocument(block[1]!, { schema: "core", lineCounter: lines, prettyErrors: false });
  // The block starts on the file's second line.
  const lineOf = (offset: number | undefined) => (offset === undefined ? undefined : lines.linePos(offset).line + 1);
  const [error] = document.errors;
  if (error) throw new FrontmatterError(error.message, lineOf(error.pos[0]));
  let refused: { range?: [number, number, number] | null } | undefined;
  module.visit(document, {
    Alias: (_, node) => void (refused ??= node),
    Node: (_, node) => void (node.anchor !== undefined || node.tag !== undefined ? (refused ??= node) : undefined),
  });
  if (refused) throw new FrontmatterError("anchors, aliases and tags are not supported", lineOf(refused.range?.[0]));
  const fields = document.contents === null ? {} : (document.toJS() as unknown);
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) throw new FrontmatterError("the frontmatter is not a mapping", 2);
  return { fields: fields as Record<string, YamlValue>, body: source.slice(block[0].length) };
}

/** Deep equality of parsed YAML values, key order aside: how a client compares a file's frontmatter with the entry's. */
export function sameYaml(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => Object.hasOwn(b, key) && sameYaml((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
