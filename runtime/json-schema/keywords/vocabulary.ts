/**
 * The keywords of JSON Schema 2020-12 and draft-07, and the tool schemas' nodes that hold them. A
 * keyword outside the list is unknown to every dialect (a typo, often: `propertes`): JSON Schema
 * ignores it, so it checks nothing (the generator warns of it: codegen/unknown-keywords.ts).
 */
export const JSON_SCHEMA_KEYWORDS: readonly string[] = [
  "$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$comment", "$defs", "definitions",
  "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies", "prefixItems", "items", "additionalItems", "contains",
  "properties", "patternProperties", "additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
  "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
  "maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties", "required", "dependentRequired",
  "format", "contentEncoding", "contentMediaType", "contentSchema", "title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
];

/** 2020-12's vocabularies (core section 8.1.2), by URI: what a meta-schema's `$vocabulary` may require. */
export const VOCABULARIES: readonly string[] = ["core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "format-assertion", "content"].map(
  (name) => `https://json-schema.org/draft/2020-12/vocab/${name}`,
);

/** The keywords of 2020-12's validation vocabulary (validation section 6): not checked under a meta-schema that leaves the vocabulary out. */
export const VALIDATION_VOCABULARY_KEYWORDS: ReadonlySet<string> = new Set([
  "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
  "maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties", "required", "dependentRequired",
]);
