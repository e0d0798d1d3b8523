import { didYouMean } from "./did-you-mean.js";
import { JSON_SCHEMA_KEYWORDS } from "../runtime/json-schema/keywords/vocabulary.js";

/**
 * A keyword no JSON Schema dialect defines, in a user's tool schema: JSON Schema ignores it, so it
 * checks nothing, and the user hears of it as a warning with a did-you-mean (a typo, often:
 * `propertes`).
 */

export function unknownKeywordMessage(keyword: string): string {
  return `unknown keyword "${keyword}"${didYouMean(keyword, JSON_SCHEMA_KEYWORDS)}: JSON Schema ignores it, so it checks nothing`;
}

const MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const SINGLE = ["additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"];
const LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];

/** Every unknown keyword below `schema`, with its JSON Pointer (`pointer` is the schema's own), following only the keywords that hold schemas. */
export function unknownKeywords(schema: unknown, pointer: string): { pointer: string; message: string }[] {
  const found: { pointer: string; message: string }[] = [];
  const at = (base: string, ...tokens: (string | number)[]) => tokens.reduce<string>((p, t) => `${p}/${String(t).replace(/~/g, "~0").replace(/\//g, "~1")}`, base);
  const visit = (node: unknown, here: string) => {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (!JSON_SCHEMA_KEYWORDS.includes(key)) found.push({ pointer: at(here, key), message: unknownKeywordMessage(key) });
      else if (MAPS.includes(key) && typeof value === "object" && value !== null) for (const [name, child] of Object.entries(value)) visit(child, at(here, key, name));
      else if (SINGLE.includes(key)) visit(value, at(here, key));
      else if (LISTS.includes(key) && Array.isArray(value)) value.forEach((child, i) => visit(child, at(here, key, i)));
      else if (key === "items") Array.isArray(value) ? value.forEach((child, i) => visit(child, at(here, key, i))) : visit(value, at(here, key));
      else if (key === "dependencies" && typeof value === "object" && value !== null)
        for (const [name, child] of Object.entries(value)) if (!Array.isArray(child)) visit(child, at(here, key, name));
    }
  };
  visit(schema, pointer);
  return found;
}

