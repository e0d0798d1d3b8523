/**
 * The YAML frontmatter of a SKILL.md (Agent Skills specification): the block between a leading
 * `---` line and the next, read as a YAML subset with core-schema scalars (YAML 1.2 §10.3). Enough
 * for what the Agent Skills specification defines (strings, a `metadata` map of strings) and
 * common extras: nested maps, block sequences, quoted strings, `|` and `>` block scalars, flow
 * sequences of scalars. Anything else is refused with its line, never guessed at.
 */
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

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

export interface Frontmatter {
  readonly fields: Record<string, YamlValue>;
  /** The markdown after the closing `---` line. */
  readonly body: string;
}

/** Splits a SKILL.md into its frontmatter (parsed) and body; throws FrontmatterError when there is none or it cannot be read. */
export function parseFrontmatter(text: string): Frontmatter {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const block = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/.exec(source);
  if (!block) throw new FrontmatterError("SKILL.md does not begin with a --- delimited YAML frontmatter block");
  const lines = block[1]!.split(/\r?\n/).map((raw, index) => ({ raw, number: index + 2 }));
  const reader = new Reader(lines);
  const fields = reader.mapping(0);
  if (reader.more()) throw new FrontmatterError("unexpected indentation", reader.peek()!.number);
  if (typeof fields !== "object" || Array.isArray(fields)) throw new FrontmatterError("the frontmatter is not a mapping", 2);
  return { fields, body: source.slice(block[0].length) };
}

interface Line {
  readonly raw: string;
  readonly number: number;
}

const indentOf = (raw: string) => raw.length - raw.trimStart().length;

class Reader {
  private index = 0;
  constructor(private readonly lines: Line[]) {}

  more(): boolean {
    this.skipBlank();
    return this.index < this.lines.length;
  }

  peek(): Line | undefined {
    this.skipBlank();
    return this.lines[this.index];
  }

  private skipBlank(): void {
    while (this.index < this.lines.length && /^\s*(#.*)?$/.test(this.lines[this.index]!.raw)) this.index++;
  }

  /** A block mapping whose keys sit at exactly `indent`. */
  mapping(indent: number): { [key: string]: YamlValue } {
    const result: { [key: string]: YamlValue } = {};
    for (let line = this.peek(); line && indentOf(line.raw) === indent && !line.raw.trimStart().startsWith("- "); line = this.peek()) {
      const found = /^([^:#\s'"{}[\],&*!|>%@`][^:]*?|"[^"]*"|'[^']*'):(?:[ \t]+(.*))?$/.exec(line.raw.trim());
      if (!found) throw new FrontmatterError(`expected "key: value", found ${JSON.stringify(line.raw.trim())}`, line.number);
      const key = unquoteKey(found[1]!);
      if (Object.hasOwn(result, key)) throw new FrontmatterError(`duplicate key ${JSON.stringify(key)}`, line.number);
      this.index++;
      const rest = stripComment(found[2] ?? "");
      Object.defineProperty(result, key, { value: this.value(rest, indent, line), enumerable: true, writable: true, configurable: true });
    }
    return result;
  }

  /** What follows `key:` on `line`: inline, a block scalar, or an indented block. */
  private value(rest: string, indent: number, line: Line): YamlValue {
    if (/^[|>][+-]?$/.test(rest)) return this.blockScalar(rest, indent);
    if (rest !== "") return scalar(rest, line.number);
    const next = this.peek();
    if (!next) return null;
    const nextIndent = indentOf(next.raw);
    if (next.raw.trimStart().startsWith("- ") && nextIndent >= indent) return this.sequence(nextIndent);
    if (nextIndent > indent) return this.mapping(nextIndent);
    return null;
  }

  private sequence(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    for (let line = this.peek(); line && indentOf(line.raw) === indent && line.raw.trimStart().startsWith("- "); line = this.peek()) {
      this.index++;
      const item = stripComment(line.raw.trimStart().slice(2).trim());
      if (/^[^'"[{][^:]*:(\s|$)/.test(item)) throw new FrontmatterError("mappings inside sequences are not supported in frontmatter", line.number);
      items.push(item === "" ? null : scalar(item, line.number));
    }
    return items;
  }

  /** `|` keeps line breaks, `>` folds them; `-` strips the final one, `+` keeps every trailing one (YAML 1.2 §8.1). */
  private blockScalar(header: string, indent: number): string {
    const taken: string[] = [];
    let blockIndent: number | undefined;
    while (this.index < this.lines.length) {
      const raw = this.lines[this.index]!.raw;
      if (raw.trim() !== "") {
        const own = indentOf(raw);
        if (own <= indent) break;
        blockIndent ??= own;
        if (own < blockIndent) throw new FrontmatterError("a block scalar line is indented less than its first line", this.lines[this.index]!.number);
      }
      taken.push(raw);
      this.index++;
    }
    const body = taken.map((raw) => raw.slice(blockIndent ?? 0));
    let trailing = 0;
    while (trailing < body.length && body[body.length - 1 - trailing]!.trim() === "") trailing++;
    const content = body.slice(0, body.length - trailing);
    const text = header.startsWith("|") ? content.join("\n") : fold(content);
    if (content.length === 0) return "";
    if (header.endsWith("-")) return text;
    if (header.endsWith("+")) return text + "\n".repeat(trailing + 1);
    return text + "\n";
  }
}

function fold(lines: string[]): string {
  let out = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (i === 0) out = line;
    else if (line === "") out += "\n";
    else if (lines[i - 1] === "" || /^\s/.test(line) || /^\s/.test(lines[i - 1]!)) out += (out.endsWith("\n") ? "" : "\n") + line;
    else out += " " + line;
  }
  return out;
}

function unquoteKey(key: string): string {
  return key.startsWith('"') || key.startsWith("'") ? key.slice(1, -1) : key.trim();
}

/** A ` #` outside quotes starts a comment. */
function stripComment(value: string): string {
  if (value.startsWith('"') || value.startsWith("'")) {
    const close = value.startsWith('"') ? /^"(?:[^"\\]|\\.)*"/.exec(value) : /^'(?:[^']|'')*'/.exec(value);
    if (close) {
      const after = value.slice(close[0].length).trim();
      if (after === "" || after.startsWith("#")) return close[0];
    }
    return value;
  }
  const hash = value.search(/\s#/);
  return (hash < 0 ? value : value.slice(0, hash)).trim();
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "0": "\0", '"': '"', "\\": "\\", "/": "/", " ": " ", b: "\b", f: "\f", e: "\x1b" };

/** A plain, quoted or flow-sequence scalar, typed by the core schema. */
function scalar(text: string, line: number): YamlValue {
  if (text.startsWith('"')) {
    const found = /^"((?:[^"\\]|\\.)*)"$/.exec(text);
    if (!found) throw new FrontmatterError(`unterminated double-quoted string ${text}`, line);
    return found[1]!.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, escape: string) => {
      if (escape.length > 1) return String.fromCharCode(parseInt(escape.slice(1), 16));
      const replaced = ESCAPES[escape];
      if (replaced === undefined) throw new FrontmatterError(`unknown escape \\${escape}`, line);
      return replaced;
    });
  }
  if (text.startsWith("'")) {
    const found = /^'((?:[^']|'')*)'$/.exec(text);
    if (!found) throw new FrontmatterError(`unterminated single-quoted string ${text}`, line);
    return found[1]!.replace(/''/g, "'");
  }
  if (text.startsWith("[")) {
    if (!text.endsWith("]")) throw new FrontmatterError(`unterminated flow sequence ${text}`, line);
    const inner = text.slice(1, -1).trim();
    if (inner === "") return [];
    if (/[[\]{}]/.test(inner)) throw new FrontmatterError("nested flow collections are not supported in frontmatter", line);
    return inner.split(",").map((item) => scalar(item.trim(), line));
  }
  if (/^[{&*!%@`]/.test(text)) throw new FrontmatterError(`YAML syntax not supported in frontmatter: ${text}`, line);
  // YAML forbids ": " in a plain scalar; accepting it would publish frontmatter other parsers refuse.
  if (/:(\s|$)/.test(text)) throw new FrontmatterError(`a plain value cannot contain ": " (quote it): ${text}`, line);
  if (/^(~|null|Null|NULL)$/.test(text)) return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(inf|Inf|INF)$/.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  if (/^\.(nan|NaN|NAN)$/.test(text)) return NaN;
  return text;
}

/** Deep equality of two parsed frontmatter values (key order aside). */
export function sameYaml(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => Object.hasOwn(b, key) && sameYaml((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
