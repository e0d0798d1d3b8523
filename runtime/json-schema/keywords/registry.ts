import { additionalProperties } from "./additional-properties.js";
import { allOf } from "./all-of.js";
import { annotations } from "./annotations.js";
import { anyOf } from "./any-of.js";
import { conditional } from "./conditional.js";
import { constKeyword } from "./const.js";
import { contains } from "./contains.js";
import { dependencies } from "./dependencies.js";
import { dependentRequired } from "./dependent-required.js";
import { dependentSchemas } from "./dependent-schemas.js";
import { dynamicRef } from "./dynamic-ref.js";
import { enumKeyword } from "./enum.js";
import { exclusiveMaximum } from "./exclusive-maximum.js";
import { exclusiveMinimum } from "./exclusive-minimum.js";
import { format } from "./format.js";
import { identifiers } from "./identifiers.js";
import { items } from "./items.js";
import type { Keyword, Rule } from "./keyword.js";
import type { Schema } from "../model/schema.js";
import { maxItems } from "./max-items.js";
import { maxLength } from "./max-length.js";
import { maxProperties } from "./max-properties.js";
import { maximum } from "./maximum.js";
import { minItems } from "./min-items.js";
import { minLength } from "./min-length.js";
import { minProperties } from "./min-properties.js";
import { minimum } from "./minimum.js";
import { multipleOf } from "./multiple-of.js";
import { not } from "./not.js";
import { oneOf } from "./one-of.js";
import { pattern } from "./pattern.js";
import { patternProperties } from "./pattern-properties.js";
import { prefixItems } from "./prefix-items.js";
import { properties } from "./properties.js";
import { propertyNames } from "./property-names.js";
import { ref } from "./ref.js";
import { required } from "./required.js";
import { type } from "./type.js";
import { unevaluatedItems } from "./unevaluated-items.js";
import { unevaluatedProperties } from "./unevaluated-properties.js";
import { uniqueItems } from "./unique-items.js";

/**
 * Every keyword the generator reads, one line each, in the order their checks run: `$ref` and `$dynamicRef` first,
 * then the `type` gate, which guards all that follow; consecutive keywords about the same instance
 * type share one guard. The loader's rules (load/normalize.ts), the supported list and the walk
 * over sub-schemas are derived from it. A new keyword is a module in this folder and a line here.
 */
export const KEYWORDS: readonly Keyword[] = [
  ref,
  dynamicRef,
  type,
  constKeyword,
  enumKeyword,
  ...[properties, required, patternProperties, additionalProperties, propertyNames, minProperties, maxProperties, dependentRequired, dependentSchemas, unevaluatedProperties],
  ...[maxItems, minItems, uniqueItems, prefixItems, items, contains, unevaluatedItems],
  ...[minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf],
  ...[format, pattern, minLength, maxLength],
  ...[anyOf, allOf, oneOf, not, conditional],
  // Read only: they check nothing of their own.
  ...[dependencies, identifiers, annotations],
];

/** The rule for each keyword the loader reads (the supported list: any other keyword is refused, or unread in a tool schema). */
export const RULES: ReadonlyMap<string, Rule> = new Map(KEYWORDS.flatMap((keyword) => Object.entries(keyword.reads)));

/** The sub-schemas of a node, as its keywords hold them once read. */
export function childrenOf(schema: Schema): Schema[] {
  return KEYWORDS.flatMap((keyword) => keyword.children?.(schema) ?? []).filter((s): s is Schema => s !== undefined);
}
