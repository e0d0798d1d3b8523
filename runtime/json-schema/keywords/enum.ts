import { call, compare, literal, name, or, SUBJECT, text } from "./expr.js";
import type { Expr } from "./ir.js";
import { childPointer } from "../pointer.js";
import { at, isPrimitive, primitive, type Keyword, type LowerContext } from "./keyword.js";
import { hasType } from "./type.js";

/** `enum`: one of the values, `===` for primitives, JSON equality (jsonEqual) for objects and arrays. */
export const enumKeyword: Keyword = {
  reads: {
    enum(value, at, read) {
      // An empty enum admits nothing; a tool schema may say so (the MCP schemas never do).
      if (!Array.isArray(value) || (value.length === 0 && !read.tool)) read.fail(at, "enum must be a non-empty array");
      const values = value as unknown[];
      if (read.tool && (values.length === 0 || !values.every(isPrimitive))) return { enumJson: values };
      return { enum: values.map((v, i) => primitive(v, childPointer(at, i), read)) };
    },
  },
  lower(s, ctx) {
    const values: readonly unknown[] | undefined = s.enum ?? s.enumJson;
    if (values === undefined) return [];
    // The `type` gate before it lets through no value of another type: such values are left out of the test, which
    // then never compares a narrowed value with one it cannot be (TypeScript refuses that comparison in tools.ts).
    const tested = s.type ? values.filter((value) => hasType(value, s.type!)) : values;
    return [
      {
        kind: "assert",
        keyword: "enum",
        schemaPath: at(s, "enum"),
        valid: tested.length === 0 ? literal(false) : or(tested.map((value) => equals(value, ctx))),
        message: text(`must be one of ${values.map((e) => JSON.stringify(e)).join(", ")}`),
        then: [],
      },
    ];
  },
};

function equals(value: unknown, ctx: LowerContext): Expr {
  if (typeof value === "object" && value !== null) return call("jsonEqual", SUBJECT, name(ctx.constant(value)));
  return compare(SUBJECT, "===", literal(value as string | number | boolean | null));
}
