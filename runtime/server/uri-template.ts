/**
 * Matching URIs against RFC 6570 templates, the inverse of expansion: which variable values
 * would expand `template` into `uri`. Supports every level-4 operator ("", +, #, /, ., ;, ?, &),
 * comma-separated variable lists, prefixes (`{var:3}`) and explode (`{list*}`).
 */
export type TemplateValues = Record<string, string | string[]>;

interface Expression {
  readonly operator: string;
  readonly variables: readonly { readonly name: string; readonly explode: boolean }[];
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

export class UriTemplate {
  readonly variables: readonly string[];
  private readonly expressions: readonly Expression[] = [];
  private readonly pattern: RegExp;

  constructor(readonly template: string) {
    let source = "";
    let last = 0;
    const expressions: Expression[] = [];
    for (const match of template.matchAll(/\{([^{}]*)\}/g)) {
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
          const name = (explode ? spec.slice(0, -1) : spec).replace(/:\d+$/, "");
          if (!/^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/.test(name))
            throw new Error(`invalid URI template ${JSON.stringify(template)}: bad variable ${JSON.stringify(spec)}`);
          return { name, explode };
        });
      expressions.push({ operator, variables });
      source += PATTERNS[operator];
    }
    if (/[{}]/.test(template.slice(last))) throw new Error(`invalid URI template ${JSON.stringify(template)}: unbalanced braces`);
    source += escapeRegExp(template.slice(last));
    this.expressions = expressions;
    this.variables = expressions.flatMap((e) => e.variables.map((v) => v.name));
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
