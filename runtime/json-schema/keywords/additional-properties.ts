import { text } from "./expr.js";
import { at, isPlainObject, type Keyword } from "./keyword.js";

/** `additionalProperties`: false refuses every property `properties` does not name; a schema checks each. */
export const additionalProperties: Keyword = {
  reads: {
    additionalProperties(value, at, read) {
      // `{ not: {} }` admits nothing: zod's `z.record(z.string(), z.never())` (ext-tasks) says `false` that way.
      if (value === false || isNothing(value)) return { additionalProperties: false };
      const schema = read.child(value, at);
      // `{type: object, properties: {}, additionalProperties: true}`: how upstream's converter writes TypeScript's `object`.
      const { type, properties } = read.raw;
      const anyObject = value === true && (type === "object" || (Array.isArray(type) && type.length === 1 && type[0] === "object")) && isPlainObject(properties) && Object.keys(properties).length === 0;
      return anyObject ? { additionalProperties: schema, anyObject: true } : { additionalProperties: schema };
    },
  },
  children: (s) => [s.additionalProperties || undefined],
  about: "object",
  lower(s, ctx) {
    const additional = s.additionalProperties;
    if (additional === undefined) return [];
    const known = s.properties?.map((p) => p.name) ?? [];
    const patterns = (s.patternProperties ?? []).map((p) => ctx.pattern(p.pattern));
    if (additional === false)
      return [{ kind: "entries", known, patterns, refuse: { keyword: "additionalProperties", schemaPath: at(s, "additionalProperties"), message: text("is not an allowed property") }, body: [] }];
    const body = ctx.lower(additional);
    return body.length === 0 ? [] : [{ kind: "entries", known, patterns, body }];
  },
};

function isNothing(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 1 && isPlainObject(value.not) && Object.keys(value.not).length === 0;
}
