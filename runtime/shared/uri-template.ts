/**
 * RFC 6570 URI templates, both ways: `expand` (section 3.2) and `match`, its inverse: which
 * variable values would expand `template` into `uri`. Supports every level-4 operator ("", +, #,
 * /, ., ;, ?, &), comma-separated variable lists, prefixes (`{var:3}`) and explode (`{list*}`).
 */
export type TemplateValues = Record<string, string | string[]>;

type Operator = "+" | "#" | "." | "/" | ";" | "?" | "&";
/** A varspec's name: without its prefix (`:3`) or explode (`*`) modifier. */
type VariableName<V extends string> = V extends `${infer N}:${string}` ? N : V extends `${infer N}*` ? N : V;
type VariableNames<List extends string> = List extends `${infer Head},${infer Tail}` ? VariableName<Head> | VariableNames<Tail> : VariableName<List>;
type Expressions<S extends string> = S extends `${string}{${infer E}}${infer Rest}` ? E | Expressions<Rest> : never;
/** Query expressions (`{?q}`, `{&page}`) may be absent from a URI; the others are always there. */
type PresentNames<E extends string> = E extends `${"?" | "&"}${string}` ? never : E extends `${Operator}${infer L}` ? VariableNames<L> : VariableNames<E>;
type QueryNames<E extends string> = E extends `${"?" | "&"}${infer L}` ? VariableNames<L> : never;

/**
 * The values a URI matching template `S` gives, by the variables `S` names (RFC 6570): those of a
 * query expression possibly absent. Any names where `S` is not a literal.
 */
export type TemplateVariables<S extends string> = string extends S
  ? TemplateValues
  : { [N in PresentNames<Expressions<S>>]: string | string[] } & { [N in QueryNames<Expressions<S>>]?: string | string[] };

/** What `expand` takes per variable (RFC 6570 section 2.3): a string, a list, an associative array, or undefined. */
export type ExpansionValue = string | readonly string[] | Readonly<Record<string, string>> | undefined;

interface Variable {
  readonly name: string;
  readonly explode: boolean;
  /** The `:n` prefix modifier's n. */
  readonly prefix?: number;
}

interface Expression {
  readonly operator: string;
  readonly variables: readonly Variable[];
}

const OPERATORS = "+#./;?&";
/** What one expression can match, by operator; empty values are allowed except for simple and reserved strings. */
const PATTERNS: Record<string, string> = {
  "": "([^/?#]+)",
  "+": "(.+?)",
  "#": "(?:#(.*))?",
  "/": "((?:/[^/?#]*)*)",
  ".": "((?:\\.[^/?#.]*)*)",
  ";": "((?:;[^/?#;]*)*)",
  "?": "(\\?[^#]*)?",
  "&": "(&[^#]*)?",
};
const SEPARATORS: Record<string, string> = { "": ",", "+": ",", "#": ",", "/": "/", ".": ".", ";": ";", "?": "&", "&": "&" };
/** RFC 6570 appendix A's table: what an expression's expansion starts with, and what an empty named value reads as. */
const FIRST: Record<string, string> = { "": "", "+": "", "#": "#", "/": "/", ".": ".", ";": ";", "?": "?", "&": "&" };
const NAMED = new Set([";", "?", "&"]);

/**
 * An RFC 6570 URI template (levels 1 to 4): `match` reads a URI's variables, `expand` writes a URI
 * from values.
 */
export class UriTemplate {
  /** Its variables' names, each once, in order of first use. */
  readonly variables: readonly string[];
  private readonly expressions: readonly Expression[] = [];
  /** The template split at its expressions: literal, expression, literal, ... literal. */
  private readonly literals: readonly string[] = [];
  private readonly pattern: RegExp;

  constructor(readonly template: string) {
    let source = "";
    let last = 0;
    const expressions: Expression[] = [];
    const literals: string[] = [];
    for (const match of template.matchAll(/\{([^{}]*)\}/g)) {
      literals.push(template.slice(last, match.index));
      source += escapeRegExp(template.slice(last, match.index));
      last = match.index + match[0].length;
      const body = match[1]!;
      // Not OPERATORS.includes(body[0] ?? ""): every string includes "", so "{}" read as operator undefined.
      const operator = body !== "" && OPERATORS.includes(body[0]!) ? body[0]! : "";
      const variables = body
        .slice(operator.length)
        .split(",")
        .map((spec) => {
          const explode = spec.endsWith("*");
          const [, name = "", prefix] = /^(.*?)(?::([1-9]\d{0,3}))?$/.exec(explode ? spec.slice(0, -1) : spec)!;
          if (!/^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/.test(name))
            throw new Error(`invalid URI template ${JSON.stringify(template)}: bad variable ${JSON.stringify(spec)}`);
          return prefix === undefined ? { name, explode } : { name, explode, prefix: Number(prefix) };
        });
      expressions.push({ operator, variables });
      source += PATTERNS[operator];
    }
    if (/[{}]/.test(template.slice(last))) throw new Error(`invalid URI template ${JSON.stringify(template)}: unbalanced braces`);
    source += escapeRegExp(template.slice(last));
    literals.push(template.slice(last));
    this.literals = literals;
    this.expressions = expressions;
    this.variables = [...new Set(expressions.flatMap((e) => e.variables.map((v) => v.name)))];
    this.pattern = new RegExp(`^${source}$`);
  }

  /** The variable values, or undefined when `uri` is not an expansion of this template. */
  match(uri: string): TemplateValues | undefined {
    const found = this.pattern.exec(uri);
    if (!found) return undefined;
    const values: TemplateValues = {};
    try {
      this.expressions.forEach((expression, i) => assign(expression, found[i + 1] ?? "", values));
    } catch {
      return undefined; // malformed percent-encoding: not an expansion of anything
    }
    return values;
  }

  /**
   * What `match` can give each variable, read off the same rules: `always` unless a URI may leave
   * it out (every operator but simple and reserved expansion matches nothing, and a list's later
   * variables may be missing: `{?x}`, `{&x}`, `{/x}`, `{x,y}`'s y); `list` when its value may arrive as
   * a list (explode, named values holding commas, path and label segments).
   */
  variableShapes(): { readonly name: string; readonly always: boolean; readonly list: boolean }[] {
    const shapes = new Map<string, { name: string; always: boolean; list: boolean }>();
    for (const { operator, variables } of this.expressions)
      variables.forEach(({ name, explode }, i) => {
        const always = (operator === "" || operator === "+") && i === 0;
        const single = variables.length === 1;
        const list = NAMED.has(operator) || (single && (explode || operator === "/" || operator === "."));
        const known = shapes.get(name);
        shapes.set(name, { name, always: always || (known?.always ?? false), list: list || (known?.list ?? false) });
      });
    return [...shapes.values()];
  }

  /** The URI these values expand the template into (RFC 6570 section 3.2); undefined variables expand to nothing. */
  expand(values: Readonly<Record<string, ExpansionValue>>): string {
    let uri = encodeLiteral(this.literals[0]!);
    this.expressions.forEach((expression, i) => {
      uri += expandExpression(expression, values) + encodeLiteral(this.literals[i + 1]!);
    });
    return uri;
  }
}

/** RFC 6570 section 3.2.1's algorithm for one expression. */
function expandExpression({ operator, variables }: Expression, values: Readonly<Record<string, ExpansionValue>>): string {
  const separator = SEPARATORS[operator]!;
  const named = NAMED.has(operator);
  const reserved = operator === "+" || operator === "#";
  const encode = (text: string) => encodeValue(text, reserved);
  // `;x` for an empty x, but `?x=` and `&x=` (the table's "ifemp").
  const pair = (name: string, value: string) => (value === "" && operator === ";" ? name : `${name}=${value}`);
  const parts: string[] = [];
  for (const { name, explode, prefix } of variables) {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) continue;
    if (typeof value === "string") {
      const text = encode(prefix === undefined ? value : Array.from(value).slice(0, prefix).join(""));
      parts.push(named ? pair(name, text) : text);
      continue;
    }
    const items: [string, string][] = isList(value) ? value.map((item) => ["", encode(item)]) : Object.entries(value).map(([key, item]) => [encode(key), encode(item)]);
    if (items.length === 0) continue; // an empty list or associative array is undefined (section 2.3)
    const list = isList(value);
    if (!explode) {
      const joined = items.map(([key, item]) => (list ? item : `${key},${item}`)).join(",");
      parts.push(named ? pair(name, joined) : joined);
    } else if (list) parts.push(items.map(([, item]) => (named ? pair(name, item) : item)).join(separator));
    else parts.push(items.map(([key, item]) => pair(key, item)).join(separator));
  }
  return parts.length ? FIRST[operator] + parts.join(separator) : "";
}

function isList(value: readonly string[] | Readonly<Record<string, string>>): value is readonly string[] {
  return Array.isArray(value);
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/** Percent-encodes all but the unreserved characters, or (for + and #) also the reserved ones and existing pct-encoded triplets. */
function encodeValue(text: string, allowReserved: boolean): string {
  let out = "";
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (UNRESERVED.test(char) || (allowReserved && RESERVED.test(char))) out += char;
    else if (allowReserved && char === "%" && /^[0-9A-Fa-f]{2}$/.test((chars[i + 1] ?? "") + (chars[i + 2] ?? ""))) out += char;
    else out += percentEncode(char);
  }
  return out;
}

/** Literal characters are copied, except those a URI cannot hold, which are percent-encoded (section 3.1). */
function encodeLiteral(text: string): string {
  return encodeValue(text, true);
}

function percentEncode(char: string): string {
  return Array.from(new TextEncoder().encode(char), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
}

function assign({ operator, variables }: Expression, captured: string, values: TemplateValues): void {
  if (captured === "") return;
  const separator = SEPARATORS[operator]!;
  const prefixed = operator === "/" || operator === "." || operator === ";" || operator === "?" || operator === "&";
  const parts = (prefixed ? captured.slice(1) : captured).split(separator);
  const named = operator === ";" || operator === "?" || operator === "&";
  if (named) {
    for (const part of parts) {
      const equals = part.indexOf("=");
      const name = decode(equals < 0 ? part : part.slice(0, equals));
      const value = equals < 0 ? "" : decode(part.slice(equals + 1));
      if (variables.some((v) => v.name === name)) values[name] = value.includes(",") ? value.split(",") : value;
    }
    return;
  }
  if (variables.length === 1) {
    const [variable] = variables;
    values[variable!.name] = variable!.explode || (parts.length > 1 && separator !== ",") ? parts.map(decode) : decode(captured.slice(prefixed ? 1 : 0));
    return;
  }
  variables.forEach((variable, i) => {
    if (parts[i] !== undefined) values[variable.name] = decode(parts[i]!);
  });
}

function decode(text: string): string {
  return decodeURIComponent(text);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
