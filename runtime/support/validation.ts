/*
 * Support for the generated validators of every revision: the issue shape, and the checks that
 * a schema keyword cannot spell inline. Generated validators import it from
 * `@mcp-codegen/runtime/support` (index.ts); the runtime's own JSON Schema compiler shares its checks.
 */

/** One reason a value does not match its definition. */
export interface ValidationIssue {
  /** JSON Pointer into the checked value; "" is the value itself. The location always exists. */
  readonly path: string;
  /**
   * JSON Pointer (fragment form) into the schema document to the keyword that failed, as ajv's
   * `schemaPath`, but from the document's root: `#/$defs/CallToolRequest/properties/params/required`.
   */
  readonly schemaPath: string;
  /** The schema keyword that failed: type, required, const, enum, anyOf, format, minimum, ... */
  readonly keyword: string;
  readonly message: string;
}

/** A definition's two checks: a boolean fast path, and an issue collector for error reports. */
export interface Validator<T = unknown> {
  /** Whether `value` is valid: the fast path, allocating nothing. */
  is(value: unknown): value is T;
  /** Every problem with `value`, each at a JSON Pointer; empty when it is valid. */
  check(value: unknown): ValidationIssue[];
}

/** JSON Schema's "object": arrays and null are not objects. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads a property only if the object owns it. Used for names that Object.prototype also has
 * (`constructor`, `toString`, `__proto__`...), so that `{}` is not taken to have them.
 */
export function own(value: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
}

/** The JSON type of a value, for messages. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Escapes one reference token of a JSON Pointer (RFC 6901); most keys need nothing, and get no new string (`includes` decides faster than a RegExp). */
export function pointerToken(key: string): string {
  return key.includes("~") || key.includes("/") ? key.replace(/~/g, "~0").replace(/\//g, "~1") : key;
}

// ---------------------------------------------------------------------------------------------
// Formats. The exact rules, so that any other implementation can be checked against them:
//
// byte          RFC 4648 section 4 base64 with padding: the length is a multiple of 4, every
//               character is in A-Z a-z 0-9 + /, except that the last one or two may be "=".
//               The empty string is valid. No whitespace. (ajv-formats' regular expression,
//               anchored to the whole string: its /m flag also accepts "!!!!\n".)
// uri           An absolute URI per RFC 3986 (scheme required), ASCII only; the rule of
//               ajv-formats' "full" mode, whose regular expressions are used verbatim below.
// uri-template  An RFC 6570 URI template (level 4 syntax); ajv-formats' rule, verbatim.
//
// The regular expressions below are from ajv-formats (https://github.com/ajv-validator/ajv-formats),
// Copyright (c) 2020 Evgeny Poberezkin, MIT License.
//
// Speed: the checks below decide exactly these rules, but not always by running the regular
// expression. Each shortcut says why it gives the same answer. test/codegen/emit/validators.test.ts
// compares every format verdict with ajv + ajv-formats on generated and broken values.
// ---------------------------------------------------------------------------------------------

/** Any character that base64 never has, "=" aside. */
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/** From this length on, `atob` decides faster than NOT_BASE64 scans (bench/validators.ts). */
const DECODE_FROM = 128;

// The global of every JavaScript runtime (Node, Deno, Bun, workerd, browsers), declared here so
// that the module needs neither the DOM lib nor @types/node.
declare const atob: (data: string) => string;

/**
 * format "byte". Same answer as ajv-formats' anchored
 * /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/: a length that is a multiple
 * of 4, "=" nowhere but as the last character or the last two, and no character outside the
 * alphabet.
 *
 * Below DECODE_FROM characters a search for one bad character decides (nothing allocated). From
 * there on the native `atob` does, about 4 times faster than the search on a 24 KiB image: its
 * short-lived result costs less than the scan it replaces (the rule, measured with
 * bench/validators.ts: decode when the string has 128 characters or more).
 */
export function isByte(value: string): boolean {
  const length = value.length;
  if (length % 4 !== 0) return false;
  if (length >= DECODE_FROM) return decodesExactly(value);
  const padding = value.indexOf("=");
  if (padding !== -1 && (padding < length - 2 || (padding === length - 2 && value.charCodeAt(length - 1) !== 61))) return false;
  return !NOT_BASE64.test(value);
}

/**
 * `atob` is forgiving-base64 (WHATWG): it throws on a character outside the alphabet, on "="
 * anywhere but as the last one or two characters of a length that is a multiple of 4, and it
 * accepts non-zero trailing bits, as the expression does. It skips ASCII whitespace, which the
 * length of its result gives away: each skipped character drops it below 3/4 of the length
 * less the padding.
 */
function decodesExactly(value: string): boolean {
  const length = value.length;
  const padding = value.charCodeAt(length - 1) !== 61 ? 0 : value.charCodeAt(length - 2) !== 61 ? 1 : 2;
  try {
    return atob(value).length === (length / 4) * 3 - padding;
  } catch {
    return false;
  }
}

const NOT_URI_FRAGMENT = /\/|:/;
const URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

/**
 * The plain form most URIs on the wire have, scheme://host[:port][/path][?query][#fragment], with
 * no userinfo, no IP literal and no %-escape. Every string it matches, URI matches too: each part
 * is URI's own with fewer characters allowed (reg-name for the host; one "/" then pchar and "/"
 * for the path, which is what URI's (?:\/pchar*)* spells; the same query and fragment), and it
 * contains ":" as NOT_URI_FRAGMENT wants. It runs about 3 times faster than URI.
 */
const PLAIN_URI =
  /^[a-z][a-z0-9+\-.]*:\/\/[a-z0-9\-._~!$&'()*+,;=]*(?::\d*)?(?:\/[a-z0-9\-._~!$&'()*+,;=:@/]*)?(?:\?[a-z0-9\-._~!$&'()*+,;=:@/?]*)?(?:#[a-z0-9\-._~!$&'()*+,;=:@/?]*)?$/i;

/**
 * format "uri": ajv-formats' answer. A plain URI is accepted by PLAIN_URI; everything else (and
 * everything invalid) is decided by ajv-formats' two regular expressions.
 */
export function isUri(value: string): boolean {
  return PLAIN_URI.test(value) || (NOT_URI_FRAGMENT.test(value) && URI.test(value));
}

const URI_TEMPLATE =
  /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;

/** format "uri-template". */
export function isUriTemplate(value: string): boolean {
  return URI_TEMPLATE.test(value);
}

// ---------------------------------------------------------------------------------------------
// Formats a tool schema may ask to have asserted (docs/validators.md, "Formats"): the RFCs the
// JSON Schema 2020-12 validation spec names (section 7.3), with the JSON Schema Test Suite's
// optional/format tests as their oracle (test/codegen/tool-validators/json-schema-suite.test.ts).
// ---------------------------------------------------------------------------------------------

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|([+-])(\d{2}):(\d{2}))$/i;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** RFC 3339 full-date. */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS[month - 1]!);
}

/** RFC 3339 full-time; a leap second (:60) only at 23:59 UTC. */
export function isTime(value: string): boolean {
  const m = TIME.exec(value);
  if (!m) return false;
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const sign = m[4] === "-" ? -1 : 1;
  const [offsetHour, offsetMinute] = [Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  const utc = (((hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440;
  return utc === 23 * 60 + 59;
}

/** RFC 3339 date-time. */
export function isDateTime(value: string): boolean {
  const t = value.search(/t/i);
  return t !== -1 && isDate(value.slice(0, t)) && isTime(value.slice(t + 1));
}

/** RFC 4122 UUID, any version. */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** RFC 2673 dotted-quad: four decimal octets, no leading zero. */
export function isIpv4(value: string): boolean {
  return /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(value);
}

/** RFC 4291 section 2.2 text form, with an embedded IPv4 tail; no zone, no prefix. */
export function isIpv6(value: string): boolean {
  const halves = value.split("::");
  if (halves.length > 2) return false;
  const groups = (part: string): number | undefined => {
    if (part === "") return 0;
    const pieces = part.split(":");
    let count = 0;
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes(".")) {
        if (!isIpv4(piece)) return undefined;
        count += 2;
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) count++;
      else return undefined;
    }
    return count;
  };
  const head = groups(halves[0]!);
  if (head === undefined) return false;
  if (halves.length === 1) return head === 8;
  // An IPv4 tail belongs at the end only.
  if (halves[0]!.includes(".")) return false;
  const tail = groups(halves[1]!);
  return tail !== undefined && head + tail <= 7;
}

/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, 63 characters each, 253 in all. */
export function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  // "--" in the third and fourth places is reserved for IDNA's "xn--" (RFC 5891 section 4.2.3.1).
  return value.split(".").every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(label) && (label.slice(2, 4) !== "--" || /^xn--/i.test(label)));
}

const ATOM = "[a-z0-9!#$%&'*+/=?^_`{|}~-]+";
const DOT_ATOM = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`, "i");
const QUOTED = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;

/** RFC 5321 Mailbox: a dot-atom or quoted local part, and a host name or an address literal. */
export function isEmail(value: string): boolean {
  const at = value.lastIndexOf("@");
  if (at <= 0) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!DOT_ATOM.test(local) && !QUOTED.test(local)) return false;
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const literal = domain.slice(1, -1);
    return /^ipv6:/i.test(literal) ? isIpv6(literal.slice(5)) : isIpv4(literal);
  }
  return isHostname(domain);
}

// ---------------------------------------------------------------------------------------------
// Keywords of tool schemas (`mcp-codegen generate --tools`), decided as ajv decides them.
// ---------------------------------------------------------------------------------------------

/**
 * minLength: `value` has at least `limit` code points. A string has between half its UTF-16
 * length (every character a surrogate pair) and all of it: that alone decides, but near the limit.
 */
export function hasMinLength(value: string, limit: number): boolean {
  return value.length >= 2 * limit || (value.length >= limit && stringLength(value) >= limit);
}

/** maxLength: `value` has at most `limit` code points (hasMinLength says why the UTF-16 length mostly decides). */
export function hasMaxLength(value: string, limit: number): boolean {
  return value.length <= limit || (value.length <= 2 * limit && stringLength(value) <= limit);
}

/**
 * A string's length in code points: a surrogate pair is one character, a lone surrogate is one
 * too (ajv's ucs2length, MIT License, Evgeny Poberezkin). Generated files of 0.2.0 call it.
 */
export function stringLength(value: string): number {
  const length = value.length;
  let count = 0;
  for (let i = 0; i < length; count++) {
    const code = value.charCodeAt(i++);
    if (code >= 0xd800 && code <= 0xdbff && i < length && (value.charCodeAt(i) & 0xfc00) === 0xdc00) i++;
  }
  return count;
}

/**
 * multipleOf: the quotient is an integer, as ajv decides it (`q === parseInt(q)`, no precision
 * option), without the string: parseInt reads back an integer below 1e21 and misreads the
 * exponent form of one above ("1e+21"). A quotient too large for a double (1e308 / 0.5) is decided
 * exactly instead: an integer is a multiple of a divisor whose reciprocal is an integer.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  if (!Number.isFinite(quotient)) return Number.isInteger(value) && Number.isInteger(1 / divisor);
  // As ajv decides it (parseInt(String(q)) === q): from 1e21 on a number prints with an exponent and never counts.
  return Number.isInteger(quotient) && Math.abs(quotient) < 1e21;
}

/** contains: how many elements pass `test` (stops counting past `max`). */
export function countOf(values: readonly unknown[], test: (value: unknown) => boolean, max = Infinity): number {
  let count = 0;
  for (let i = 0; i < values.length && count <= max; i++) if (test(values[i])) count++;
  return count;
}

/** propertyNames: every property name passes `test`. */
export function everyKey(object: Record<string, unknown>, test: (value: unknown) => boolean): boolean {
  for (const key in object) if (!test(key)) return false;
  return true;
}

/** uniqueItems: no two elements are equal as JSON values (deep, key order ignored). */
export function hasUniqueItems(values: readonly unknown[]): boolean {
  for (let i = 1; i < values.length; i++) for (let j = 0; j < i; j++) if (jsonEqual(values[i], values[j])) return false;
  return true;
}

/** JSON equality (JSON Schema 2020-12 core section 4.2.2): deep, object key order ignored. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

const EVALUATED_PATTERNS = new Map<string, RegExp>();

/** What an evaluation of unevaluatedProperties names: `all` of them, or these `names` and the names these `patterns` match. */
interface EvaluatedProperties {
  readonly names: readonly string[];
  readonly patterns: readonly string[];
  readonly all: boolean;
}

/**
 * Whether an evaluation that applies names `key` (`evaluated` as for everyUnevaluatedProperty).
 * Loops, no closure nor array per call: these run once per property of every value checked.
 */
function propertyEvaluated(key: string, evaluated: readonly unknown[]): boolean {
  for (let i = 0; i < evaluated.length; i += 2) {
    if (evaluated[i] !== true) continue;
    const { names, patterns, all } = evaluated[i + 1] as EvaluatedProperties;
    if (all || names.includes(key)) return true;
    for (let k = 0; k < patterns.length; k++) {
      const source = patterns[k]!;
      let pattern = EVALUATED_PATTERNS.get(source);
      if (pattern === undefined) EVALUATED_PATTERNS.set(source, (pattern = new RegExp(source, "u")));
      if (pattern.test(key)) return true;
    }
  }
  return false;
}

/**
 * unevaluatedProperties (2020-12 core section 11.3): every property that no evaluation names
 * passes `test`. `evaluated` holds pairs: whether the evaluation applies (its sub-schema passed),
 * and what it evaluates, `{ names, patterns, all }`.
 * @deprecated Validators no longer call it: each prints its own loop over the keys (a name's
 * condition tested only when the name needs it). Kept for tools.ts files generated by
 * mcp-codegen 0.2; `mcp-codegen check` reports those as stale.
 */
export function everyUnevaluatedProperty(object: Record<string, unknown>, test: (value: unknown) => boolean, ...evaluated: unknown[]): boolean {
  for (const key in object) if (!propertyEvaluated(key, evaluated) && !test(object[key])) return false;
  return true;
}

/** Nothing left unevaluated: one array for every such answer, which its callers only read. */
const NONE: readonly never[] = Object.freeze([]);

/**
 * unevaluatedProperties: the names of the properties no evaluation names, for their issues (`evaluated` as for everyUnevaluatedProperty).
 * @deprecated As everyUnevaluatedProperty: kept for tools.ts files generated by mcp-codegen 0.2.
 */
export function unevaluatedNames(object: Record<string, unknown>, ...evaluated: unknown[]): readonly string[] {
  let left: string[] | undefined;
  // `[key]` first, not `[]` then push: push grows an empty array to 17 slots.
  for (const key in object) {
    if (propertyEvaluated(key, evaluated)) continue;
    if (left === undefined) left = [key];
    else left.push(key);
  }
  return left ?? NONE;
}

/** What an evaluation of unevaluatedItems says: whether it applies, how many leading items it evaluates, its `contains` test. */
export type ItemEvaluation = boolean | number | ((value: unknown) => boolean) | null;

/** Whether an evaluation that applies covers item `i` (`evaluated` as for everyUnevaluatedItem). */
function itemEvaluated(values: readonly unknown[], i: number, evaluated: readonly ItemEvaluation[]): boolean {
  for (let k = 0; k < evaluated.length; k += 3) {
    if (evaluated[k] !== true) continue;
    if (i < (evaluated[k + 1] as number)) return true;
    const contains = evaluated[k + 2] as ((value: unknown) => boolean) | null;
    if (contains !== null && contains(values[i])) return true;
  }
  return false;
}

/**
 * unevaluatedItems (2020-12 core section 11.2): every item that no evaluation covers passes
 * `test`. `evaluated` holds triples: whether the evaluation applies, how many leading items it
 * evaluates (prefixItems; Infinity for items), and its `contains` test (the items it matches), or null.
 */
export function everyUnevaluatedItem(values: readonly unknown[], test: (value: unknown) => boolean, ...evaluated: ItemEvaluation[]): boolean {
  for (let i = 0; i < values.length; i++) if (!itemEvaluated(values, i, evaluated) && !test(values[i])) return false;
  return true;
}

/** unevaluatedItems: the indexes of the items no evaluation covers, for their issues (`evaluated` as for everyUnevaluatedItem). */
export function unevaluatedIndexes(values: readonly unknown[], ...evaluated: ItemEvaluation[]): readonly number[] {
  let left: number[] | undefined;
  for (let i = 0; i < values.length; i++) {
    if (itemEvaluated(values, i, evaluated)) continue;
    if (left === undefined) left = [i];
    else left.push(i);
  }
  return left ?? NONE;
}
