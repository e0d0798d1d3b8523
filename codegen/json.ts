/**
 * JSON read from a user's file: a syntax error names the file, line and column (1-based, as
 * editors count), not only JSON.parse's character offset.
 */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // V8 names no position for an unexpected token (`Unexpected token '}', "..." is not valid JSON`): found by syntaxErrorAt.
    const offset = Number(/at position (\d+)/.exec(message)?.[1] ?? (/Unexpected end of JSON input/.test(message) ? text.length : syntaxErrorAt(text)));
    const reason = message
      .replace(/\s*\(line \d+ column \d+\)/, "")
      .replace(/ in JSON at position \d+/, "")
      .replace(/^JSON\.parse: /, "")
      .replace(/^(Unexpected token '.+?'), .* is not valid JSON$/s, "$1");
    if (Number.isNaN(offset)) throw new Error(`${file} is not valid JSON: ${reason}`);
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    throw new Error(`${file}:${line}:${column}: not valid JSON: ${reason}`);
  }
}

/**
 * Where JSON text (RFC 8259) first goes wrong, as an offset; NaN when it is valid. A recogniser
 * of the grammar, run only after JSON.parse refused the text, so that every syntax error gets a
 * line and column.
 */
export function syntaxErrorAt(text: string): number {
  let at = 0;
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const fail = (): never => {
    throw at;
  };
  const literal = (word: string) => {
    for (const char of word) if (text[at++] !== char) (at--, fail());
  };
  const digits = () => {
    const start = at;
    while (at < text.length && text[at]! >= "0" && text[at]! <= "9") at++;
    if (at === start) fail();
  };
  const string = () => {
    at++;
    for (;;) {
      if (at >= text.length) fail();
      const char = text.charCodeAt(at);
      if (char === 0x22) return void at++;
      if (char < 0x20) fail();
      if (char !== 0x5c) {
        at++;
        continue;
      }
      at++;
      if ('"\\/bfnrt'.includes(text[at] ?? "x")) at++;
      else if (text[at] === "u") {
        at++;
        for (let k = 0; k < 4; k++, at++) if (!/[0-9a-fA-F]/.test(text[at] ?? "")) fail();
      } else fail();
    }
  };
  // Depth-first with an explicit stack: no recursion for deeply nested text.
  const value = () => {
    const open: ("[" | "{")[] = [];
    for (;;) {
      space();
      const char = text[at];
      if (char === "{" || char === "[") {
        open.push(char);
        at++;
        space();
        if (text[at] === (char === "{" ? "}" : "]")) {
          open.pop();
          at++;
        } else {
          if (char === "{") member();
          continue;
        }
      } else if (char === '"') string();
      else if (char === "t") literal("true");
      else if (char === "f") literal("false");
      else if (char === "n") literal("null");
      else if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) {
        if (text[at] === "-") at++;
        if (text[at] === "0") at++;
        else digits();
        if (text[at] === ".") (at++, digits());
        if (text[at] === "e" || text[at] === "E") {
          at++;
          if (text[at] === "+" || text[at] === "-") at++;
          digits();
        }
      } else fail();
      // After a value: a comma and the next, or the close of its container.
      for (;;) {
        const inside = open.at(-1);
        if (inside === undefined) return;
        space();
        if (text[at] === ",") {
          at++;
          if (inside === "{") (space(), member());
          break;
        }
        if (text[at] !== (inside === "{" ? "}" : "]")) fail();
        open.pop();
        at++;
      }
    }
  };
  // A member's name and colon; its value follows.
  const member = () => {
    if (text[at] !== '"') fail();
    string();
    space();
    if (text[at] !== ":") fail();
    at++;
  };
  try {
    value();
    space();
    if (at < text.length) fail();
    return NaN;
  } catch (offset) {
    if (typeof offset !== "number") throw offset;
    return offset;
  }
}

/**
 * `value` as a JavaScript expression that evaluates to exactly that JSON value. JSON text is
 * almost one: only a `"__proto__"` key differs, since in an object literal it sets the prototype
 * instead of adding a property (ECMA-262, __proto__ Property Names in Object Initializers); it is
 * written as the computed key `["__proto__"]`, which adds the property.
 */
export function jsonExpression(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonExpression).join(", ")}]`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  const entries = Object.entries(value).map(([key, v]) => `${propertyKey(key)}: ${jsonExpression(v)}`);
  return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
}

/** A property name in an object literal that always adds an own property named `key`. */
export function propertyKey(key: string): string {
  return key === "__proto__" ? `["__proto__"]` : JSON.stringify(key);
}
