/**
 * What the ends of a frame too large to keep tell about it. A JSON-RPC message is an object whose
 * `id` and `method` are primitives, and writers put them first (ours, Python's) or last (the
 * official TypeScript SDK spreads the params first: `{ method, params, jsonrpc, id }`), so the
 * members that are primitives at either end of the object usually name the message: enough to
 * answer an oversized request with its id, or to fail the request an oversized answer was for,
 * instead of leaving it to time out.
 *
 * Only members at the outer level are read, and a value that is an object or an array ends the
 * scan: forward from the first `{`, its key is still noted; backward from the last `}`, its key
 * cannot be found without reading it. A string is read backward up to the first `"` that is not
 * escaped, which in JSON is one preceded by an even run of backslashes; where the tail starts too
 * close to tell, the scan stops. The frame was never parsed, so what is read is a best guess.
 */

/** The value of a member that is an object or an array (not read). */
const NESTED: unique symbol = Symbol("nested");

/**
 * The members read at the outer level of the object whose text starts with `head` and ends with
 * `tail`: a primitive's value, or NESTED. A name that comes twice has its last value, as with
 * JSON.parse (one between the ends is not seen). Text that is not JSON ends a scan, never throws.
 */
export function frameEnds(head: string, tail: string): ReadonlyMap<string, unknown> {
  const first = new Map<string, unknown>();
  const last = new Map<string, unknown>();
  forward(head, first);
  backward(tail, last);
  for (const [key, value] of last) first.set(key, value);
  return first;
}

const SPACE = /[ \t\r\n]/;
// JSON's own grammar (RFC 8259), so that what matches is what JSON.parse reads.
const STRING = String.raw`"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"`;
const PRIMITIVE = new RegExp(String.raw`${STRING}|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null`, "y");
const KEY = new RegExp(STRING, "y");

function forward(text: string, into: Map<string, unknown>): void {
  let i = skip(text, 0, 1);
  if (text[i] !== "{") return;
  for (i = skip(text, i + 1, 1); ; ) {
    KEY.lastIndex = i;
    const key = KEY.exec(text);
    if (!key) return;
    i = skip(text, KEY.lastIndex, 1);
    if (text[i] !== ":") return;
    i = skip(text, i + 1, 1);
    if (text[i] === "{" || text[i] === "[") return void into.set(JSON.parse(key[0]) as string, NESTED);
    PRIMITIVE.lastIndex = i;
    const value = PRIMITIVE.exec(text);
    if (!value) return;
    i = skip(text, PRIMITIVE.lastIndex, 1);
    // The value is whole only when a ',' or the closing '}' follows it (the head may end inside it).
    if (text[i] !== "," && text[i] !== "}") return;
    into.set(JSON.parse(key[0]) as string, JSON.parse(value[0]));
    if (text[i] === "}") return;
    i = skip(text, i + 1, 1);
  }
}

function backward(text: string, into: Map<string, unknown>): void {
  let i = skip(text, text.length - 1, -1);
  if (text[i] !== "}") return;
  for (i = skip(text, i - 1, -1); i >= 0; ) {
    // An object or array: its key is not found without reading it.
    if (text[i] === "}" || text[i] === "]") return;
    let valueStart = i;
    if (text[i] === '"') valueStart = openingQuote(text, i);
    else while (valueStart > 0 && /[-+.\w]/.test(text[valueStart - 1]!)) valueStart--;
    // At the tail's first character a value may have begun before it.
    if (valueStart <= 0) return;
    const value = parse(text.slice(valueStart, i + 1));
    if (value === undefined) return;
    i = skip(text, valueStart - 1, -1);
    if (text[i] !== ":") return;
    i = skip(text, i - 1, -1);
    if (text[i] !== '"') return;
    const keyStart = openingQuote(text, i);
    if (keyStart < 0) return;
    note(into, text.slice(keyStart, i + 1), value.value);
    i = skip(text, keyStart - 1, -1);
    if (text[i] !== ",") return; // '{': the whole object was read; anything else: not JSON we follow
    i = skip(text, i - 1, -1);
  }
}

/** The index of the `"` that opens the string whose closing `"` is at `close`; -1 when the text may start inside it. */
function openingQuote(text: string, close: number): number {
  for (let i = close - 1; i >= 1; i--) {
    if (text[i] !== '"') continue;
    let before = i - 1;
    while (before >= 0 && text[before] === "\\") before--;
    if (before < 0) return -1; // only backslashes back to the start: escaped or not, unknown
    if ((i - 1 - before) % 2 === 0) return i;
  }
  return -1;
}

function parse(token: string): { value: unknown } | undefined {
  PRIMITIVE.lastIndex = 0;
  const match = PRIMITIVE.exec(token);
  if (!match || match[0].length !== token.length) return undefined;
  return { value: JSON.parse(token) };
}

/** Backward, the first reading of a name is its last in the text: the one JSON.parse keeps. */
function note(into: Map<string, unknown>, quotedKey: string, value: unknown): void {
  if (!KEY_ALONE.test(quotedKey)) return;
  const key = JSON.parse(quotedKey) as string;
  if (!into.has(key)) into.set(key, value);
}

const KEY_ALONE = new RegExp(`^${STRING}$`);

function skip(text: string, i: number, step: 1 | -1): number {
  while (i >= 0 && i < text.length && SPACE.test(text[i]!)) i += step;
  return i;
}
