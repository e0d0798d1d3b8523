import { call, SUBJECT, test, text } from "./expr.js";
import { at, isPlainObject, type Keyword } from "./keyword.js";

/** `propertyNames`: every property name, a string, matches the schema. */
export const propertyNames: Keyword = {
  reads: {
    propertyNames(value, at, read) {
      if (read.tool) return { propertyNames: read.child(value, at) };
      // Every JSON property name is a string: `{ type: "string" }` constrains nothing (zod's z.record writes it).
      if (!isPlainObject(value) || Object.keys(value).length !== 1 || value.type !== "string")
        read.fail(at, `only propertyNames { "type": "string" } (no constraint) is supported, found ${JSON.stringify(value)}`);
      return {};
    },
  },
  children: (s) => [s.propertyNames],
  about: "object",
  lower(s, ctx) {
    const names = s.propertyNames;
    if (!names) return [];
    // A property name is a string: a `type` that allows strings and guards nothing holds already (zod's z.record writes
    // `{ "type": "string" }` alone). One that guards string keywords stays: generate --tools' TypeScript narrows the name by it.
    const body = ctx.lower(names).filter((node) => !(node.kind === "assert" && node.keyword === "type" && node.then.length === 0 && names.type?.includes("string")));
    if (body.length === 0) return [];
    return [{ kind: "assert", keyword: "propertyNames", schemaPath: at(s, "propertyNames"), valid: call("everyKey", SUBJECT, test({ pointer: names.pointer, body })), message: text("every property name must match propertyNames"), then: [] }];
  },
};
