import { JSON_TYPES, type JsonPrimitive, type JsonType, type Schema } from "../model/schema.js";
import { call, concat, SUBJECT, text, typeTest } from "./expr.js";
import type { Node } from "./ir.js";
import { at, type Keyword } from "./keyword.js";

/**
 * `type`: the gate in front of every other keyword of the node (`rest`), which then may assume
 * the type. A `const` or `enum` whose values all have the type makes the gate redundant for a
 * boolean check (`implied`); an issue collector still reports the type first.
 */
export const type: Keyword = {
  reads: {
    type(value, at, read) {
      const types = typeof value === "string" ? [value] : value;
      if (!Array.isArray(types) || types.length === 0 || !types.every((t) => JSON_TYPES.has(t))) read.fail(at, `unsupported type ${JSON.stringify(value)}`);
      return { type: types as JsonType[] };
    },
  },
  gate: typeGate,
};

function typeGate(s: Schema, rest: Node[]): Node[] {
  if (!s.type) return rest;
  const values = s.const !== undefined ? [s.const] : s.enum;
  return [
    {
      kind: "assert",
      keyword: "type",
      schemaPath: at(s, "type"),
      valid: typeTest(s.type),
      message: concat(text(`must be ${s.type.join(" or ")}, found `), call("kindOf", SUBJECT)),
      then: rest,
      implied: values !== undefined && valuesHaveType(values, s.type),
    },
  ];
}

function valuesHaveType(values: readonly JsonPrimitive[], types: readonly JsonType[]): boolean {
  return values.every((value) => hasType(value, types));
}

/** A JSON value is of one of `types` (an integer is a number with no fraction). */
export function hasType(value: unknown, types: readonly JsonType[]): boolean {
  if (value === null) return types.includes("null");
  if (Array.isArray(value)) return types.includes("array");
  if (typeof value === "number") return types.includes("number") || (types.includes("integer") && Number.isInteger(value));
  return types.includes(typeof value as JsonType);
}
