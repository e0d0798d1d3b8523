import { JSON_TYPES, type JsonPrimitive, type JsonType, type Schema } from "../model/schema.js";
import { call, concat, or, SUBJECT, text, typeTest } from "./expr.js";
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
      then: allWithinType(rest, s.type),
      implied: values !== undefined && valuesHaveType(values, s.type),
    },
  ];
}

/**
 * A test of the subject against constants (the `const` or `enum` of a sub-schema applied in
 * place: `allOf`, `dependentSchemas`, `if`/`then`) drops its comparisons with primitives not of
 * the gate's type, as enum.ts and const.ts do for the node's own: the gate lets no such value
 * through, and TypeScript refuses to compare a value it narrowed with one of another type
 * (TS2367, in tools.ts). None left: no value passes (`or` of nothing is false). Nodes that test
 * other values (properties, items) are left alone; a node with nothing to change is returned as it
 * is (lowered nodes are shared).
 */
function withinType(node: Node, types: readonly JsonType[]): Node {
  switch (node.kind) {
    case "assert": {
      const operands = node.valid.kind === "or" ? node.valid.operands : [node.valid];
      const kept = operands.filter((x) => !(x.kind === "compare" && x.op === "===" && x.left.kind === "subject" && x.right.kind === "literal" && !hasType(x.right.value, types)));
      const valid = kept.length === operands.length ? node.valid : or(kept);
      const then = allWithinType(node.then, types);
      return valid === node.valid && then === node.then ? node : { ...node, valid, then };
    }
    case "guard":
    case "when": {
      const body = allWithinType(node.body, types);
      return body === node.body ? node : { ...node, body };
    }
    default:
      return node;
  }
}

function allWithinType(nodes: readonly Node[], types: readonly JsonType[]): Node[] {
  const mapped = nodes.map((node) => withinType(node, types));
  return mapped.every((node, i) => node === nodes[i]) ? (nodes as Node[]) : mapped;
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
