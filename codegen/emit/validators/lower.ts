import type { Schema } from "../../load/schema.js";
import type { GuardType, Node } from "../../keywords/ir.js";
import { additionalProperties } from "../../keywords/additional-properties.js";
import { allOf } from "../../keywords/all-of.js";
import { anyOf } from "../../keywords/any-of.js";
import { constKeyword } from "../../keywords/const.js";
import { enumKeyword } from "../../keywords/enum.js";
import { format } from "../../keywords/format.js";
import { items } from "../../keywords/items.js";
import type { Keyword, LowerContext } from "../../keywords/keyword.js";
import { maxItems } from "../../keywords/max-items.js";
import { maximum } from "../../keywords/maximum.js";
import { minimum } from "../../keywords/minimum.js";
import { properties } from "../../keywords/properties.js";
import { ref } from "../../keywords/ref.js";
import { required } from "../../keywords/required.js";
import { typeGate } from "../../keywords/type.js";
import { conditional } from "../../keywords/conditional.js";
import { exclusiveMaximum } from "../../keywords/exclusive-maximum.js";
import { exclusiveMinimum } from "../../keywords/exclusive-minimum.js";
import { maxLength } from "../../keywords/max-length.js";
import { maxProperties } from "../../keywords/max-properties.js";
import { minItems } from "../../keywords/min-items.js";
import { minLength } from "../../keywords/min-length.js";
import { minProperties } from "../../keywords/min-properties.js";
import { multipleOf } from "../../keywords/multiple-of.js";
import { not } from "../../keywords/not.js";
import { oneOf } from "../../keywords/one-of.js";
import { pattern } from "../../keywords/pattern.js";
import { uniqueItems } from "../../keywords/unique-items.js";
import { dependentRequired } from "../../keywords/dependent-required.js";
import { contains } from "../../keywords/contains.js";
import { patternProperties } from "../../keywords/pattern-properties.js";
import { prefixItems } from "../../keywords/prefix-items.js";
import { propertyNames } from "../../keywords/property-names.js";
import { dependentSchemas } from "../../keywords/dependent-schemas.js";

/**
 * The keywords behind the type gate, in the order their checks run. Consecutive keywords about
 * the same instance type share one guard. A new keyword is a module in keywords/ and a line here.
 */
const KEYWORDS: readonly Keyword[] = [
  constKeyword,
  enumKeyword,
  ...[properties, required, patternProperties, additionalProperties, propertyNames, minProperties, maxProperties, dependentRequired, dependentSchemas],
  ...[maxItems, minItems, uniqueItems, prefixItems, items, contains],
  ...[minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf],
  ...[format, pattern, minLength, maxLength],
  ...[anyOf, allOf, oneOf, not, conditional],
];

/** Lowers schema nodes to check nodes: `$ref` first, then `type`, which gates everything else. */
export class Lowering implements LowerContext {
  /** Regular expressions by source, each a module-level constant of the emitted file. */
  readonly patterns = new Map<string, string>();

  constructor(private readonly definitions: (name: string) => Schema) {}

  definition(name: string): Schema {
    return this.definitions(name);
  }

  /** JSON values by their text, each a module-level constant of the emitted file. */
  readonly constants = new Map<string, { name: string; value: unknown }>();

  constant(value: unknown): string {
    const key = JSON.stringify(value);
    let entry = this.constants.get(key);
    if (entry === undefined) this.constants.set(key, (entry = { name: `VALUE_${this.constants.size}`, value }));
    return entry.name;
  }

  pattern(source: string): string {
    let name = this.patterns.get(source);
    if (name === undefined) this.patterns.set(source, (name = `PATTERN_${this.patterns.size}`));
    return name;
  }

  lower(s: Schema): Node[] {
    const rest: Node[] = [];
    let group: { type: GuardType; body: Node[] } | undefined;
    const close = () => {
      if (group && group.body.length > 0) rest.push(...(fixesType(s, group.type) ? group.body : [{ kind: "guard" as const, type: group.type, body: group.body }]));
      group = undefined;
    };
    for (const keyword of KEYWORDS) {
      if (keyword.about !== group?.type) close();
      if (keyword.about && !group) group = { type: keyword.about, body: [] };
      (group ? group.body : rest).push(...keyword.lower(s, this));
    }
    close();
    return [...ref.lower(s, this), ...typeGate(s, rest)];
  }
}

/** The node's `type` already guarantees that keywords about `type` apply. */
function fixesType(s: Schema, type: GuardType): boolean {
  return s.type?.length === 1 && (s.type[0] === type || (type === "number" && s.type[0] === "integer"));
}
