import { text } from "./expr.js";
import { at, type Keyword } from "./keyword.js";

/** `additionalProperties`: false refuses every property `properties` does not name; a schema checks each. */
export const additionalProperties: Keyword = {
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
